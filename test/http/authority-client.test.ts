import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiClient } from '#client/api-client.ts'
import { buildInvoice } from '../fixtures/invoices/build.ts'
import { startApi, type TestApi } from '../support/api.ts'
import { DEV, type DevClients, devClients } from '../support/clients.ts'
import { freshInvoiceNumber } from '../support-invoices/requests.ts'

/**
 * A client written for the authority's MBS API, run end to end against this service through the
 * authority's paths only (CONTRACT 17), with its signing as the one change: the health probe, an IRN
 * the client builds and validates, validate, sign, confirm, download, transmit, the buyer's pull and
 * receipt, the update to PAID with its reference, and the supplier's search. Each reply is read the
 * way such clients read it: by `code`.
 */

let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(() => api?.close())

/** The authority's paths: a call elsewhere would not be the authority's client any more. */
const AUTHORITY = /^\/api(\/v1\/(invoice|utilities|entity)(\/|\?|$)|$)/

/** One call, as the authority's clients make it: its path checked, its `code` read and returned with the body. */
async function call(client: ApiClient, method: string, path: string, body?: unknown) {
  expect(path, 'an authority path').toMatch(AUTHORITY)
  const reply = await client.request<any>(method, path, body)
  expect(reply.body?.code, `${method} ${path}: ${reply.text.slice(0, 500)}`).toBe(reply.status)
  return reply
}

/** The invoice as the authority's own examples write it: no lga/state, no payment_status, no line discounts. */
function authorityStyleInvoice(irn: string) {
  const invoice: any = { ...buildInvoice({ irn }) }
  delete invoice.payment_status
  for (const party of [invoice.accounting_supplier_party, invoice.accounting_customer_party]) {
    delete party.postal_address.lga
    delete party.postal_address.state
  }
  for (const line of invoice.invoice_line) {
    for (const field of ['discount_rate', 'discount_amount', 'fee_rate', 'fee_amount']) delete line[field]
  }
  return invoice
}

describe('an authority-API client, end to end through the authority paths', () => {
  it('runs the whole lifecycle, supplier and buyer, reading code and healthy', async () => {
    const supplier = clients.app
    const buyer = clients.buyer

    const health = await call(clients.anonymous, 'GET', '/api')
    expect(health.body).toMatchObject({ code: 200, healthy: true })

    const reference = freshInvoiceNumber()
    const irn = `${reference}-${DEV.supplier.serviceId}-20261121`
    await call(supplier, 'POST', '/api/v1/invoice/irn/validate', {
      invoice_reference: reference,
      business_id: DEV.supplier.businessId,
      irn,
    })

    const invoice = authorityStyleInvoice(irn)
    const validated = await call(supplier, 'POST', '/api/v1/invoice/validate', invoice)
    expect(validated.status).toBe(200)
    // Each default applied is named (CONTRACT 17): the client sees what it left out.
    expect(validated.body.warnings.map((w: { code: string }) => w.code)).toEqual(
      expect.arrayContaining(['NG-AU-01', 'NG-AU-03', 'NG-AU-05']),
    )
    expect((await call(supplier, 'POST', '/api/v1/invoice/sign', invoice)).status).toBe(200)

    const confirmed = await call(supplier, 'GET', `/api/v1/invoice/confirm/${irn}`)
    expect(confirmed.body.data).toMatchObject({ irn, status: 'SIGNED', payment_status: 'PENDING' })
    const downloaded = await call(supplier, 'GET', `/api/v1/invoice/download/${irn}`)
    expect(JSON.stringify(downloaded.body.data)).toContain(irn)

    expect((await call(supplier, 'POST', `/api/v1/invoice/transmit/${irn}`)).status).toBe(200)

    const inbox = await call(buyer, 'GET', '/api/v1/invoice/transmit/pull?confirmed=false&size=50')
    expect(JSON.stringify(inbox.body.data)).toContain(irn)
    expect((await call(buyer, 'PATCH', `/api/v1/invoice/transmit/${irn}`)).status).toBe(200)
    const lookup = await call(buyer, 'GET', `/api/v1/invoice/transmit/lookup/${irn}`)
    expect(lookup.body.data.received_at).toEqual(expect.any(String))
    const unconfirmed = await call(buyer, 'GET', '/api/v1/invoice/transmit/pull?confirmed=false&size=50')
    expect(JSON.stringify(unconfirmed.body.data)).not.toContain(irn)

    await call(supplier, 'PATCH', `/api/v1/invoice/update/${irn}`, {
      payment_status: 'PAID',
      reference: 'RCPT-2026-0042',
    })
    const paid = await call(supplier, 'GET', `/api/v1/invoice/confirm/${irn}`)
    expect(paid.body.data).toMatchObject({ payment_status: 'PAID', reference: 'RCPT-2026-0042' })
    expect(paid.body.data.received_at).toEqual(expect.any(String))

    const search = await call(supplier, 'GET', `/api/v1/invoice/${DEV.supplier.businessId}?size=50`)
    expect(search.body.data.content.map((i: { irn: string }) => i.irn)).toContain(irn)
  })
})
