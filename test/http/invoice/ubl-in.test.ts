import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ublOf } from '#lib/documents/ubl.ts'
import { buildInvoice } from '../../fixtures/invoices/build.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { type DevClients, devClients } from '../../support/clients.ts'
import { eventually } from '../../support/standard-webhook-receiver.ts'

/**
 * UBL in (CONTRACT 22): the invoice endpoints take a UBL 2.1 Invoice or CreditNote as
 * `Content-Type: application/xml`, on both versions and both path profiles, and answer exactly what
 * they answer for the same invoice as JSON; every refusal of the XML names the XPath at fault.
 */

let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi({ workers: ['batch-dispatch', 'batch-worker'] })
  clients = devClients(api.url)
})
afterAll(() => api?.close())

type Body = Record<string, any>

/** Every route that takes an invoice, with its client (SI for si/validate, APP for the others). */
const ROUTES: [string, 'si' | 'app'][] = [
  ['/api/v1/si/validate', 'si'],
  ['/api/v2/si/validate', 'si'],
  ['/api/v1/app/invoice/validate', 'app'],
  ['/api/v2/app/invoice/validate', 'app'],
  ['/api/v1/app/invoice/sign', 'app'],
  ['/api/v2/app/invoice/sign', 'app'],
  ['/api/v1/invoice/validate', 'si'],
  ['/api/v1/invoice/sign', 'app'],
]

const postXml = (who: 'si' | 'app', path: string, xml: string) => clients[who].postXml<any>(path, xml)
/**
 * A JSON invoice to a validate route asks for the EN 16931 findings (`?en16931=true`), which a UBL
 * invoice gets unasked (CONTRACT 25): so the two replies can be compared whole.
 */
const postJson = (who: 'si' | 'app', path: string, body: unknown) =>
  clients[who].post<any>(path.endsWith('/validate') ? `${path}?en16931=true` : path, body)

/** A JSON refusal's problems with their record paths replaced by XPaths, as the XML refusal must list them. */
const atXPaths = (errors: Body[], xpaths: Record<string, string>) =>
  errors.map((e) => ({ ...e, path: xpaths[e.path] ?? `unmapped ${e.path}` }))

describe.each(ROUTES)('POST %s with Content-Type: application/xml', (path, who) => {
  it('answers a valid UBL Invoice exactly as the same invoice in JSON (same record: a sign replays)', async () => {
    const invoice = buildInvoice()
    const json = await postJson(who, path, invoice)
    expect(json.status).toBe(200)
    const xml = await postXml(who, path, ublOf(invoice))
    expect(xml.status).toBe(200)
    expect(xml.body).toEqual(json.body)
  })

  it('takes a CreditNote whose authority code 380 travels as UNCL 381', async () => {
    const original = buildInvoice()
    expect((await postJson('app', '/api/v1/app/invoice/sign', original)).status).toBe(200)
    const note = buildInvoice()
    note.invoice_type_code = '380'
    note.billing_reference = [{ irn: original.irn, issue_date: original.issue_date }]
    const text = ublOf(note)
    expect(text).toContain('<CreditNote')
    // EN 16931's own codes: UNCL 381 without the authority's code beside it, and VAT category S.
    const en16931 = text
      .replace(/<cbc:CreditNoteTypeCode [^>]*>/, '<cbc:CreditNoteTypeCode>')
      .replaceAll('<cbc:ID>STANDARD_VAT</cbc:ID>', '<cbc:ID>S</cbc:ID>')
    const json = await postJson(who, path, note)
    const xml = await postXml(who, path, en16931)
    expect(xml.status).toBe(json.status)
    expect(xml.body).toEqual(json.body)
  })

  it('refuses a schema error (400 NG-XML-02) at the XPath of the element at fault', async () => {
    const text = ublOf(buildInvoice()).replace(
      /<cbc:IssueDate>[^<]*<\/cbc:IssueDate>/,
      '<cbc:IssueDate>2026-02-30</cbc:IssueDate>',
    )
    const reply = await postXml(who, path, text)
    expect(reply.status).toBe(400)
    expect(reply.body.errors).toEqual([
      { path: '/Invoice/cbc:IssueDate', code: 'NG-XML-02', message: expect.stringMatching(/not a date/) },
    ])
    const missing = await postXml(who, path, ublOf(buildInvoice()).replace(/<cbc:ID>INV[^<]*<\/cbc:ID>/, ''))
    expect(missing.status).toBe(400)
    expect(missing.body.errors).toEqual([
      { path: '/Invoice/cbc:ID', code: 'NG-XML-02', message: expect.stringMatching(/required/) },
    ])
  })

  it('refuses a type code with no authority counterpart (400 NG-XML-03) at its XPath', async () => {
    const text = ublOf(buildInvoice()).replace(/<cbc:InvoiceTypeCode [^>]*>380</, '<cbc:InvoiceTypeCode>999<')
    const reply = await postXml(who, path, text)
    expect(reply.status).toBe(400)
    expect(reply.body.errors).toEqual([
      { path: '/Invoice/cbc:InvoiceTypeCode', code: 'NG-XML-03', message: expect.stringMatching(/999/) },
    ])
  })

  it("refuses a rule error with the JSON reply's codes and messages, at the elements' XPaths", async () => {
    const invoice = buildInvoice()
    invoice.accounting_supplier_party.email = 'not-an-email'
    invoice.document_currency_code = 'XXX'
    const json = await postJson(who, path, invoice)
    expect(json.status).toBe(400)
    const xml = await postXml(who, path, ublOf(invoice))
    expect(xml.status).toBe(400)
    expect(xml.body.message).toBe(json.body.message)
    expect(xml.body.errors).toEqual(
      atXPaths(json.body.errors, {
        'accounting_supplier_party/email':
          '/Invoice/cac:AccountingSupplierParty/cac:Party/cac:Contact/cbc:ElectronicMail',
        document_currency_code: '/Invoice/cbc:DocumentCurrencyCode',
      }),
    )
  })

  it('refuses hostile XML without reading it: a DOCTYPE, an external entity, entity expansion, depth', async () => {
    const invoice = ublOf(buildInvoice()).replace(/^<\?xml[^>]*>\n/, '')
    const external = `<?xml version="1.0"?><!DOCTYPE Invoice [<!ENTITY x SYSTEM "file:///etc/passwd">]>${invoice.replace('<cbc:Note>', '<cbc:Note>&x;')}`
    const laughs = `<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><Invoice>&b;</Invoice>`
    for (const text of [external, laughs]) {
      const reply = await postXml(who, path, text)
      expect(reply.status).toBe(400)
      expect(reply.body.errors).toEqual([
        { path: '/', code: 'NG-XML-01', message: expect.stringMatching(/DOCTYPE/) },
      ])
      expect(reply.text).not.toContain('root:')
    }
    // An undeclared entity is not well-formed; nothing is fetched.
    const undeclared = await postXml(who, path, invoice.replace('<cbc:Note>', '<cbc:Note>&x;'))
    expect(undeclared.status).toBe(400)
    expect(undeclared.body.errors[0].code).toBe('NG-XML-01')
    const deep = `<Invoice>${'<a>'.repeat(40)}${'</a>'.repeat(40)}</Invoice>`
    const tooDeep = await postXml(who, path, deep)
    expect(tooDeep.status).toBe(400)
    expect(tooDeep.body.errors[0]).toMatchObject({
      code: 'NG-XML-01',
      message: expect.stringMatching(/deeper/),
    })
  })

  it('refuses a body over 1 MiB with 413, and a Content-Type neither JSON nor XML with 415', async () => {
    const big = ublOf(buildInvoice()).replace('<cbc:Note>', `<cbc:Note>${'x'.repeat(1024 * 1024)}`)
    expect((await postXml(who, path, big)).status).toBe(413)
    const plain = await clients[who].request<any>('POST', path, ublOf(buildInvoice()), {
      'content-type': 'text/plain',
    })
    expect(plain.status).toBe(415)
    expect(plain.body.message).toMatch(/application\/json or application\/xml/)
  })
})

describe('POST /api/v1/app/invoice/sign: the UBL export of a signed invoice, posted back', () => {
  it('validates to the same record: the sign replays its first reply', async () => {
    const invoice = buildInvoice()
    const signed = await postJson('app', '/api/v1/app/invoice/sign', invoice)
    expect(signed.status).toBe(200)
    const exported = await clients.si.get(`/api/v1/si/get-invoice/${invoice.irn}`, {
      accept: 'application/xml',
    })
    expect(exported.status).toBe(200)
    const back = await postXml('app', '/api/v1/app/invoice/sign', exported.text)
    expect(back.status).toBe(200)
    expect(back.body).toEqual(signed.body)
  })
})

describe('POST /api/{v}/app/invoice/batch with UBL items', () => {
  it('takes an item sent as a UBL string, past the 4,096-character bound of other strings, with the single endpoint reply', {
    timeout: 120_000,
  }, async () => {
    const good = buildInvoice()
    const bad = ublOf(buildInvoice()).replace(/<cbc:IssueDate>[^<]*</, '<cbc:IssueDate>nope<')
    expect(bad.length).toBeGreaterThan(4096)
    const accepted = await clients.app.post<any>('/api/v1/app/invoice/batch', {
      action: 'sign',
      invoices: [ublOf(good), bad],
    })
    expect(accepted.status, accepted.text).toBe(202)
    const batch = await eventually(async () => {
      const reply = await clients.app.get<any>(`/api/v1/app/invoice/batch/${accepted.body.batch_id}`)
      expect(reply.body.status).toBe('COMPLETED')
      return reply.body
    }, 90_000)
    // The single endpoint given the same document replays the batch's sign (same signed_at).
    const single = await postXml('app', '/api/v1/app/invoice/sign', ublOf(good))
    expect(batch.items[0]).toMatchObject({ status: 'SUCCEEDED', reply: single.body })
    expect(batch.items[1]).toMatchObject({
      status: 'FAILED',
      http_status: 400,
      errors: [{ path: '/Invoice/cbc:IssueDate', code: 'NG-XML-02', message: expect.any(String) }],
    })
    // Any other string is still bounded.
    const long = await clients.app.post<any>('/api/v1/app/invoice/batch', {
      action: 'sign',
      invoices: [{ ...good, note: 'x'.repeat(5000) }],
    })
    expect(long.status).toBe(400)
  })
})
