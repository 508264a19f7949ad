import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiKeyActor, auditOfBusiness } from '#lib/platform/audit/trail.ts'
import { issueApiClient } from '#lib/platform/auth/credentials.ts'
import { DEV_TEST } from '../../../scripts/local/dev-credentials.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { wholeTable } from '../../support/whole-table.ts'
import { areaAClient, DEV, type DevClients, devClients } from '../../support/clients.ts'

/**
 * Self-service API keys (CONTRACT section 15): a business's ADMIN key issues, lists, rolls and revokes
 * its business's keys, against the local server. Every reply is held to the OpenAPI document
 * (test/support/contract.ts). The server runs in this process, so a revocation here is seen at once.
 */
let api: TestApi
let clients: DevClients
/** The test-mode twin of the supplier's ADMIN key (CONTRACT 15). */
let testAdmin: ReturnType<typeof areaAClient>
/** The ADMIN key of another business. */
let otherAdmin: ReturnType<typeof areaAClient>
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
  testAdmin = areaAClient(api.url, DEV_TEST.clients.admin)
  const other = { apiKey: 'keys-other-admin', secret: 'keys-other-admin-secret' }
  await issueApiClient({ ...other, businessId: DEV.other.businessId, roles: ['ADMIN'] })
  otherAdmin = areaAClient(api.url, other)
})
afterAll(() => api?.close())

interface Issued {
  key: string
  secret: string
  role: string
  mode: string
  created_at: string
}

/** Issues a key through the API as `by` (the supplier's live ADMIN key unless said). */
async function issue(body: Record<string, unknown>, by = clients.admin): Promise<Issued> {
  const reply = await by.post<any>('/api/v1/keys', body)
  expect(reply.status, reply.text).toBe(201)
  return reply.body.data
}

const clientOf = (issued: { key: string; secret: string }) =>
  areaAClient(api.url, { apiKey: issued.key, secret: issued.secret })

/** A request any role may make: 200 when the key and secret are accepted. */
const states = (client: ReturnType<typeof areaAClient>) => client.get<any>('/api/v1/resource/states')

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function listed(by = clients.admin): Promise<any[]> {
  const reply = await by.get<any>('/api/v1/keys')
  expect(reply.status, reply.text).toBe(200)
  return reply.body.data
}

describe('POST /api/v1/keys', () => {
  it('issues a key whose secret is shown once and which works at once, in the mode asked for', async () => {
    const reply = await clients.admin.post<any>('/api/v1/keys', { role: 'SI', mode: 'live' })
    expect(reply.status).toBe(201)
    expect(reply.headers.get('x-environment')).toBe('live')
    expect(reply.body.data).toEqual({
      key: expect.stringMatching(/^ak_[A-Za-z0-9_-]{32}$/),
      secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      role: 'SI',
      mode: 'live',
      created_at: expect.any(String),
    })
    const live = await states(clientOf(reply.body.data))
    expect(live.status).toBe(200)
    expect(live.headers.get('x-environment')).toBe('live')

    // A live ADMIN may issue a test key too; the mode shows in the key and in every reply to it.
    const test = await issue({ role: 'APP', mode: 'test' })
    expect(test.key).toMatch(/^ak_test_/)
    const reached = await states(clientOf(test))
    expect(reached.status).toBe(200)
    expect(reached.headers.get('x-environment')).toBe('test')
    // It has the role asked for, and only that one.
    const si = await clientOf(test).post<any>('/api/v1/si/generate-invoice-number', {
      code: 'KEY',
      serial_number: 1,
    })
    expect(si.status).toBe(403)
  })

  it('issues test keys only to a test-mode ADMIN key (403 for a live one), its own mode by default', async () => {
    const refused = await testAdmin.post<any>('/api/v1/keys', { role: 'SI', mode: 'live' })
    expect(refused.status).toBe(403)
    expect(refused.headers.get('x-environment')).toBe('test')
    expect(refused.body.error.message).toMatch(/test-mode key issues test-mode keys only/)

    const byDefault = await issue({ role: 'SI' }, testAdmin)
    expect(byDefault.mode).toBe('test')
    expect((await states(clientOf(byDefault))).headers.get('x-environment')).toBe('test')
    expect((await issue({ role: 'SI' })).mode).toBe('live')
  })

  it('refuses a body without a known role or mode (400)', async () => {
    for (const body of [{}, { role: 'ROOT' }, { role: 'SI', mode: 'sandbox' }]) {
      const reply = await clients.admin.post<any>('/api/v1/keys', body)
      expect(reply.status, JSON.stringify(body)).toBe(400)
    }
  })

  it('stores no secret in plain text, an Idempotency-Key replay included', async () => {
    const key = { 'idempotency-key': `keys-sealed-${Date.now()}` }
    const first = await clients.admin.post<any>('/api/v1/keys', { role: 'APP', mode: 'test' }, key)
    expect(first.status).toBe(201)
    const retry = await clients.admin.post<any>('/api/v1/keys', { role: 'APP', mode: 'test' }, key)
    expect(retry.status).toBe(201)
    expect(retry.headers.get('idempotent-replayed')).toBe('true')
    expect(retry.body.data).toEqual(first.body.data)

    const rollKey = { 'idempotency-key': `keys-sealed-roll-${Date.now()}` }
    const rolled = await clients.admin.post<any>(
      `/api/v1/keys/${first.body.data.key}/roll`,
      { overlap_seconds: 60 },
      rollKey,
    )
    expect(rolled.status).toBe(201)
    const rolledAgain = await clients.admin.post<any>(
      `/api/v1/keys/${first.body.data.key}/roll`,
      { overlap_seconds: 60 },
      rollKey,
    )
    expect(rolledAgain.headers.get('idempotent-replayed')).toBe('true')
    expect(rolledAgain.body.data.secret).toBe(rolled.body.data.secret)

    const table = await wholeTable()
    expect(table).toContain('IDEMPOTENCY#')
    expect(table).toContain(first.body.data.key)
    expect(table.includes(first.body.data.secret), 'the issued secret').toBe(false)
    expect(table.includes(rolled.body.data.secret), 'the rolled secret').toBe(false)
  })
})

describe('GET /api/v1/keys', () => {
  it("lists the business's keys without secrets; a test-mode ADMIN sees the test keys only", async () => {
    const live = await issue({ role: 'ADMIN', mode: 'live' })
    const test = await issue({ role: 'SI', mode: 'test' })
    const all = await listed()
    expect(all.find((k) => k.key === live.key)).toEqual({
      key: live.key,
      roles: ['ADMIN'],
      mode: 'live',
      active: true,
      created_at: live.created_at,
      old_secret_valid_until: null,
    })
    expect(all.find((k) => k.key === test.key)).toMatchObject({ roles: ['SI'], mode: 'test' })
    // The development keys of the business are there too, those of other businesses are not.
    const names = all.map((k) => k.key)
    expect(names).toEqual(expect.arrayContaining(['dev-si-key', 'dev-admin-key', 'test-admin-key']))
    expect(names).not.toContain('dev-buyer-key')
    expect(names).not.toContain('keys-other-admin')
    const text = JSON.stringify(all)
    for (const secret of [live.secret, test.secret, DEV.clients.admin.secret])
      expect(text).not.toContain(secret)

    const testOnly = await listed(testAdmin)
    expect(testOnly.map((k) => k.mode)).toEqual(testOnly.map(() => 'test'))
    expect(testOnly.map((k) => k.key)).toEqual(expect.arrayContaining([test.key, 'test-admin-key']))
    expect(testOnly.map((k) => k.key)).not.toContain(live.key)
  })
})

describe('POST /api/v1/keys/{key}/roll', () => {
  it('gives a new secret; the old one works until the overlap ends, then is refused', async () => {
    const issued = await issue({ role: 'SI', mode: 'test' })
    const reply = await clients.admin.post<any>(`/api/v1/keys/${issued.key}/roll`, { overlap_seconds: 2 })
    expect(reply.status).toBe(201)
    const rolled = reply.body.data
    expect(rolled).toEqual({
      key: issued.key,
      secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      roles: ['SI'],
      mode: 'test',
      rolled_at: expect.any(String),
      old_secret_valid_until: expect.any(String),
    })
    expect(rolled.secret).not.toBe(issued.secret)
    const until = Date.parse(rolled.old_secret_valid_until)
    expect(until - Date.parse(rolled.rolled_at)).toBeGreaterThanOrEqual(1900)
    expect(until - Date.parse(rolled.rolled_at)).toBeLessThanOrEqual(2100)
    expect((await listed()).find((k) => k.key === issued.key).old_secret_valid_until).toBe(
      rolled.old_secret_valid_until,
    )

    const oldClient = clientOf(issued)
    const newClient = clientOf(rolled)
    expect((await states(newClient)).status).toBe(200)
    expect((await states(oldClient)).status).toBe(200)
    await wait(Math.max(0, until - Date.now()) + 200)
    const refused = await states(oldClient)
    expect(refused.status).toBe(401)
    expect(refused.body.message).toMatch(/x-api-signature does not match/)
    expect((await states(newClient)).status).toBe(200)
    expect((await listed()).find((k) => k.key === issued.key).old_secret_valid_until).toBeNull()
  })

  it('with overlap_seconds 0 refuses the old secret at once', async () => {
    const issued = await issue({ role: 'APP', mode: 'live' })
    // The server's cache holds the key's record with the old secret: the roll must not leave it usable.
    expect((await states(clientOf(issued))).status).toBe(200)
    const reply = await clients.admin.post<any>(`/api/v1/keys/${issued.key}/roll`, { overlap_seconds: 0 })
    expect(reply.status).toBe(201)
    expect(reply.body.data.old_secret_valid_until).toBeNull()
    expect((await states(clientOf(issued))).status).toBe(401)
    expect((await states(clientOf(reply.body.data))).status).toBe(200)
  })

  it('refuses an overlap over 7 days, negative or not whole (400)', async () => {
    const issued = await issue({ role: 'SI', mode: 'test' })
    for (const overlap_seconds of [604_801, -1, 1.5, '60']) {
      const reply = await clients.admin.post<any>(`/api/v1/keys/${issued.key}/roll`, { overlap_seconds })
      expect(reply.status, String(overlap_seconds)).toBe(400)
      expect(reply.text).toContain('overlap_seconds')
    }
    const longest = await clients.admin.post<any>(`/api/v1/keys/${issued.key}/roll`, {
      overlap_seconds: 604_800,
    })
    expect(longest.status).toBe(201)
  })

  it("answers 404 for another business's key, and a test ADMIN for a live key; 409 for a revoked key", async () => {
    const theirs = await otherAdmin.post<any>('/api/v1/keys', { role: 'SI' })
    expect(theirs.status).toBe(201)
    const mine = await issue({ role: 'SI', mode: 'live' })
    const roll = (by: ReturnType<typeof areaAClient>, key: string) =>
      by.post<any>(`/api/v1/keys/${key}/roll`, { overlap_seconds: 60 })
    expect((await roll(clients.admin, theirs.body.data.key)).status).toBe(404)
    expect((await roll(clients.admin, 'ak_no_such_key')).status).toBe(404)
    expect((await roll(testAdmin, mine.key)).status).toBe(404)
    expect((await roll(testAdmin, 'dev-admin-key')).status).toBe(404)
    // The other business's key still works with its own secret.
    expect((await states(clientOf(theirs.body.data))).status).toBe(200)

    expect((await clients.admin.request('DELETE', `/api/v1/keys/${mine.key}`)).status).toBe(204)
    const revoked = await roll(clients.admin, mine.key)
    expect(revoked.status).toBe(409)
    expect(revoked.body.error.message).toMatch(/revoked/)
  })
})

describe('DELETE /api/v1/keys/{key}', () => {
  it('revokes a key at once; revoking it again changes nothing', async () => {
    const issued = await issue({ role: 'SI', mode: 'test' })
    const client = clientOf(issued)
    expect((await states(client)).status).toBe(200)
    const reply = await testAdmin.request('DELETE', `/api/v1/keys/${issued.key}`)
    expect(reply.status).toBe(204)
    expect(reply.text).toBe('')
    const refused = await states(client)
    expect(refused.status).toBe(401)
    expect(refused.body.message).toMatch(/revoked/)
    expect((await listed(testAdmin)).find((k) => k.key === issued.key).active).toBe(false)
    expect((await testAdmin.request('DELETE', `/api/v1/keys/${issued.key}`)).status).toBe(204)
  })

  it("answers 404 for another business's key and, to a test ADMIN, for a live key", async () => {
    const mine = await issue({ role: 'SI', mode: 'live' })
    expect((await otherAdmin.request('DELETE', `/api/v1/keys/${mine.key}`)).status).toBe(404)
    expect((await testAdmin.request('DELETE', `/api/v1/keys/${mine.key}`)).status).toBe(404)
    expect((await testAdmin.request('DELETE', '/api/v1/keys/dev-admin-key')).status).toBe(404)
    expect((await states(clientOf(mine))).status).toBe(200)
  })

  it('lets an ADMIN key revoke itself', async () => {
    const issued = await issue({ role: 'ADMIN', mode: 'live' })
    const admin = clientOf(issued)
    expect((await admin.request('DELETE', `/api/v1/keys/${issued.key}`)).status).toBe(204)
    expect((await admin.get<any>('/api/v1/keys')).status).toBe(401)
  })
})

describe('the keys endpoints and roles', () => {
  it('refuse SI and APP keys (403)', async () => {
    for (const client of [clients.si, clients.app]) {
      expect((await client.post<any>('/api/v1/keys', { role: 'SI' })).status).toBe(403)
      expect((await client.get<any>('/api/v1/keys')).status).toBe(403)
      expect((await client.post<any>('/api/v1/keys/dev-si-key/roll', { overlap_seconds: 0 })).status).toBe(
        403,
      )
      expect((await client.request('DELETE', '/api/v1/keys/dev-si-key')).status).toBe(403)
    }
    // Nothing changed: the SI key still works with its secret.
    expect((await states(clients.si)).status).toBe(200)
  })
})

describe('the audit trail', () => {
  it('records the issue, roll and revocation of a key, by the ADMIN key that made them', async () => {
    const issued = await issue({ role: 'APP', mode: 'test' })
    await clients.admin.post<any>(`/api/v1/keys/${issued.key}/roll`, { overlap_seconds: 30 })
    await clients.admin.request('DELETE', `/api/v1/keys/${issued.key}`)
    const events = (await auditOfBusiness(DEV.supplier.businessId)).filter(
      (e) => e.subject.id === apiKeyActor(issued.key),
    )
    const by = apiKeyActor(DEV.clients.admin.apiKey)
    expect(events.map((e) => [e.type, e.actor, e.detail])).toEqual([
      ['CREDENTIAL_ISSUED', by, { kind: 'api-client', roles: 'APP', mode: 'test' }],
      ['CREDENTIAL_ROTATED', by, { kind: 'api-client', overlap_seconds: 30 }],
      ['CREDENTIAL_REVOKED', by, { kind: 'api-client' }],
    ])
    // The trail never holds the key itself, nor its secret.
    expect(JSON.stringify(events)).not.toContain(issued.key)
    expect(JSON.stringify(events)).not.toContain(issued.secret)
  })
})
