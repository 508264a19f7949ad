import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApi, type TestApi } from '../../support/api.ts'
import { DEV, type DevClients, devClients } from '../../support/clients.ts'

/**
 * The project's client, typed by the types openapi-typescript generates from the document: requests
 * and replies are checked at compile time (the @ts-expect-error lines fail the typecheck if the
 * contract stops refusing them), and every reply is still held to the document at run time.
 */
let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(() => api?.close())

describe('ApiClient.call, typed by the OpenAPI document', () => {
  it('sends a typed body and narrows the reply by status', async () => {
    const reply = await clients.si.call('post', '/api/v1/si/generate-irn', {
      body: {
        invoice_number: 'TYPED001',
        issuance_date: '20261121',
        service_id: DEV.supplier.serviceId,
        business_id: DEV.supplier.businessId,
      },
    })
    expect(reply.status).toBe(200)
    if (reply.status !== 200) return
    const irn: string = reply.body.irn
    expect(irn).toBe(`TYPED001-${DEV.supplier.serviceId}-20261121`)

    const confirmed = await clients.app.call('get', '/api/v1/app/invoice/confirm/{irn}', { params: { irn } })
    expect(confirmed.status).toBe(200)
    if (confirmed.status === 200) expect(confirmed.body.data.status).toBe('GENERATED')
  })

  it('fills the query from typed parameters', async () => {
    const reply = await clients.merchant.call('get', '/api/v1/merchant/transactions', {
      query: { page: 1, size: 5, status: 'SUCCESSFUL' },
    })
    expect(reply.status).toBe(200)
    if (reply.status === 200) expect(reply.body.data.page.size).toBe(5)
  })

  it('refuses at compile time what the contract refuses', () => {
    // Only typechecked: a body without its required fields, a path the API does not serve.
    const compileOnly = () => {
      // @ts-expect-error invoice_number, service_id and business_id are required
      void clients.si.call('post', '/api/v1/si/generate-irn', { body: { issuance_date: '20261121' } })
      // @ts-expect-error no such path
      void clients.si.call('get', '/api/v1/no-such-path', {})
    }
    expect(typeof compileOnly).toBe('function')
  })
})
