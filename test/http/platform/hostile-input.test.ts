import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readInvoiceRecord } from '#lib/invoice/repository.ts'
import { buildInvoice, newIrn } from '../../fixtures/invoices/build.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { DEV, type DevClients, devClients } from '../../support/clients.ts'
import { parallelClient } from '../../support-invoices/requests.ts'

/**
 * CONTRACT section 9's hostile-input rules through the HTTP surface: lone surrogates in any string
 * (400 with the field's path, never a 500), the authority's TIN forms, and the invoice check order
 * (the whole body first, ownership last).
 */
let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(() => api?.close())

type Body = Record<string, any>
const LONE = '\ud800'

/** A complete invoice with every optional text field present, the ones buildInvoice leaves out too. */
function everyTextField(): Body {
  const invoice: Body = buildInvoice()
  invoice.payment_terms_note = 'Net 30'
  invoice.accounting_supplier_party.id = 'PARTY-1'
  invoice.accounting_supplier_party.postal_address_id = 'ADDR-1'
  return invoice
}

/** The path of every string in a value, JSON-pointer-like (`invoice_line/0/item/name`). */
function stringPaths(value: unknown, prefix = ''): string[] {
  if (typeof value === 'string') return [prefix]
  if (typeof value !== 'object' || value === null) return []
  return Object.entries(value).flatMap(([k, v]) => stringPaths(v, prefix ? `${prefix}/${k}` : k))
}

function withLoneSurrogate(invoice: Body, path: string): Body {
  const segments = path.split('/')
  const last = segments.pop()!
  const parent = segments.reduce((node, s) => node[s], invoice)
  parent[last] = `${parent[last]}${LONE}x`
  return invoice
}

const TEXT_FIELDS = stringPaths(everyTextField())

describe('a lone surrogate in a string', () => {
  it('is exercised on every text field of the invoice', () => {
    // The invoice's free text, names, e-mails, addresses, line items, references: all of them.
    expect(TEXT_FIELDS.length).toBeGreaterThan(120)
    expect(TEXT_FIELDS).toEqual(
      expect.arrayContaining([
        'note',
        'payment_terms_note',
        'accounting_supplier_party/party_name',
        'accounting_customer_party/email',
        'ship_party/postal_address/street_name',
        'invoice_line/2/item/description',
        'tax_representative_party/postal_address/city_name',
      ]),
    )
  })

  it.each(['v1', 'v2'])(
    'in any text field of a %s invoice is a 400 naming that field (NG-FM-04), and nothing is stored',
    async (version) => {
      const client = parallelClient(api.url, DEV.clients.app)
      const failures: string[] = []
      const queue = [...TEXT_FIELDS]
      // Four at a time: 130 requests, each a full invoice validation.
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
            const invoice = withLoneSurrogate(everyTextField(), path)
            if (path !== 'irn') invoice.irn = newIrn()
            const reply = await client.post(`/api/${version}/app/invoice/sign`, invoice)
            const named = reply.body?.errors?.some(
              (e: { path: string; code: string }) => e.path === path && e.code === 'NG-FM-04',
            )
            if (reply.status !== 400 || !named)
              failures.push(`${path}: ${reply.status} ${reply.text.slice(0, 200)}`)
            else if (path !== 'irn' && (await readInvoiceRecord(invoice.irn)))
              failures.push(`${path}: stored`)
          }
        }),
      )
      expect(failures).toEqual([])
    },
    120_000,
  )

  it.each([
    '/api/v1/si/validate',
    '/api/v2/si/validate',
    '/api/v1/app/invoice/validate',
    '/api/v2/app/invoice/validate',
    '/api/v1/app/invoice/sign',
    '/api/v2/app/invoice/sign',
  ])('in the note is a 400 on %s', async (path) => {
    const client = path.includes('/si/') ? clients.si : clients.app
    const invoice = { ...buildInvoice(), note: `${LONE}x` }
    const reply = await client.post<any>(path, invoice)
    expect(reply.status).toBe(400)
    expect(reply.body.status).toBe('400 BAD_REQUEST')
    expect(reply.body.errors).toEqual([
      { path: 'note', code: 'NG-FM-04', message: expect.stringContaining('lone surrogate') },
    ])
  })

  it('is reported with every other problem of the invoice in one 400', async () => {
    const invoice = buildInvoice()
    invoice.note = `x${LONE}`
    delete (invoice.accounting_supplier_party as Body).email
    const reply = await clients.app.post<any>('/api/v2/app/invoice/sign', invoice)
    expect(reply.status).toBe(400)
    expect(reply.body.errors.map((e: { path: string; code: string }) => [e.path, e.code])).toEqual([
      ['note', 'NG-FM-04'],
      ['accounting_supplier_party/email', 'NG-SC-01'],
    ])
  })

  it('in a key is a 400 naming the key', async () => {
    const invoice: Body = buildInvoice()
    invoice[`extra${LONE}`] = 'x'
    const reply = await clients.app.post<any>('/api/v1/app/invoice/validate', invoice)
    expect(reply.status).toBe(400)
    expect(reply.body.errors).toEqual([
      { path: 'extra\ufffd', code: 'NG-FM-04', message: expect.stringContaining('key') },
    ])
  })

  it("in a transfer's narration is a 400 in the bank's record, and no money moves", async () => {
    const balance = async () =>
      (
        await clients.switch.post<any>('/api/v1/transactions/balance-enquiry', {
          requestId: `BAL-${newIrn()}`,
          stan: '000001',
          processingCode: '310000',
          accountNumber: '0123456789',
        })
      ).body.availableBalance
    const before = await balance()
    const reply = await clients.switch.post<any>('/api/v1/transactions/transfer', {
      requestId: `SURROGATE-${newIrn()}`,
      stan: '123456',
      processingCode: '400000',
      merchantId: 'MRC0001',
      merchantReference: 'ORD-SURROGATE',
      accountNumber: '0123456789',
      amount: 10,
      currency: 'NGN',
      productCode: 'AIRTIME',
      narration: `Top-up ${LONE}`,
    })
    expect(reply.status).toBe(400)
    expect(reply.body).toMatchObject({
      responseCode: '30',
      responseStatus: 'FAILED',
      errors: [{ path: 'narration', code: 'NG-FM-04', message: expect.any(String) }],
    })
    expect(await balance()).toBe(before)
  })

  it('is a 400 with the path in every other area too (Area D template)', async () => {
    const reply = await clients.notify.post<any>('/notification/template', {
      productCode: 'AIRTIME',
      message: `Paid ${LONE}`,
      messageType: 0,
    })
    expect(reply.status).toBe(400)
    expect(reply.body.errors).toEqual(
      expect.arrayContaining([{ path: 'message', code: 'NG-FM-04', message: expect.any(String) }]),
    )
  })
})

describe("the authority's TIN forms", () => {
  it('accepts the TIN-<digits> form of its published samples on an invoice', async () => {
    const invoice: Body = buildInvoice()
    invoice.accounting_supplier_party.tin = 'TIN-0099990001'
    invoice.accounting_customer_party.tin = 'TIN-000001'
    const reply = await clients.app.post<any>('/api/v2/app/invoice/validate', invoice)
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  })

  it.each([
    ['12345678', 'digits without the branch suffix'],
    ['TIN-', 'TIN- without digits'],
    ['TIN-00A1', 'TIN- with letters'],
    ['tin-0099990001', 'a lower-case prefix'],
  ])('refuses %s (%s) as NG-FM-01', async (tin) => {
    const invoice: Body = buildInvoice()
    invoice.accounting_customer_party.tin = tin
    const reply = await clients.app.post<any>('/api/v1/app/invoice/validate', invoice)
    expect(reply.status).toBe(400)
    expect(reply.body.errors).toEqual([
      { path: 'accounting_customer_party/tin', code: 'NG-FM-01', message: expect.stringContaining('TIN-') },
    ])
  })

  it('verify-tin takes the TIN- form as well-formed (unknown: 404, not 400)', async () => {
    const reply = await clients.si.post<any>('/api/v1/resource/verify-tin', { tin: 'TIN-0099990001' })
    expect(reply.status).toBe(404)
  })
})

describe('the order of checks on an invoice body', () => {
  it('reports every problem of a body with a placeholder business_id, not a 404', async () => {
    const invoice: Body = buildInvoice()
    invoice.business_id = '{{business_id}}'
    delete invoice.accounting_supplier_party.email
    invoice.document_currency_code = 'XXX'
    const reply = await clients.app.post<any>('/api/v1/app/invoice/validate', invoice)
    expect(reply.status).toBe(400)
    expect(reply.body.errors.map((e: { path: string }) => e.path)).toEqual([
      'accounting_supplier_party/email',
      'document_currency_code',
    ])
  })

  it("answers 404 for another business's business_id once the body is otherwise valid", async () => {
    const invoice: Body = buildInvoice()
    invoice.business_id = '{{business_id}}'
    const reply = await clients.app.post<any>('/api/v1/app/invoice/validate', invoice)
    expect(reply.status).toBe(404)
    expect(reply.body.status).toBe('404 NOT_FOUND')
    expect(await readInvoiceRecord(invoice.irn)).toBeUndefined()
  })
})
