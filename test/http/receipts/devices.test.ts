import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { genesisHash } from '#client/receipts/crypto.ts'
import { issueApiClient } from '#lib/platform/auth/credentials.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import {
  areaAClient,
  DEV,
  type DevClients,
  devClients,
  type TestModeClients,
  testModeClients,
} from '../../support/clients.ts'
import { deviceKeyPair, registerTill } from '../../support/receipts.ts'

/** CONTRACT 23: a business's devices, registered, listed, read and revoked by its ADMIN keys. */

let api: TestApi
let live: DevClients
let test: TestModeClients
let otherAdmin: ReturnType<typeof areaAClient>
beforeAll(async () => {
  api = await startApi()
  live = devClients(api.url)
  test = testModeClients(api.url)
  const credentials = { apiKey: 'devices-other-admin', secret: 'devices-other-admin-secret' }
  await issueApiClient({ ...credentials, businessId: DEV.other.businessId, roles: ['ADMIN'] })
  otherAdmin = areaAClient(api.url, credentials)
})
afterAll(async () => {
  await api?.close()
})

describe('POST /api/v1/devices', () => {
  it('registers an Ed25519 and a P-256 key: 201 ACTIVE with the genesis hash of the device id', async () => {
    for (const kind of ['Ed25519', 'P-256'] as const) {
      const { publicJwk } = deviceKeyPair(kind)
      const reply = await live.admin.post<any>('/api/v1/devices', {
        name: `Till ${kind}`,
        public_key: publicJwk,
      })
      expect(reply.status).toBe(201)
      const device = reply.body.data
      expect(device).toEqual({
        device_id: expect.stringMatching(/^dev_[0-9a-f]{32}$/),
        name: `Till ${kind}`,
        public_key: publicJwk,
        status: 'ACTIVE',
        registered_at: expect.any(String),
        genesis_hash: genesisHash(device.device_id),
      })
    }
  })

  it('refuses a JWK holding its private part (400 at public_key/d) and stores nothing', async () => {
    const { privateKey } = deviceKeyPair()
    const jwk = privateKey.export({ format: 'jwk' })
    const reply = await live.admin.post<any>('/api/v1/devices', { name: 'Leaky', public_key: jwk })
    expect(reply.status).toBe(400)
    expect(reply.body.error.errors).toEqual([
      expect.objectContaining({ path: 'public_key/d', code: 'INVALID_DEVICE_KEY' }),
    ])
    const listed = await live.admin.get<any>('/api/v1/devices?size=100')
    expect(listed.body.data.content.map((d: any) => d.name)).not.toContain('Leaky')
  })

  it('refuses another key type, a bad coordinate, and a body without name, each at its path', async () => {
    const rsa = await live.admin.post<any>('/api/v1/devices', {
      name: 'RSA',
      public_key: { kty: 'RSA', n: 'x', e: 'AQAB' },
    })
    expect(rsa.status).toBe(400)
    expect(rsa.body.error.errors[0]).toMatchObject({ path: 'public_key/kty', code: 'INVALID_DEVICE_KEY' })
    const short = await live.admin.post<any>('/api/v1/devices', {
      name: 'Short',
      public_key: { kty: 'OKP', crv: 'Ed25519', x: 'abc' },
    })
    expect(short.body.error.errors[0]).toMatchObject({ path: 'public_key/x', code: 'INVALID_DEVICE_KEY' })
    const nameless = await live.admin.post<any>('/api/v1/devices', { public_key: deviceKeyPair().publicJwk })
    expect(nameless.status).toBe(400)
    expect(nameless.body.error.errors[0].path).toBe('name')
  })

  it('refuses the same key twice (409 DEVICE_KEY_REGISTERED)', async () => {
    const { publicJwk } = deviceKeyPair('P-256')
    expect((await live.admin.post<any>('/api/v1/devices', { name: 'A', public_key: publicJwk })).status).toBe(
      201,
    )
    const again = await live.admin.post<any>('/api/v1/devices', { name: 'B', public_key: publicJwk })
    expect(again.status).toBe(409)
    expect(again.body.error.errors[0]).toMatchObject({ path: 'public_key', code: 'DEVICE_KEY_REGISTERED' })
  })

  it('takes at most 100 active devices per business and mode, the last ones asked at once; a revocation frees one', async () => {
    const register = (i: number) =>
      otherAdmin.post<any>('/api/v1/devices', { name: `Till ${i}`, public_key: deviceKeyPair().publicJwk })
    const made: any[] = []
    for (let i = 0; i < 99; i += 11) {
      const replies = await Promise.all(
        Array.from({ length: Math.min(11, 99 - i) }, (_, j) => register(i + j)),
      )
      expect(replies.map((r) => r.status)).toEqual(replies.map(() => 201))
      made.push(...replies)
    }
    const last = await Promise.all(Array.from({ length: 5 }, (_, i) => register(100 + i)))
    expect(last.filter((r) => r.status === 201)).toHaveLength(1)
    const refused = last.filter((r) => r.status === 409)
    // A registration that kept meeting concurrent ones may be a 503 (try again): never a 101st.
    expect(refused.length + last.filter((r) => r.status === 503).length).toBe(4)
    expect(refused[0]!.body.error.errors[0].code).toBe('TOO_MANY_DEVICES')
    expect((await register(200)).status).toBe(409)
    await otherAdmin.request('DELETE', `/api/v1/devices/${made[0]!.body.data.device_id}`)
    expect((await register(201)).status).toBe(201)
    expect((await register(202)).status).toBe(409)
  }, 180_000)

  it('is ADMIN only (403 for an SI key)', async () => {
    const reply = await live.si.post<any>('/api/v1/devices', {
      name: 'X',
      public_key: deviceKeyPair().publicJwk,
    })
    expect(reply.status).toBe(403)
  })
})

describe('GET /api/v1/devices', () => {
  it('pages by cursor in registration order; a test-mode key lists test devices only', async () => {
    const { device: d1 } = await registerTill(test.admin, 'Ed25519', 'T1')
    const { device: d2 } = await registerTill(test.admin, 'P-256', 'T2')
    const { device: d3 } = await registerTill(test.admin, 'Ed25519', 'T3')
    const first = await test.admin.get<any>('/api/v1/devices?size=2')
    expect(first.status).toBe(200)
    expect(first.body.data.content.map((d: any) => d.device_id)).toEqual([d1.device_id, d2.device_id])
    const second = await test.admin.get<any>(
      `/api/v1/devices?size=2&cursor=${first.body.data.page.next_cursor}`,
    )
    expect(second.body.data.content.map((d: any) => d.device_id)).toEqual([d3.device_id])
    expect(second.body.data.page.next_cursor).toBeNull()
    const liveIds = (await live.admin.get<any>('/api/v1/devices?size=100')).body.data.content.map(
      (d: any) => d.device_id,
    )
    expect(liveIds).not.toContain(d1.device_id)
  })

  it('refuses a bad size or cursor (400 at its path)', async () => {
    const size = await live.admin.get<any>('/api/v1/devices?size=0')
    expect(size.status).toBe(400)
    expect(size.body.error.errors[0].path).toMatch(/size/)
    const cursor = await live.admin.get<any>('/api/v1/devices?cursor=nope')
    expect(cursor.status).toBe(400)
  })
})

describe('GET /api/v1/devices/{id}', () => {
  it("shows the device as registered; another business's or the other mode's key gets 404", async () => {
    const { device, publicJwk } = await registerTill(live.admin, 'Ed25519', 'Front till')
    const reply = await live.admin.get<any>(`/api/v1/devices/${device.device_id}`)
    expect(reply.status).toBe(200)
    expect(reply.body.data).toMatchObject({
      device_id: device.device_id,
      name: 'Front till',
      public_key: publicJwk,
      status: 'ACTIVE',
    })
    expect((await otherAdmin.get<any>(`/api/v1/devices/${device.device_id}`)).status).toBe(404)
    expect((await test.admin.get<any>(`/api/v1/devices/${device.device_id}`)).status).toBe(404)
  })

  it('refuses an id that is not a device id (400 at id)', async () => {
    const reply = await live.admin.get<any>('/api/v1/devices/nope')
    expect(reply.status).toBe(400)
    expect(reply.body.error.errors[0].path).toMatch(/id/)
  })
})

describe('DELETE /api/v1/devices/{id}', () => {
  it('revokes: REVOKED with revoked_at, shown by GET; revoking again changes nothing; others get 404', async () => {
    const { device } = await registerTill(live.admin)
    expect((await otherAdmin.request<any>('DELETE', `/api/v1/devices/${device.device_id}`)).status).toBe(404)
    expect((await test.admin.request<any>('DELETE', `/api/v1/devices/${device.device_id}`)).status).toBe(404)
    const revoked = await live.admin.request<any>('DELETE', `/api/v1/devices/${device.device_id}`)
    expect(revoked.status).toBe(200)
    expect(revoked.body.data).toMatchObject({ status: 'REVOKED', revoked_at: expect.any(String) })
    const again = await live.admin.request<any>('DELETE', `/api/v1/devices/${device.device_id}`)
    expect(again.body.data.revoked_at).toBe(revoked.body.data.revoked_at)
    expect((await live.admin.get<any>(`/api/v1/devices/${device.device_id}`)).body.data.status).toBe(
      'REVOKED',
    )
    expect((await live.admin.request<any>('DELETE', '/api/v1/devices/dev_x')).status).toBe(400)
  })
})

describe('GET /api/v1/devices/{id}/chain', () => {
  it('is empty before any receipt; 404 to another business and to the other mode; 400 for a bad id', async () => {
    const { device } = await registerTill(live.admin)
    const chain = await live.admin.get<any>(`/api/v1/devices/${device.device_id}/chain`)
    expect(chain.status).toBe(200)
    expect(chain.body.data).toEqual({
      device_id: device.device_id,
      last_counter: 0,
      last_hash: null,
      verified_through: 0,
      gaps: [],
      forks: [],
      late_count: 0,
      last_received_at: null,
    })
    expect((await otherAdmin.get<any>(`/api/v1/devices/${device.device_id}/chain`)).status).toBe(404)
    expect((await test.admin.get<any>(`/api/v1/devices/${device.device_id}/chain`)).status).toBe(404)
    expect((await live.admin.get<any>('/api/v1/devices/dev_1/chain')).status).toBe(400)
  })
})
