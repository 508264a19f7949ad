import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApi, type TestApi } from '../../support/api.ts'
import { type DevClients, devClients, type TestModeClients, testModeClients } from '../../support/clients.ts'

/**
 * The authority's health paths (CONTRACT 17): `GET /api`, the probe its clients call first (often with
 * no credentials), and `GET /api/v1/invoice/transmit/self-health-check`; both read `code` and `healthy`.
 */

let api: TestApi
let live: DevClients
let sandbox: TestModeClients
beforeAll(async () => {
  api = await startApi()
  live = devClients(api.url)
  sandbox = testModeClients(api.url)
})
afterAll(() => api?.close())

describe('GET /api', () => {
  it('answers a probe without credentials with code and healthy', async () => {
    const reply = await live.anonymous.get<any>('/api')
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({
      code: 200,
      healthy: true,
      status: 'UP',
      execTime: expect.stringMatching(/^\d+ms$/),
    })
  })

  it('answers a signed request with the components too, in the caller mode', async () => {
    const reply = await sandbox.app.get<any>('/api')
    expect(reply.status).toBe(200)
    expect(reply.headers.get('x-environment')).toBe('test')
    expect(reply.body).toMatchObject({ code: 200, healthy: true, components: expect.any(Object) })
  })

  it('is 401 for a wrong signature, in the authority record', async () => {
    const reply = await live.anonymous.get<any>('/api', {
      'x-api-key': 'dev-app-key',
      'x-api-signature': 'x',
    })
    expect(reply.status).toBe(401)
    expect(reply.body).toMatchObject({ code: 401, data: null, error: { public_message: expect.any(String) } })
  })
})

describe('GET /api/v1/invoice/transmit/self-health-check', () => {
  it('is the signed form: 401 without credentials, in the authority record', async () => {
    const reply = await live.anonymous.get<any>('/api/v1/invoice/transmit/self-health-check')
    expect(reply.status).toBe(401)
    expect(reply.body).toMatchObject({ code: 401, data: null })
  })

  it('is the signed form: 401 without credentials, in the authority record', async () => {
    const reply = await live.anonymous.get<any>('/api/v1/invoice/transmit/self-health-check')
    expect(reply.status).toBe(401)
    expect(reply.body).toMatchObject({ code: 401, data: null })
  })

  it('answers a signed client with code, healthy and its own webhook', async () => {
    const reply = await live.app.get<any>('/api/v1/invoice/transmit/self-health-check')
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({ code: 200, healthy: true, components: { webhook: expect.anything() } })
  })
})
