import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { issueMerchantToken } from '#lib/platform/auth/credentials.ts'
import { ApiClient } from '#client/api-client.ts'
import { addMerchant, openAccount } from '#lib/ledger/repository.ts'
import type { HistoryItem } from '#lib/merchant-history/items.ts'
import { seedTransactions } from '../../../scripts/ops/seed-transactions.ts'
import { type TransactionRecord, toRecord } from '#lib/merchant-history/service.ts'
import { lagosLocalIso } from '#lib/platform/time.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { type DevClients, devClients } from '../../support/clients.ts'
import { allPages, expectStatementsMatchHistory } from '../../support/finance.ts'
import { transferBody } from '../../support/transfers.ts'

const PATH = '/api/v1/merchant/transactions'
let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(() => api?.close())

interface HistoryReply {
  responseStatus: string
  responseMessage: string
  responseCode: string
  traceId: string
  data: {
    content: TransactionRecord[]
    page: { size: number; number: number; totalElements: number; totalPages: number }
  }
  timestamp: string
}

async function merchantClient(merchantId: string) {
  await addMerchant({ merchantId, name: `History ${merchantId}` })
  const { token } = await issueMerchantToken({ merchantId })
  return new ApiClient(api.url, { area: 'bearer', token, headers: { 'x-merchant-id': merchantId } })
}

const query = (params: Record<string, string | number | undefined>) =>
  `${PATH}?${new URLSearchParams(Object.entries(params).filter(([, v]) => v !== undefined) as [string, string][]).toString()}`

describe('GET /api/v1/merchant/transactions: a live transfer', () => {
  it('lists the transfer with every C.1 field, in the C.1 envelope', async () => {
    const body = transferBody({ amount: 1234.56 })
    const sent = await clients.switch.post<{ providerReference: string; completedAt: string }>(
      '/api/v1/transactions/transfer',
      body,
    )
    const reply = await clients.merchant.get<HistoryReply>(query({ reference: body.merchantReference }))
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({
      responseStatus: 'SUCCESS',
      responseMessage: 'Successful',
      responseCode: '00',
      traceId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      data: {
        content: [
          {
            amount: 1234.56,
            completedAt: sent.body.completedAt,
            merchantReference: body.merchantReference,
            providerReference: sent.body.providerReference,
            queriedAccount: '0123456789',
            status: 'SUCCESSFUL',
            type: 'DEBIT',
          },
        ],
        page: { size: 50, number: 0, totalElements: 1, totalPages: 1 },
      },
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    })
    expect(sent.body.completedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/)
    // Found by the providerReference too.
    const byProvider = await clients.merchant.get<HistoryReply>(
      query({ reference: sent.body.providerReference }),
    )
    expect(byProvider.body.data.content).toEqual(reply.body.data.content)
  })

  it('never shows one merchant the transactions of another', async () => {
    const body = transferBody({ amount: 5 })
    const sent = await clients.switch.post<{ providerReference: string }>(
      '/api/v1/transactions/transfer',
      body,
    )
    for (const reference of [body.merchantReference, sent.body.providerReference]) {
      const reply = await clients.merchant2.get<HistoryReply>(query({ reference }))
      expect(reply.body.data).toEqual({
        content: [],
        page: { size: 50, number: 0, totalElements: 0, totalPages: 0 },
      })
    }
    const all = await clients.merchant2.get<HistoryReply>(query({ status: 'ALL' }))
    expect(all.body.data.content.map((t) => t.providerReference)).not.toContain(sent.body.providerReference)
  })

  it('moves a reversed transfer from SUCCESSFUL to REVERSED, keeping every list and total consistent', async () => {
    const merchant = await merchantClient('MRC-HIST-LIVE')
    const accountNumber = '7100000001'
    await openAccount({ accountNumber, name: 'History account', balanceKobo: 10_000 })
    // Eight transfers: 1..6 approved, 7 and 8 declined (the balance runs out); then 2 and 5 reversed.
    const sent: { requestId: string; providerReference: string }[] = []
    for (let i = 1; i <= 8; i++) {
      const body = transferBody({ merchantId: 'MRC-HIST-LIVE', accountNumber, amount: i <= 6 ? 15 : 80 })
      const reply = await clients.switch.post<{ providerReference: string; responseCode: string }>(
        '/api/v1/transactions/transfer',
        body,
      )
      expect(reply.body.responseCode).toBe(i <= 6 ? '00' : '51')
      sent.push({ requestId: body.requestId, providerReference: reply.body.providerReference })
    }
    for (const i of [2, 5]) {
      const reply = await clients.switch.post('/api/v1/transactions/reversal', {
        requestId: `REV-${randomUUID()}`,
        stan: '333333',
        processingCode: '400000',
        originalRequestId: sent[i - 1]!.requestId,
      })
      expect(reply.status).toBe(200)
    }
    const refs = (ns: number[]) => ns.map((n) => sent[n - 1]!.providerReference)
    const expected: Record<string, string[]> = {
      ALL: refs([8, 7, 6, 5, 4, 3, 2, 1]),
      SUCCESSFUL: refs([6, 4, 3, 1]),
      REVERSED: refs([5, 2]),
      FAILED: refs([8, 7]),
      INITIATED: [],
    }
    for (const [status, providerReferences] of Object.entries(expected)) {
      // Page by page with size 1 and size 3: every page is computed from the counters and reversal blocks.
      for (const size of [1, 3]) {
        const { content, total } = await allPages(merchant, { status, size })
        expect(total, `${status} size ${size}`).toBe(providerReferences.length)
        expect(
          content.map((t) => t.providerReference),
          `${status} size ${size}`,
        ).toEqual(providerReferences)
      }
    }
    const reversed = await merchant.get<HistoryReply>(query({ reference: sent[1]!.providerReference }))
    expect(reversed.body.data.content[0]).toMatchObject({ status: 'REVERSED', type: 'DEBIT', amount: 15 })
  })
})

describe('GET /api/v1/merchant/transactions: filters and paging over a seeded history', () => {
  const MERCHANT = 'MRC-HIST-SEED'
  let merchant: ApiClient
  let items: HistoryItem[]
  const from = new Date('2026-03-01T00:00:00Z')
  const to = new Date('2026-03-11T00:00:00Z')
  beforeAll(async () => {
    merchant = await merchantClient(MERCHANT)
    const seeded = await seedTransactions({
      merchantId: MERCHANT,
      count: 260,
      from,
      to,
      failedShare: 0.2,
      reversedShare: 0.15,
      seed: 7,
      returnItems: true,
    })
    items = seeded.items!.slice().reverse() // newest first
  })
  const expectedFor = (filter: (i: HistoryItem) => boolean) => items.filter(filter).map(toRecord)

  it("answers each seeded day's statement with that day's history sums (the seeder writes the day totals)", async () => {
    const perDay = await expectStatementsMatchHistory(merchant, MERCHANT)
    expect(perDay.size).toBeGreaterThan(5)
    const total = (status: 'SUCCESSFUL' | 'FAILED' | 'REVERSED') =>
      [...perDay.values()].reduce((n, s) => n + s[status].count, 0)
    expect(total('SUCCESSFUL') + total('FAILED') + total('REVERSED')).toBe(260)
    expect(total('REVERSED')).toBe(items.filter((i) => i.status === 'REVERSED').length)
    expect(total('FAILED')).toBe(items.filter((i) => i.status === 'FAILED').length)
  })

  it('defaults to status ALL, page 1 and size 50, newest first', async () => {
    const reply = await merchant.get<HistoryReply>(PATH)
    expect(reply.body.data.page).toEqual({ size: 50, number: 0, totalElements: 260, totalPages: 6 })
    expect(reply.body.data.content).toEqual(expectedFor(() => true).slice(0, 50))
  })

  it('answers page=1 with "number": 0 (CONTRACT section 7: 1-based request, 0-based reply)', async () => {
    const reply = await merchant.get(`${PATH}?page=1&size=50`)
    expect(reply.status).toBe(200)
    expect(reply.text).toContain('"number":0,')
    expect((reply.body as HistoryReply).data.page.number).toBe(0)
  })

  it('answers page N with number N - 1, and an empty page past the end', async () => {
    const last = await merchant.get<HistoryReply>(query({ page: 6 }))
    expect(last.body.data.page).toEqual({ size: 50, number: 5, totalElements: 260, totalPages: 6 })
    expect(last.body.data.content).toEqual(expectedFor(() => true).slice(250))
    const past = await merchant.get<HistoryReply>(query({ page: 7 }))
    expect(past.body.data).toEqual({
      content: [],
      page: { size: 50, number: 6, totalElements: 260, totalPages: 6 },
    })
  })

  it('serves up to 200 per page', async () => {
    const reply = await merchant.get<HistoryReply>(query({ size: 200, page: 2 }))
    expect(reply.body.data.page).toEqual({ size: 200, number: 1, totalElements: 260, totalPages: 2 })
    expect(reply.body.data.content).toEqual(expectedFor(() => true).slice(200))
  })

  it.each(['SUCCESSFUL', 'FAILED', 'REVERSED'])('filters by status %s across every page', async (status) => {
    const expected = expectedFor((i) => i.status === status)
    expect(expected.length).toBeGreaterThan(20)
    const { content, total } = await allPages(merchant, { status, size: 17 })
    expect(total).toBe(expected.length)
    expect(content).toEqual(expected)
  })

  it('accepts the status in any letter case', async () => {
    const reply = await merchant.get<HistoryReply>(query({ status: 'failed', size: 5 }))
    expect(reply.body.data.content).toEqual(expectedFor((i) => i.status === 'FAILED').slice(0, 5))
  })

  it('lists nothing as INITIATED: transfers complete in the transaction that records them', async () => {
    const reply = await merchant.get<HistoryReply>(query({ status: 'INITIATED' }))
    expect(reply.body.data).toEqual({
      content: [],
      page: { size: 50, number: 0, totalElements: 0, totalPages: 0 },
    })
  })

  it.each(['ALL', 'SUCCESSFUL', 'FAILED', 'REVERSED'])(
    'filters a date range (inclusive, Lagos local time) with status %s',
    async (status) => {
      // A window cutting through the middle, with its edges exactly on two items' times.
      const fromDate = items[200]!.createdAt
      const toDate = items[60]!.createdAt
      const expected = expectedFor(
        (i) => i.createdAt >= fromDate && i.createdAt <= toDate && (status === 'ALL' || i.status === status),
      )
      const { content, total } = await allPages(merchant, { status, fromDate, toDate, size: 11 })
      expect(total).toBe(expected.length)
      expect(content).toEqual(expected)
    },
  )

  it('takes only fromDate, only toDate, or bare dates', async () => {
    const cut = items[100]!.createdAt
    expect((await allPages(merchant, { fromDate: cut, size: 200 })).content).toEqual(
      expectedFor((i) => i.createdAt >= cut),
    )
    expect((await allPages(merchant, { toDate: cut, size: 200 })).content).toEqual(
      expectedFor((i) => i.createdAt <= cut),
    )
    const day = cut.slice(0, 10)
    expect((await allPages(merchant, { fromDate: day, toDate: day, size: 200 })).content).toEqual(
      expectedFor((i) => i.createdAt.slice(0, 10) === day),
    )
  })

  it('answers an empty range before the first transaction', async () => {
    const reply = await merchant.get<HistoryReply>(query({ toDate: '2020-01-01T00:00:00' }))
    expect(reply.body.data.page.totalElements).toBe(0)
    expect(reply.body.data.content).toEqual([])
  })

  it('finds a transaction by its merchant reference or provider reference, with the other filters applied', async () => {
    const target = items.find((i) => i.status === 'FAILED')!
    for (const reference of [target.merchantReference, target.providerReference]) {
      const reply = await merchant.get<HistoryReply>(query({ reference }))
      expect(reply.body.data).toEqual({
        content: [toRecord(target)],
        page: { size: 50, number: 0, totalElements: 1, totalPages: 1 },
      })
    }
    const wrongStatus = await merchant.get<HistoryReply>(
      query({ reference: target.merchantReference, status: 'SUCCESSFUL' }),
    )
    expect(wrongStatus.body.data.page.totalElements).toBe(0)
    const wrongDates = await merchant.get<HistoryReply>(
      query({ reference: target.merchantReference, fromDate: lagosLocalIso(new Date()) }),
    )
    expect(wrongDates.body.data.page.totalElements).toBe(0)
    const unknown = await merchant.get<HistoryReply>(query({ reference: 'NO-SUCH-REFERENCE' }))
    expect(unknown.body.data.page.totalElements).toBe(0)
  })
})

describe('GET /api/v1/merchant/transactions: bad query values', () => {
  it.each([
    ['an unknown status', { status: 'PENDING' }, 'query/status'],
    ['an unparseable fromDate', { fromDate: 'yesterday' }, 'query/fromDate'],
    ['a toDate with a zone', { toDate: '2026-03-01T10:00:00Z' }, 'query/toDate'],
    ['an impossible date', { fromDate: '2026-02-30T10:00:00' }, 'query/fromDate'],
    [
      'fromDate after toDate',
      { fromDate: '2026-03-02T00:00:00', toDate: '2026-03-01T00:00:00' },
      'query/fromDate',
    ],
    ['size 0', { size: 0 }, 'query/size'],
    ['size 1000', { size: 1000 }, 'query/size'],
    ['page 0', { page: 0 }, 'query/page'],
    ['a page that is not a number', { page: 'two' }, 'query/page'],
  ])('answers 400 in the C envelope for %s', async (_, params, path) => {
    const reply = await clients.merchant.get(query(params))
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual({
      responseCode: '30',
      responseMessage: expect.stringContaining('query string is invalid'),
      responseStatus: 'FAILED',
      traceId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      errors: [{ path, code: expect.any(String), message: expect.any(String) }],
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    })
  })
})
