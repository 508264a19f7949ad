import { UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { issueApiClient, setRateLimit } from '#lib/platform/auth/credentials.ts'
import { MAX_ACTIVE_KEYS } from '#lib/platform/auth/key-count.ts'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { createBusiness } from '#lib/registry/businesses.ts'
import { commands } from '../../../scripts/cli/rate-limits.ts'
import { type HttpReply, startApi, type TestApi } from '../../support/api.ts'
import { areaAClient } from '../../support/clients.ts'

/**
 * Per-business limits (CONTRACT 18): the keys a business issues share its rate limit quota (per
 * mode), beside each key's own, and a business has at most 20 active keys per mode (409
 * TOO_MANY_KEYS beyond). Each test has a business of its own, so no count of another test is in its
 * way. Tests that count a window pin the clock (Date only) to a window's start, as
 * test/http/platform/rate-limit.test.ts does.
 */
let api: TestApi
beforeAll(async () => {
  api = await startApi()
})
afterAll(() => api?.close())
afterEach(() => {
  vi.useRealTimers()
})

const WINDOW = 3600
function atWindowStart() {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(Math.ceil(Date.now() / (WINDOW * 1000)) * WINDOW * 1000 + 1000)
}

let businesses = 0
/** A new business with one live ADMIN key (issued as the operator's CLI issues one). */
async function businessWithAdmin() {
  const n = ++businesses
  const business = await createBusiness({
    name: `Limits ${n}`,
    tin: `7${String(n).padStart(7, '0')}-0001`,
  })
  const admin = await issueApiClient({ businessId: business.businessId, roles: ['ADMIN'] })
  return { businessId: business.businessId, admin, adminClient: clientOf(admin) }
}

type Client = ReturnType<typeof areaAClient>
const clientOf = (issued: { apiKey?: string; key?: string; secret: string }) =>
  areaAClient(api.url, { apiKey: (issued.apiKey ?? issued.key)!, secret: issued.secret })

/** A distinct target each time: with the clock pinned, the same request would be a replay. */
let n = 0
const states = (client: Client) => client.get<any>(`/api/v1/resource/states?n=${n++}`)

async function issue(by: Client, body: Record<string, unknown>) {
  const reply = await by.post<any>('/api/v1/keys', body)
  expect(reply.status, reply.text).toBe(201)
  return reply.body.data as { key: string; secret: string; mode: string }
}

const policyOf = (reply: HttpReply) => reply.headers.get('ratelimit-policy')

describe('POST /api/v1/keys: per-business rate limits', () => {
  it('gives a key issued by a throttled key the same limit: minting keys does not escape it', async () => {
    const { admin, adminClient } = await businessWithAdmin()
    await setRateLimit({ apiKey: admin.apiKey }, { quota: 3, windowSeconds: WINDOW })
    atWindowStart()
    // The issue is the throttled key's first request of the window.
    const minted = clientOf(await issue(adminClient, { role: 'ADMIN' }))
    const statuses: number[] = []
    for (let i = 0; i < 20; i++) statuses.push((await states(minted)).status)
    expect(statuses).toEqual([200, 200, 200, ...Array(17).fill(429)])
  })

  it("shares the business's quota among all its keys of a mode, set with the CLI", async () => {
    const { businessId, adminClient } = await businessWithAdmin()
    const set = commands.find((c) => c.name === 'rate-limit set')!
    await set.run({ business: businessId, quota: '10', window: `${WINDOW}` })
    atWindowStart()
    // Three requests of the window: two keys issued, one test key (different bodies: the clock is
    // pinned, and the same signed bytes would be a replay).
    const first = clientOf(await issue(adminClient, { role: 'SI' }))
    const second = clientOf(await issue(adminClient, { role: 'APP' }))
    const test = clientOf(await issue(adminClient, { role: 'SI', mode: 'test' }))

    // Seven more live requests are admitted between the two new keys, and no more.
    const replies: HttpReply[] = []
    for (let i = 0; i < 6; i++) replies.push(await states(i % 2 ? second : first))
    expect(replies.map((r) => r.status)).toEqual(Array(6).fill(200))
    expect(policyOf(replies[0]!)).toBe(`"default";q=10;w=${WINDOW}`)
    expect((await states(adminClient)).status).toBe(200)
    for (const client of [first, second, adminClient]) {
      const refused = await states(client)
      expect(refused.status).toBe(429)
      expect(refused.body.message).toMatch(
        /^Rate limit exceeded: this business's live API keys together may send 10 requests every 3600 s; retry in \d+ s/,
      )
      expect(refused.headers.get('retry-after')).toBe(String(WINDOW - 1))
    }
    // Test mode has a window of its own: a sandbox burst does not take the live quota, nor the reverse.
    expect((await states(test)).status).toBe(200)
  })

  it('admits a single key under its own limit as before: the business quota defaults to the per-key default', async () => {
    const { adminClient } = await businessWithAdmin()
    const reply = await states(adminClient)
    expect(reply.status).toBe(200)
    expect(policyOf(reply)).toBe('"default";q=6000;w=60')
  })
})

describe('POST /api/v1/keys: at most 20 active keys per business and mode', () => {
  it('refuses the 21st active key of a mode with 409 TOO_MANY_KEYS until one is revoked', async () => {
    const { adminClient } = await businessWithAdmin()
    // The ADMIN key is the first of the 20 live keys.
    const issued = []
    for (let i = 1; i < MAX_ACTIVE_KEYS; i++) issued.push(await issue(adminClient, { role: 'SI' }))
    const refused = await adminClient.post<any>('/api/v1/keys', { role: 'SI' })
    expect(refused.status).toBe(409)
    expect(refused.body.error.errors).toEqual([
      {
        path: 'mode',
        code: 'TOO_MANY_KEYS',
        message: expect.stringMatching(
          /^Your business has 20 active live API keys, the most it may have: revoke one it no longer uses \(DELETE \/api\/v1\/keys\/\{key\}\)/,
        ),
      },
    ])
    // The other mode has its own 20.
    expect((await issue(adminClient, { role: 'SI', mode: 'test' })).mode).toBe('test')
    // A revoked key no longer counts: one more may be issued, and then none.
    expect((await adminClient.request('DELETE', `/api/v1/keys/${issued[0]!.key}`)).status).toBe(204)
    expect((await adminClient.request('DELETE', `/api/v1/keys/${issued[0]!.key}`)).status).toBe(204)
    await issue(adminClient, { role: 'APP' })
    expect((await adminClient.post<any>('/api/v1/keys', { role: 'SI' })).status).toBe(409)
    const listed = (await adminClient.get<any>('/api/v1/keys')).body.data as {
      active: boolean
      mode: string
    }[]
    expect(listed.filter((k) => k.active && k.mode === 'live')).toHaveLength(MAX_ACTIVE_KEYS)
  })

  it('admits exactly up to the bound when issues arrive at once', async () => {
    const { adminClient } = await businessWithAdmin()
    for (let i = 1; i < MAX_ACTIVE_KEYS - 3; i++) await issue(adminClient, { role: 'SI' })
    // Eight different bodies: the same signed bytes within one second would be a replay.
    const roles = ['SI', 'APP', 'ADMIN']
    const bodies = [
      ...roles.map((role) => ({ role })),
      ...roles.map((role) => ({ role, mode: 'live' })),
      ...roles.slice(0, 2).map((role) => ({ mode: 'live', role })),
    ]
    const replies = await Promise.all(bodies.map((body) => adminClient.post<any>('/api/v1/keys', body)))
    const statuses = replies.map((r) => r.status).sort()
    expect(statuses, replies.map((r) => r.text).join('\n')).toEqual([
      ...Array(3).fill(201),
      ...Array(5).fill(409),
    ])
  })

  it('counts the keys issued before the bound existed', async () => {
    const { businessId, admin, adminClient } = await businessWithAdmin()
    const earlier = []
    for (let i = 1; i < MAX_ACTIVE_KEYS - 1; i++)
      earlier.push(await issueApiClient({ businessId, roles: ['SI'] }))
    // What the table held before the count: the same keys, with no count item and no mark on them.
    for (const { apiKey } of [admin, ...earlier]) {
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.apiClient(apiKey),
          UpdateExpression: 'REMOVE counted',
        }),
      )
    }
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.apiKeyCount(businessId, 'live'),
        UpdateExpression: 'REMOVE activeKeys, includesEarlier',
      }),
    )
    // 19 active: the 20th is issued, one of the earlier ones revoked makes room for one more.
    await issue(adminClient, { role: 'SI' })
    expect((await adminClient.post<any>('/api/v1/keys', { role: 'SI' })).status).toBe(409)
    expect((await adminClient.request('DELETE', `/api/v1/keys/${earlier[0]!.apiKey}`)).status).toBe(204)
    await issue(adminClient, { role: 'SI' })
    expect((await adminClient.post<any>('/api/v1/keys', { role: 'SI' })).status).toBe(409)
  })
})
