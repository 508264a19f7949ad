import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ublOf } from '#lib/documents/ubl.ts'
import { buildInvoice } from '../../fixtures/invoices/build.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { type DevClients, devClients } from '../../support/clients.ts'

/**
 * The EN 16931 business rules in the validate replies (CONTRACT 22): `en16931` lists the findings by
 * their official identifiers, the same for an invoice sent as JSON and as UBL XML, and never changes
 * the reply's status (the NG-* rules decide). A UBL invoice always gets them; a JSON invoice only
 * when its sender asks, `?en16931=true` (CONTRACT 25).
 */

let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(() => api?.close())

const VALIDATE: [string, 'si' | 'app'][] = [
  ['/api/v1/si/validate', 'si'],
  ['/api/v2/si/validate', 'si'],
  ['/api/v1/app/invoice/validate', 'app'],
  ['/api/v2/app/invoice/validate', 'app'],
  ['/api/v1/invoice/validate', 'si'],
]

/** Arithmetic findings come back as warnings with 200 (x-validation-mode), so the reply is a success. */
const LENIENT = { 'x-validation-mode': 'lenient' }
/** ...and fail it with 400 (the authority's path is lenient unless told). */
const STRICT = { 'x-validation-mode': 'strict' }

/** An invoice whose total with VAT is one naira more than without VAT plus the VAT (BR-CO-15). */
function totalWithVatWrong() {
  const invoice = buildInvoice() as Record<string, any>
  const totals = invoice.legal_monetary_total
  totals.tax_inclusive_amount = Number((totals.tax_inclusive_amount + 1).toFixed(2))
  totals.payable_amount = totals.tax_inclusive_amount
  return invoice
}

/** A JSON invoice's findings are asked for. */
const asking = (path: string) => `${path}?en16931=true`

describe.each(VALIDATE)('POST %s', (path, who) => {
  it('reports an invoice breaking BR-CO-15 in en16931, identically for its JSON and its UBL XML', async () => {
    const invoice = totalWithVatWrong()
    const json = await clients[who].post<any>(asking(path), invoice, LENIENT)
    expect(json.status).toBe(200)
    expect(json.body.en16931).toContainEqual({
      rule: 'BR-CO-15',
      flag: 'fatal',
      path: '/Invoice',
      message: expect.stringMatching(/^\[BR-CO-15\]-Invoice total amount with VAT \(BT-112\)/),
    })
    const xml = await clients[who].postXml<any>(path, ublOf(invoice), LENIENT)
    expect(xml.status).toBe(200)
    expect(xml.body.en16931).toEqual(json.body.en16931)
  })

  it('lists the findings of a refused invoice too (400 NG-CO-15 in strict mode), the same for JSON and XML', async () => {
    const invoice = totalWithVatWrong()
    const json = await clients[who].post<any>(asking(path), invoice, STRICT)
    expect(json.status).toBe(400)
    expect(json.body.errors.map((e: { code: string }) => e.code)).toContain('NG-CO-15')
    expect(json.body.en16931.map((f: { rule: string }) => f.rule)).toContain('BR-CO-15')
    const xml = await clients[who].postXml<any>(path, ublOf(invoice), STRICT)
    expect(xml.status).toBe(400)
    expect(xml.body.en16931).toEqual(json.body.en16931)
  })

  it('leaves out a rule the invoice meets, and the findings never fail a valid invoice', async () => {
    const reply = await clients[who].post<any>(asking(path), buildInvoice())
    expect(reply.status).toBe(200)
    const rules = reply.body.en16931.map((f: { rule: string }) => f.rule)
    expect(rules).toContain('BR-01')
    expect(rules).not.toContain('BR-CO-15')
  })

  it('judges a JSON invoice only when asked, a UBL invoice always', async () => {
    const invoice = totalWithVatWrong()
    for (const query of ['', '?en16931=false', '?en16931=']) {
      const json = await clients[who].post<any>(`${path}${query}`, invoice, LENIENT)
      expect(json.status, query).toBe(200)
      expect(json.body, query).not.toHaveProperty('en16931')
      const refused = await clients[who].post<any>(`${path}${query}`, invoice, STRICT)
      expect(refused.status, query).toBe(400)
      expect(refused.body, query).not.toHaveProperty('en16931')
    }
    const xml = await clients[who].postXml<any>(path, ublOf(invoice), LENIENT)
    expect(xml.body.en16931.map((f: { rule: string }) => f.rule)).toContain('BR-CO-15')
  })

  it('refuses a flag that is neither true nor false, saying what it takes', async () => {
    const reply = await clients[who].post<any>(`${path}?en16931=yes`, buildInvoice())
    expect(reply.status).toBe(400)
    expect(JSON.stringify(reply.body)).toContain('en16931 must be true or false')
  })
})

describe('POST /api/v1/app/invoice/sign', () => {
  it('does not judge by EN 16931 (the validate endpoints do)', async () => {
    const reply = await clients.app.post<any>('/api/v1/app/invoice/sign', totalWithVatWrong(), LENIENT)
    expect(reply.status).toBe(200)
    expect(reply.body).not.toHaveProperty('en16931')
  })
})
