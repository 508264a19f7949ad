import { randomUUID } from 'node:crypto'
import { parse } from 'csv-parse/sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as XLSX from 'xlsx'
import { issueMerchantToken } from '#lib/platform/auth/credentials.ts'
import { ApiClient } from '#client/api-client.ts'
import { addMerchant, openAccount } from '#lib/ledger/repository.ts'
import { seedTransactions } from '../../../scripts/ops/seed-transactions.ts'
import type { TransactionRecord } from '#lib/merchant-history/service.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { type DevClients, devClients } from '../../support/clients.ts'

const PATH = '/api/v1/merchant/transactions'
const MERCHANT = 'MRC-CSV'
const ACCOUNT = '0300000001'
const COLUMNS = [
  'completedAt',
  'providerReference',
  'merchantReference',
  'queriedAccount',
  'type',
  'status',
  'amount',
  'currency',
]
/** References a spreadsheet would run as formulas, and ones that need RFC 4180 quoting. */
const HOSTILE = [
  '=1+2',
  '+SUM(A1:A2)',
  '-2+3',
  '@SUM(A1)',
  'a,"quoted",b',
  'ok-plain',
  "=cmd|' /C calc'!A0",
  'say "hi", =1',
]

let api: TestApi
let clients: DevClients
let merchant: ApiClient
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
  await addMerchant({ merchantId: MERCHANT, name: 'CSV merchant' })
  await openAccount({ accountNumber: ACCOUNT, name: 'CSV payer', balanceKobo: 10_000_000 })
  const { token } = await issueMerchantToken({ merchantId: MERCHANT })
  merchant = new ApiClient(api.url, { area: 'bearer', token, headers: { 'x-merchant-id': MERCHANT } })
  // 2,300 seeded over March 2026 (some failed, some reversed), then live transfers with hostile references.
  await seedTransactions({
    merchantId: MERCHANT,
    count: 2_300,
    from: new Date('2026-03-01T00:00:00Z'),
    to: new Date('2026-03-31T00:00:00Z'),
    failedShare: 0.1,
    reversedShare: 0.05,
    seed: 11,
  })
  for (const [i, merchantReference] of HOSTILE.entries()) {
    const sent = await clients.switch.post('/api/v1/transactions/transfer', {
      requestId: `REQ-${randomUUID()}`,
      stan: '333333',
      processingCode: '400000',
      merchantId: MERCHANT,
      merchantReference,
      accountNumber: ACCOUNT,
      amount: 100 + i + 0.5,
      currency: 'NGN',
      productCode: 'DATA',
    })
    expect(sent.status).toBe(200)
  }
  // Generous: the suite runs it beside the heaviest files on two cores (about 15 s alone).
}, 300_000)
afterAll(() => api?.close())

const target = (params: Record<string, string | number>) =>
  `${PATH}?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString()}`

/** Every JSON page (size 200) of a filter, concatenated. */
async function jsonHistory(filters: Record<string, string>): Promise<TransactionRecord[]> {
  const content: TransactionRecord[] = []
  for (let page = 1; ; page++) {
    const reply = await merchant.get<{
      data: { content: TransactionRecord[]; page: { totalPages: number } }
    }>(target({ ...filters, page, size: 200 }))
    expect(reply.status).toBe(200)
    content.push(...reply.body.data.content)
    if (page >= reply.body.data.page.totalPages) return content
  }
}

/** Every CSV page of a filter, following the Link headers, each parsed with csv-parse. */
async function csvHistory(filters: Record<string, string>) {
  const rows: Record<string, string>[] = []
  const pages: { rows: number; link: string | null }[] = []
  let next: string | undefined = target({ ...filters, size: 1000 })
  while (next) {
    const reply: { status: number; headers: Headers; body: unknown } = await merchant.get(next, {
      accept: 'text/csv',
    })
    expect(reply.status).toBe(200)
    expect(reply.headers.get('content-type')).toMatch(/^text\/csv; charset=utf-8/)
    const text = reply.body as string
    // RFC 4180: CRLF after every record, the header first.
    expect(text.startsWith(`${COLUMNS.join(',')}\r\n`)).toBe(true)
    const parsed = parse(text, { columns: true, bom: true }) as Record<string, string>[]
    rows.push(...parsed)
    const link = reply.headers.get('link')
    pages.push({ rows: parsed.length, link })
    next = link ? /^<([^>]+)>; rel="next"$/.exec(link)![1] : undefined
  }
  return { rows, pages }
}

/** What the CSV must hold for a JSON record: the same values, text cells neutralised, amounts 2 dp. */
const neutralised = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text)
// CONTRACT 20: times ISO 8601 with their offset (no fraction), the account as spreadsheet text, a currency.
const asCsvRow = (r: TransactionRecord) => ({
  completedAt: r.completedAt ? `${r.completedAt.slice(0, 19)}+01:00` : '',
  providerReference: neutralised(r.providerReference),
  merchantReference: neutralised(r.merchantReference),
  queriedAccount: /^\d+$/.test(r.queriedAccount) ? `="${r.queriedAccount}"` : neutralised(r.queriedAccount),
  type: neutralised(r.type),
  status: neutralised(r.status),
  amount: r.amount.toFixed(2),
  currency: 'NGN',
})

describe('GET /api/v1/merchant/transactions with Accept: text/csv', () => {
  it.each([
    ['every transaction', {}],
    ['SUCCESSFUL in a date range', { status: 'SUCCESSFUL', fromDate: '2026-03-03', toDate: '2026-03-27' }],
    ['REVERSED', { status: 'REVERSED' }],
    ['FAILED from a date-time', { status: 'FAILED', fromDate: '2026-03-10T12:00:00.000' }],
  ])('holds exactly the JSON history, row for row across pages: %s', async (_, filters) => {
    const json = await jsonHistory(filters)
    const csv = await csvHistory(filters)
    expect(csv.rows.length).toBe(json.length)
    expect(csv.rows).toEqual(json.map(asCsvRow))
    // Pages of 1,000, the next one linked from each but the last.
    expect(csv.pages.slice(0, -1).every((p) => p.rows === 1000 && p.link)).toBe(true)
    expect(csv.pages.at(-1)!.link).toBeNull()
  })

  it('spans more than one CSV page for the whole history', async () => {
    const csv = await csvHistory({})
    expect(csv.pages.length).toBe(3)
    expect(csv.rows.length).toBe(2_300 + HOSTILE.length)
  })

  it('neutralises formula cells and quotes commas and quotes, keeping the value readable', async () => {
    const { rows } = await csvHistory({})
    const byReference = new Map(rows.map((r) => [r.merchantReference, r]))
    expect([...byReference.keys()]).toEqual(
      expect.arrayContaining([
        "'=1+2",
        "'+SUM(A1:A2)",
        "'-2+3",
        "'@SUM(A1)",
        'a,"quoted",b',
        'ok-plain',
        "'=cmd|' /C calc'!A0",
        'say "hi", =1',
      ]),
    )
    expect(byReference.get("'=1+2")).toMatchObject({ amount: '100.50', status: 'SUCCESSFUL', type: 'DEBIT' })
    for (const row of rows) expect(row.merchantReference).not.toMatch(/^[=+\-@\t\r]/)
  })

  it('keeps the query in the Link and sends the total', async () => {
    const reply = await merchant.get(target({ status: 'ALL', fromDate: '2026-03-01', size: 1000 }), {
      accept: 'text/csv',
    })
    expect(reply.headers.get('x-total-count')).toBe(String(2_300 + HOSTILE.length))
    const link = reply.headers.get('link')!
    const next = new URL(/^<([^>]+)>/.exec(link)![1]!, api.url)
    expect(next.pathname).toBe(PATH)
    expect(Object.fromEntries(next.searchParams)).toEqual({
      status: 'ALL',
      fromDate: '2026-03-01',
      size: '1000',
      page: '2',
    })
  })

  it('allows pages of 1,000 for CSV only, and answers 400 beyond', async () => {
    const csvTooBig = await merchant.get<{ errors: { path: string; message: string }[] }>(
      target({ size: 1001 }),
      { accept: 'text/csv' },
    )
    expect(csvTooBig.status).toBe(400)
    expect(csvTooBig.headers.get('content-type')).toMatch(/^application\/json/)
    expect(csvTooBig.body.errors[0]).toMatchObject({
      path: 'query/size',
      message: 'size must be at most 1000',
    })
    const jsonTooBig = await merchant.get<{ errors: { path: string }[] }>(target({ size: 1000 }))
    expect(jsonTooBig.status).toBe(400)
    expect(jsonTooBig.body.errors[0]?.path).toBe('query/size')
  })

  it('reads in a spreadsheet with the account number as text (leading zero kept), the time with its offset and a currency', async () => {
    const reply = await merchant.get(target({ status: 'SUCCESSFUL', size: 5 }), { accept: 'text/csv' })
    const sheet = XLSX.read(reply.body as string, { type: 'string' }).Sheets.Sheet1!
    // Row 1 is the header; D is queriedAccount, A completedAt, H currency.
    expect(sheet.D2).toMatchObject({ t: 's', v: ACCOUNT })
    expect(sheet.A2?.v).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+01:00$/)
    expect(sheet.H2).toMatchObject({ t: 's', v: 'NGN' })
  })

  it('answers JSON when JSON is preferred or nothing is asked for', async () => {
    for (const accept of ['application/json, text/csv', 'text/csv;q=0.5, application/json', '*/*']) {
      const reply = await merchant.get(target({ size: 5 }), { accept })
      expect(reply.headers.get('content-type'), accept).toMatch(/^application\/json/)
    }
    const csv = await merchant.get(target({ size: 5 }), { accept: 'text/csv, */*;q=0.1' })
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/)
  })
})
