import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApi, type TestApi } from '../../support/api.ts'
import {
  DEV,
  type DevClients,
  devClients,
  type TestModeClients,
  testModeClients,
} from '../../support/clients.ts'
import { authorityError } from '../../support-invoices/requests.ts'

/** verify-tin at the authority's path (CONTRACT 17): the seed's endpoint, in the authority's records. */

let api: TestApi
let live: DevClients
let sandbox: TestModeClients
beforeAll(async () => {
  api = await startApi()
  live = devClients(api.url)
  sandbox = testModeClients(api.url)
})
afterAll(() => api?.close())

const PATH = '/api/v1/utilities/verify-tin'

describe('POST /api/v1/utilities/verify-tin', () => {
  it("verifies a registered business's TIN, as the seed's verify-tin does, with code 200", async () => {
    const seed = await live.si.post<any>('/api/v1/resource/verify-tin', { tin: DEV.buyer.tin })
    const reply = await live.app.post<any>(PATH, { tin: DEV.buyer.tin })
    expect(reply.status).toBe(200)
    expect(reply.body.code).toBe(200)
    expect(reply.body.data).toEqual(seed.body.data)
  })

  it('takes the sandbox magic Tax ID from a test key only', async () => {
    const test = await sandbox.app.post<any>(PATH, { tin: '0000000000001' })
    expect(test.status).toBe(200)
    const liveReply = await live.app.post<any>(PATH, { tin: '0000000000001' })
    expect(liveReply.status).toBe(404)
    expect(liveReply.body).toEqual(authorityError(404))
  })

  it('is 400 naming the field for a TIN of no form', async () => {
    const reply = await live.app.post<any>(PATH, { tin: 123 })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(authorityError(400))
    expect(reply.body.errors[0].path).toBe('tin')
  })
})
