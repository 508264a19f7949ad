import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildInvoice } from '../../fixtures/invoices/build.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { type DevClients, devClients } from '../../support/clients.ts'
import { invoiceOfUnits, noteOf } from '../../support-invoices/notes.ts'

/**
 * CONTRACT 18's invoice and note rules: no negative payable amount (NG-BR-07) or tax percent
 * (NG-BR-08); a credit note's original is not a credit note (NG-BR-05) and has the note's buyer
 * (NG-BR-06). Each was signed before, and the last cancelled another buyer's invoice.
 */

let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(() => api?.close())

const sign = (body: unknown) => clients.app.post<any>('/api/v1/app/invoice/sign', body)
const pull = (irn: string) => clients.si.get<any>(`/api/v1/si/get-invoice/${irn}`)

async function signed<T extends Record<string, any>>(body: T): Promise<T> {
  const reply = await sign(body)
  expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  return body
}

const refusedWith = (code: string, path: string) =>
  expect.objectContaining({ errors: expect.arrayContaining([expect.objectContaining({ code, path })]) })

describe('POST /api/{v}/app/invoice/sign: amounts and rates that cannot be negative', () => {
  it('refuses a commercial invoice with a negative payable amount (NG-BR-07)', async () => {
    const invoice = buildInvoice()
    invoice.legal_monetary_total.payable_amount = -100
    const reply = await sign(invoice)
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(refusedWith('NG-BR-07', 'legal_monetary_total/payable_amount'))
    expect((await pull(invoice.irn)).status).toBe(404)
  })

  it('refuses a VAT rate of -7.5 % even when every amount agrees with it, in lenient mode too (NG-BR-08)', async () => {
    const invoice = buildInvoice({ percent: -7.5 })
    for (const mode of ['strict', 'lenient']) {
      const reply = await clients.app.post<any>('/api/v1/app/invoice/sign', invoice, {
        'x-validation-mode': mode,
      })
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual(refusedWith('NG-BR-08', 'tax_total/0/tax_subtotal/0/tax_category/percent'))
    }
    expect((await pull(invoice.irn)).status).toBe(404)
  })

  it('still signs a zero-rated invoice', async () => {
    await signed(buildInvoice({ percent: 0 }))
  })
})

describe('POST /api/{v}/app/invoice/sign: what a credit note may credit', () => {
  it("refuses a credit note whose original is itself a credit note (NG-BR-05), and leaves that note's original as it was", async () => {
    const original = await signed(invoiceOfUnits(3))
    const credit = await signed(noteOf(original, 1))
    const reply = await sign(noteOf(credit, 1))
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(refusedWith('NG-BR-05', 'billing_reference/0/irn'))
    expect((await pull(credit.irn)).body.data.adjustments).toMatchObject({ credited: 0, notes: [] })
    expect((await pull(original.irn)).body.data.adjustments).toMatchObject({
      credited: 107.5,
      remaining: 215,
    })
    // A debit note may still name a credit note: only crediting a credit is refused.
    await signed(noteOf(credit, 1, '384'))
  })

  it("refuses a credit note to another buyer (NG-BR-06): the original buyer's invoice is not cancelled", async () => {
    const original = await signed(invoiceOfUnits(1))
    const note = noteOf(original, 1)
    const toAnother = {
      ...note,
      accounting_customer_party: { ...note.accounting_customer_party, tin: '98765432-0001' },
    }
    const reply = await sign(toAnother)
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(refusedWith('NG-BR-06', 'accounting_customer_party/tin'))
    const after = await pull(original.irn)
    expect(after.body.data.payment_status).toBe('PENDING')
    expect(after.body.data.adjustments).toMatchObject({ credited: 0, remaining: 107.5, notes: [] })
    // The same note to the original's buyer cancels it.
    await signed(note)
    expect((await pull(original.irn)).body.data.payment_status).toBe('CANCELLED')
  })
})
