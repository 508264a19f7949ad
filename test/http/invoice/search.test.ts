import { parse } from 'csv-parse/sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { allocateNumbers, spacesOf } from '#lib/invoice/search-index.ts'
import { inMode } from '#lib/platform/mode.ts'
import { newSearchMeter, searchInvoices } from '#lib/invoice/search.ts'
import { SearchQuery } from '#lib/invoice/search-schemas.ts'
import { newIrn } from '../../fixtures/invoices/build.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { cliOutput } from '../../support/cli.ts'
import { DEV, type DevClients, devClients, testModeClients } from '../../support/clients.ts'
import { invoiceOfUnits, noteOf, otherBusinessInvoice } from '../../support-invoices/notes.ts'

/** CONTRACT 16: GET /api/{v}/invoices, the supplier's search and export of its signed invoices. */

let api: TestApi
let clients: DevClients

/** Buyers of this file only, so that a buyer filter's result is exactly what this file signed. */
const tin = () => `${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}-0001`
const X = { tin: tin(), name: 'Buyer X Ltd' }
const Z = { tin: tin(), name: '=HYPERLINK("http://evil.example","x")' }

function invoice(units: number, date: string, buyer = X): Record<string, any> {
  const body = invoiceOfUnits(units, newIrn(DEV.supplier.serviceId, date.replaceAll('-', '')), buyer)
  return { ...body, issue_date: date }
}

/** Signed in this order (so newest first is the reverse): A, B (USD), C (PAID), D (credits all of A), E. */
const A = invoice(1, '2026-11-10')
const B: Record<string, any> = { ...invoice(2, '2026-11-15'), document_currency_code: 'USD' }
const C = invoice(3, '2026-11-20', DEV.buyer)
const D: Record<string, any> = {
  ...noteOf(A, 1),
  accounting_customer_party: { ...A.accounting_customer_party },
}
const E = invoice(4, '2026-11-21', Z)

const search = (
  query = '',
  client: 'si' | 'app' | 'admin' | 'other' = 'si',
  headers?: Record<string, string>,
) => clients[client].get<any>(`/api/v1/invoices${query ? `?${query}` : ''}`, headers)
const irnsOf = (reply: { body: any }) => reply.body.data.content.map((s: { irn: string }) => s.irn)

beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
  for (const body of [A, B, C, D, E]) {
    const signed = await clients.app.post<any>('/api/v1/app/invoice/sign', body)
    expect(signed.status, JSON.stringify(signed.body)).toBe(200)
    // Read after write: listed, at the top, as soon as the sign reply is in.
    expect(irnsOf(await search('size=1'))).toEqual([body.irn])
  }
  expect(
    (await clients.app.request('PATCH', `/api/v1/app/invoice/update/${C.irn}`, { payment_status: 'PAID' }))
      .status,
  ).toBe(200)
  expect((await clients.other.post<any>('/api/v1/app/invoice/sign', otherBusinessInvoice(1))).status).toBe(
    200,
  )
}, 60_000)
afterAll(() => api?.close())

describe('GET /api/{v}/invoices', () => {
  it('lists the business’s signed invoices newest first in numbered pages', async () => {
    const first = await search('size=2')
    expect(first.status).toBe(200)
    expect(irnsOf(first)).toEqual([E.irn, D.irn])
    expect(first.body.data.page).toEqual({ size: 2, number: 0, totalElements: 5, totalPages: 3 })
    expect(irnsOf(await search('size=2&page=2'))).toEqual([C.irn, B.irn])
    const last = await search('size=2&page=3')
    expect(irnsOf(last)).toEqual([A.irn])
    expect(last.body.data.page).toEqual({ size: 2, number: 2, totalElements: 5, totalPages: 3 })
    expect(irnsOf(await search('size=2&page=4'))).toEqual([])
    // Every Area A role of the business sees the same list (v2 too).
    for (const client of ['app', 'admin'] as const) expect(irnsOf(await search('', client))).toHaveLength(5)
    expect(irnsOf(await clients.si.get<any>('/api/v2/invoices'))).toHaveLength(5)
  })

  it('shows each invoice as a summary with its adjustments; a fully credited one reads CANCELLED', async () => {
    const reply = await search(`irn=${A.irn}`)
    expect(reply.body.data).toEqual({
      content: [
        {
          irn: A.irn,
          invoice_type_code: '381',
          issue_date: '2026-11-10',
          currency: 'NGN',
          buyer_tin: X.tin,
          buyer_name: X.name,
          payable_amount: 107.5,
          payment_status: 'CANCELLED',
          signed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          adjustments: {
            credited: 107.5,
            debited: 0,
            remaining: 0,
            notes: [{ irn: D.irn, invoice_type_code: '380', amount: 107.5, issue_date: '2026-11-21' }],
          },
        },
      ],
      page: { size: 50, number: 0, totalElements: 1, totalPages: 1 },
    })
  })

  it.each([
    ['irn', () => `irn=${C.irn}`, () => [C.irn]],
    ['payment_status PAID', () => 'payment_status=PAID', () => [C.irn]],
    ['payment_status CANCELLED', () => 'payment_status=cancelled', () => [A.irn]],
    ['payment_status PENDING', () => 'payment_status=PENDING', () => [E.irn, D.irn, B.irn]],
    ['invoice_type_code', () => 'invoice_type_code=380', () => [D.irn]],
    ['buyer_tin', () => `buyer_tin=${X.tin}`, () => [D.irn, B.irn, A.irn]],
    ['currency', () => 'currency=usd', () => [B.irn]],
    [
      'issue dates (inclusive)',
      () => 'issue_date_from=2026-11-15&issue_date_to=2026-11-20',
      () => [C.irn, B.irn],
    ],
    ['issue_date_from', () => 'issue_date_from=2026-11-21', () => [E.irn, D.irn]],
    ['two key filters', () => `buyer_tin=${X.tin}&currency=NGN`, () => [D.irn, A.irn]],
    ['filters matching nothing', () => 'currency=EUR', () => []],
  ])('filters by %s', async (_, query, expected) => {
    const reply = await search(query())
    expect(reply.status).toBe(200)
    expect(irnsOf(reply)).toEqual(expected())
    expect(reply.body.data.page.totalElements).toBe(expected().length)
  })

  it('pages a key filter by its own numbers', async () => {
    const reply = await search(`buyer_tin=${X.tin}&size=2&page=2`)
    expect(irnsOf(reply)).toEqual([A.irn])
    expect(reply.body.data.page).toEqual({ size: 2, number: 1, totalElements: 3, totalPages: 2 })
  })

  it('shows a business only its own invoices', async () => {
    const theirs = await search('', 'other')
    expect(theirs.status).toBe(200)
    expect(theirs.body.data.page.totalElements).toBe(1)
    expect(irnsOf(theirs)).not.toContain(A.irn)
    expect(irnsOf(await search(`irn=${A.irn}`, 'other'))).toEqual([])
    expect(irnsOf(await search(`buyer_tin=${X.tin}`, 'other'))).toEqual([])
    // A buyer does not search its suppliers' invoices here (it pulls them by IRN).
    expect(irnsOf(await clients.buyer.get<any>(`/api/v1/invoices?irn=${C.irn}`))).toEqual([])
  })

  it('keeps the two modes apart: test-mode credentials of the same business search only test-mode invoices', async () => {
    const { si: testSi, app: testApp } = testModeClients(api.url)
    const before = await testSi.get<any>('/api/v1/invoices')
    expect(before.status).toBe(200)
    expect(before.headers.get('x-environment')).toBe('test')
    expect(irnsOf(before)).toEqual([])
    expect(irnsOf(await testSi.get<any>(`/api/v1/invoices?irn=${A.irn}`))).toEqual([])
    expect(irnsOf(await testSi.get<any>(`/api/v1/invoices?buyer_tin=${X.tin}`))).toEqual([])
    // A credit note in test mode cannot bind to a live original.
    const note = await testApp.post<any>('/api/v1/app/invoice/sign', noteOf(B, 1))
    expect(note.status).toBe(400)
    expect(JSON.stringify(note.body)).toContain('NG-BR-03')

    const sandboxOnly = invoice(5, '2026-11-22')
    expect((await testApp.post<any>('/api/v1/app/invoice/sign', sandboxOnly)).status).toBe(200)
    const after = await testSi.get<any>('/api/v1/invoices')
    expect(irnsOf(after)).toEqual([sandboxOnly.irn])
    expect(after.body.data.page.totalElements).toBe(1)
    expect(irnsOf(await search(`irn=${sandboxOnly.irn}`))).toEqual([])
    expect((await search('size=1')).body.data.page.totalElements).toBe(5)
  })

  it('counts the numbers a crashed sign took until an operator voids them (after the test above)', async () => {
    const testSi = testModeClients(api.url).si
    // A sign that took its numbers and died before its transaction (the function timed out).
    const crashed = invoice(6, '2026-11-23')
    await inMode('test', () => allocateNumbers(DEV.supplier.businessId, spacesOf(crashed as any)))
    const gapped = await testSi.get<any>('/api/v1/invoices')
    expect(gapped.body.data.page.totalElements).toBe(2)
    expect(irnsOf(gapped)).toHaveLength(1)

    const target = { tableName: api.tableName, dynamoEndpoint: api.dynamoEndpoint }
    const args = ['invoices', 'void-gaps', '--business', DEV.supplier.businessId, '--mode', 'test']
    const dry = await cliOutput(target, ...args, '--settle-seconds', '0', '--dry-run')
    expect(dry).toContain('ALL: 1 of 2 numbers are gaps: 2')
    expect((await testSi.get<any>('/api/v1/invoices')).body.data.page.totalElements).toBe(2)
    const voided = await cliOutput(target, ...args, '--settle-seconds', '0')
    // Its ALL, buyer, type and currency numbers: spaces the command finds through the invoice above.
    expect(voided).toContain('4 gap(s) voided in test mode')
    const repaired = await testSi.get<any>('/api/v1/invoices')
    expect(repaired.body.data.page.totalElements).toBe(1)
    expect((await testSi.get<any>(`/api/v1/invoices?buyer_tin=${X.tin}`)).body.data.page.totalElements).toBe(
      1,
    )
    expect((await testSi.get<any>('/api/v1/invoices?currency=NGN')).body.data.page.totalElements).toBe(1)
    // Run again: nothing left to void; the live business's totals never moved.
    expect(await cliOutput(target, ...args, '--settle-seconds', '0')).toContain('No gaps in test mode')
    expect((await search('size=1')).body.data.page.totalElements).toBe(5)
  })

  it('returns the same page as RFC 4180 CSV, formulas escaped, pages up to 1,000', async () => {
    const reply = await search('size=1000', 'si', { accept: 'text/csv' })
    expect(reply.status).toBe(200)
    expect(reply.headers.get('content-type')).toMatch(/^text\/csv; charset=utf-8/)
    expect(reply.headers.get('x-total-count')).toBe('5')
    const text = reply.body as unknown as string
    expect(
      text.startsWith(
        'irn,issue_date,invoice_type_code,currency,buyer_tin,buyer_name,payable_amount,credited,debited,remaining,payment_status,signed_at\r\n',
      ),
    ).toBe(true)
    const rows = parse(text, { columns: true }) as Record<string, string>[]
    expect(rows.map((r) => r.irn)).toEqual([E.irn, D.irn, C.irn, B.irn, A.irn])
    expect(rows[0]).toMatchObject({
      buyer_name: `'${Z.name}`,
      payable_amount: '430.00',
      payment_status: 'PENDING',
    })
    expect(rows[4]).toMatchObject({ credited: '107.50', remaining: '0.00', payment_status: 'CANCELLED' })
    // CONTRACT 20: times ISO 8601 with their offset (Lagos), no fraction.
    expect(rows.map((r) => r.signed_at)).toEqual(
      rows.map(() => expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+01:00$/)),
    )
    const paged = await search('size=2', 'si', { accept: 'text/csv' })
    expect(paged.headers.get('link')).toBe('</api/v1/invoices?size=2&page=2>; rel="next"')
  })

  it.each([
    ['size over 100 as JSON', 'size=101'],
    ['size over 1,000', 'size=1001'],
    ['page 0', 'page=0'],
    ['a date that is not one', 'issue_date_from=2026-02-30'],
    ['dates out of order', 'issue_date_from=2026-11-21&issue_date_to=2026-11-01'],
    ['an unknown payment status', 'payment_status=LATE'],
    ['an over-long buyer_tin', `buyer_tin=${'1'.repeat(65)}`],
  ])('refuses %s with 400', async (_, query) => {
    expect((await search(query)).status).toBe(400)
  })

  it.each([
    ['12', '123456789012'],
    ['14', '12345678901234'],
  ])(
    'refuses a buyer_tin of %s digits, naming the TIN forms (no such buyer can be on an invoice)',
    async (_, tin) => {
      const reply = await search(`buyer_tin=${tin}`)
      expect(reply.status).toBe(400)
      expect(reply.body.error.errors).toEqual([
        {
          path: 'query/buyer_tin',
          code: expect.any(String),
          message: expect.stringMatching(/NNNNNNNN-NNNN .*, the 13-digit Tax ID .* or TIN- and digits/),
        },
      ])
    },
  )

  it('reads a page as one key range: at most size + 1 items', async () => {
    for (const query of [
      { size: '2', page: '2' },
      { buyer_tin: X.tin, size: '2' },
    ]) {
      const meter = newSearchMeter()
      const { page } = await searchInvoices(DEV.supplier.businessId, SearchQuery.parse(query), meter)
      expect(page.content).toHaveLength(2)
      expect(meter.pageItems + meter.otherItems).toBe(3)
    }
  })

  it('filters by a buyer’s 13-digit Tax ID (NRS/JRB notice of May 2026), run last: it signs one more', async () => {
    const taxId = String(Math.floor(Math.random() * 1e13)).padStart(13, '0')
    const body = invoice(7, '2026-11-24', { tin: taxId, name: 'Tax ID Buyer Ltd' })
    expect((await clients.app.post<any>('/api/v1/app/invoice/sign', body)).status).toBe(200)
    const reply = await search(`buyer_tin=${taxId}`)
    expect(reply.status).toBe(200)
    expect(irnsOf(reply)).toEqual([body.irn])
    expect(reply.body.data.content[0].buyer_tin).toBe(taxId)
    expect(irnsOf(await search(`buyer_tin=${taxId}`, 'other'))).toEqual([])
  })
})
