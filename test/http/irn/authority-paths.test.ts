import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApi, type TestApi } from '../../support/api.ts'
import {
  DEV,
  type DevClients,
  devClients,
  type TestModeClients,
  testModeClients,
} from '../../support/clients.ts'
import { authorityError, freshInvoiceNumber } from '../../support-invoices/requests.ts'

/** IRN validation at the authority's path (CONTRACT 17), with the IRN the client built itself. */

let api: TestApi
let live: DevClients
let sandbox: TestModeClients
beforeAll(async () => {
  api = await startApi()
  live = devClients(api.url)
  sandbox = testModeClients(api.url)
})
afterAll(() => api?.close())

const PATH = '/api/v1/invoice/irn/validate'
const built = (serviceId: string = DEV.supplier.serviceId) => {
  const reference = freshInvoiceNumber()
  return {
    invoice_reference: reference,
    business_id: DEV.supplier.businessId,
    irn: `${reference}-${serviceId}-20261121`,
  }
}

describe('POST /api/v1/invoice/irn/validate', () => {
  it('registers an IRN the client built, with code 200, in the caller mode only', async () => {
    const body = built()
    const reply = await sandbox.app.post<any>(PATH, body)
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    expect(reply.body.code).toBe(200)
    expect((await sandbox.app.get<any>(`/api/v1/invoice/confirm/${body.irn}`)).body.data.status).toBe(
      'GENERATED',
    )
    expect((await live.app.get<any>(`/api/v1/invoice/confirm/${body.irn}`)).status).toBe(404)
  })

  it("is 404 for another business's business_id", async () => {
    const reply = await live.app.post<any>(PATH, { ...built(), business_id: DEV.other.businessId })
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual(authorityError(404))
  })

  it("is 400 for an IRN of another business's service id, naming the irn", async () => {
    const reply = await live.app.post<any>(PATH, built(DEV.other.serviceId))
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(authorityError(400))
    expect(reply.body.errors[0].path).toBe('irn')
  })
})
