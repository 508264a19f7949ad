import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildInvoice } from '../../fixtures/invoices/build.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { type DevClients, devClients, type TestModeClients, testModeClients } from '../../support/clients.ts'
import { authorityError } from '../../support-invoices/requests.ts'

/**
 * The lifecycle at the authority's paths (CONTRACT 17): the same endpoints as the seed's confirm,
 * download (get-invoice), update and transmit, answered with `code` and, on failure, the authority's
 * error record. Each route: success, another business (404), test/live isolation, bad input (400
 * naming the path).
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

/** A signed invoice of the dev supplier, signed through the authority's own sign path. */
async function signed(client = live.app, buyerTin?: string): Promise<string> {
  const base = buildInvoice()
  const invoice = buyerTin
    ? { ...base, accounting_customer_party: { ...base.accounting_customer_party, tin: buyerTin } }
    : base
  const reply = await client.post<any>('/api/v1/invoice/sign', invoice)
  expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  expect(reply.body.code).toBe(200)
  return invoice.irn as string
}

const BAD_IRN = 'not-an-irn'

describe('GET /api/v1/invoice/confirm/{irn}', () => {
  it('confirms a signed invoice of the caller, with code 200', async () => {
    const irn = await signed()
    const reply = await live.app.get<any>(`/api/v1/invoice/confirm/${irn}`)
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({ code: 200, status: 'SUCCESS', data: { irn, status: 'SIGNED' } })
  })

  it("is 404 in the authority's record for another business's invoice, and for the other mode's", async () => {
    const irn = await signed()
    const other = await live.other.get<any>(`/api/v1/invoice/confirm/${irn}`)
    expect(other.status).toBe(404)
    expect(other.body).toEqual(authorityError(404))
    expect((await sandbox.app.get<any>(`/api/v1/invoice/confirm/${irn}`)).status).toBe(404)
  })

  it('is 400 naming the path for an IRN that is not one', async () => {
    const reply = await live.app.get<any>(`/api/v1/invoice/confirm/${BAD_IRN}`)
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(authorityError(400))
    expect(reply.body.errors[0].path).toMatch(/irn/)
  })
})

describe('GET /api/v1/invoice/download/{irn}', () => {
  it('gives the supplier (APP key too) and the buyer the invoice', async () => {
    const irn = await signed()
    const supplier = await live.app.get<any>(`/api/v1/invoice/download/${irn}`)
    expect(supplier.status).toBe(200)
    expect(supplier.body.code).toBe(200)
    expect(supplier.body.data.irn).toBe(irn)
    const buyer = await live.buyer.get<any>(`/api/v1/invoice/download/${irn}`)
    expect(buyer.status).toBe(200)
  })

  it('is 404 for a business that is neither party, and in the other mode', async () => {
    const irn = await signed()
    expect((await live.other.get<any>(`/api/v1/invoice/download/${irn}`)).body).toEqual(authorityError(404))
    expect((await sandbox.app.get<any>(`/api/v1/invoice/download/${irn}`)).status).toBe(404)
  })

  it('is 400 naming the path for an IRN that is not one', async () => {
    const reply = await live.app.get<any>(`/api/v1/invoice/download/${BAD_IRN}`)
    expect(reply.status).toBe(400)
    expect(reply.body.errors[0].path).toMatch(/irn/)
  })
})

describe('PATCH /api/v1/invoice/update/{irn}', () => {
  it('marks a signed invoice PAID', async () => {
    const irn = await signed()
    const reply = await live.app.request<any>('PATCH', `/api/v1/invoice/update/${irn}`, {
      payment_status: 'PAID',
    })
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    expect(reply.body.code).toBe(200)
    const confirm = await live.app.get<any>(`/api/v1/invoice/confirm/${irn}`)
    expect(confirm.body.data.payment_status).toBe('PAID')
  })

  it("is 404 for another business's invoice and in the other mode", async () => {
    const irn = await signed()
    const other = await live.other.request<any>('PATCH', `/api/v1/invoice/update/${irn}`, {
      payment_status: 'PAID',
    })
    expect(other.body).toEqual(authorityError(404))
    expect(
      (await sandbox.app.request<any>('PATCH', `/api/v1/invoice/update/${irn}`, { payment_status: 'PAID' }))
        .status,
    ).toBe(404)
  })

  it('is 400 naming the field for a payment status that is not one', async () => {
    const irn = await signed()
    const reply = await live.app.request<any>('PATCH', `/api/v1/invoice/update/${irn}`, {
      payment_status: 'SETTLED',
    })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(authorityError(400))
    expect(reply.body.errors.map((e: { path: string }) => e.path)).toContain('payment_status')
  })
})

describe('POST /api/v1/invoice/transmit/{irn}', () => {
  it('transmits with an empty body, the IRN in the path (test mode, the buyer whose system is up)', async () => {
    const irn = await signed(sandbox.app, '00000000-0101')
    const reply = await sandbox.app.request<any>('POST', `/api/v1/invoice/transmit/${irn}`)
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    expect(reply.body.code).toBe(200)
    const confirm = await sandbox.app.get<any>(`/api/v1/invoice/confirm/${irn}`)
    expect(confirm.body.data.status).toBe('TRANSMITTED')
  })

  it('is 404 for an invoice of another business, and for the live invoice from a test key', async () => {
    const irn = await signed()
    expect((await live.other.request<any>('POST', `/api/v1/invoice/transmit/${irn}`)).body).toEqual(
      authorityError(404),
    )
    expect((await sandbox.app.request<any>('POST', `/api/v1/invoice/transmit/${irn}`)).status).toBe(404)
  })

  it('is 400 naming the path for an IRN that is not one', async () => {
    const reply = await live.app.request<any>('POST', `/api/v1/invoice/transmit/${BAD_IRN}`)
    expect(reply.status).toBe(400)
    expect(reply.body.errors[0].path).toMatch(/^path\/irn|^irn/)
  })
})
