import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { ApiClient } from '#client/api-client.ts'
import { issueMerchantToken } from '#lib/platform/auth/credentials.ts'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { addMerchant, openAccount } from '#lib/ledger/repository.ts'
import type { TransactionRecord } from '#lib/merchant-history/service.ts'
import { rankHistoryReferences } from '../../../scripts/ops/rank-history-references.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { type DevClients, devClients } from '../../support/clients.ts'
import { type ReadMeter, startReadMeter } from '../../support/dynamo-read-meter.ts'
import { storedHistory } from '../../support/history.ts'
import { transferBody } from '../../support/transfers.ts'

/**
 * Issue 22 point 8: a merchant `?reference=` lookup reads at most a page plus one item, however many
 * transactions share the reference: the reference's items are numbered in it by a counter, so page N
 * is one key range and the counter the total. The API talks to DynamoDB through a counting proxy
 * (test/support/dynamo-read-meter.ts), which counts the items read under this merchant's history keys.
 */
const MERCHANT = 'MRC-REF-PAGES'
const ACCOUNT = '7200000001'
const PATH = '/api/v1/merchant/transactions'

let meter: ReadMeter
let api: TestApi
let clients: DevClients
let merchant: ApiClient
beforeAll(async () => {
  meter = await startReadMeter(inject('dynamoEndpoint'), `MHIST#${MERCHANT}`)
  api = await startApi({ dynamoEndpoint: meter.endpoint })
  clients = devClients(api.url)
  await addMerchant({ merchantId: MERCHANT, name: 'Reference pages' })
  await openAccount({ accountNumber: ACCOUNT, name: 'Reference payer', balanceKobo: 100_000_000 })
  const { token } = await issueMerchantToken({ merchantId: MERCHANT })
  merchant = new ApiClient(api.url, { area: 'bearer', token, headers: { 'x-merchant-id': MERCHANT } })
})
afterAll(async () => {
  await api?.close()
  await meter?.close()
})

interface Page {
  content: TransactionRecord[]
  page: { size: number; number: number; totalElements: number; totalPages: number }
}

/** `count` transfers with this merchant reference, sent `together` at a time (the indexer numbers a batch at once). */
async function transfers(merchantReference: string, count: number, together = 1): Promise<void> {
  for (let i = 0; i < count; i += together) {
    const replies = await Promise.all(
      Array.from({ length: Math.min(together, count - i) }, () =>
        clients.switch.post<{ responseCode: string }>(
          '/api/v1/transactions/transfer',
          transferBody({ merchantId: MERCHANT, accountNumber: ACCOUNT, merchantReference }),
        ),
      ),
    )
    for (const reply of replies) expect(reply.body.responseCode).toBe('00')
  }
  await api.settled()
}

/** The providerReferences carrying a merchant reference, newest first, as stored in the ALL list. */
async function expectedNewestFirst(merchantReference: string): Promise<string[]> {
  return (await storedHistory(MERCHANT))
    .filter((item) => item.merchantReference === merchantReference)
    .map((item) => item.providerReference as string)
    .reverse()
}

/** One page of the lookup, with the items DynamoDB read for it. */
async function lookup(params: Record<string, string | number>): Promise<{ data: Page; itemsRead: number }> {
  const search = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]))
  meter.reset()
  const reply = await merchant.get<{ data: Page }>(`${PATH}?${search}`)
  expect(reply.status, reply.text).toBe(200)
  return { data: reply.body.data, itemsRead: meter.itemsRead }
}

/** Every page of a reference at `size`, checking each page's totals and what it read. */
async function everyPage(reference: string, size: number, total: number): Promise<string[]> {
  const seen: string[] = []
  const pages = Math.ceil(total / size)
  for (let page = 1; page <= pages + 1; page++) {
    const { data, itemsRead } = await lookup({ reference, size, page })
    expect(data.page, `page ${page}`).toEqual({
      size,
      number: page - 1,
      totalElements: total,
      totalPages: pages,
    })
    expect(data.content.length, `page ${page}`).toBe(
      page <= pages ? Math.min(size, total - (page - 1) * size) : 0,
    )
    expect(itemsRead, `items read for page ${page} of size ${size}`).toBeLessThanOrEqual(size + 1)
    // The meter sees the page's own items (so it is not simply blind).
    expect(itemsRead).toBeGreaterThanOrEqual(data.content.length)
    for (const record of data.content) expect(record.merchantReference).toBe(reference)
    seen.push(...data.content.map((record) => record.providerReference))
  }
  return seen
}

describe('GET /api/v1/merchant/transactions?reference=: numbered pages of one reference', () => {
  it('pages 60 transfers sharing one reference newest first, each page reading at most size + 1 items', async () => {
    await transfers('ORDER-SHARED', 60, 12)
    await transfers('ORDER-OTHER', 3)
    const expected = await expectedNewestFirst('ORDER-SHARED')
    expect(expected).toHaveLength(60)
    for (const size of [7, 25, 60])
      expect(await everyPage('ORDER-SHARED', size, 60), `size ${size}`).toEqual(expected)
    // A deep page costs what the first does.
    const deep = await lookup({ reference: 'ORDER-SHARED', size: 1, page: 59 })
    expect(deep.data.content.map((r) => r.providerReference)).toEqual([expected[58]])
    expect(deep.itemsRead).toBeLessThanOrEqual(2)
    // The other reference is apart; a providerReference still finds its one transaction.
    expect(await everyPage('ORDER-OTHER', 2, 3)).toEqual(await expectedNewestFirst('ORDER-OTHER'))
    const one = await lookup({ reference: expected[10]! })
    expect(one.data.content.map((r) => r.providerReference)).toEqual([expected[10]])
    expect(one.data.page.totalElements).toBe(1)
  })

  it('applies status and dates to a reference', async () => {
    const ok = await lookup({ reference: 'ORDER-SHARED', status: 'SUCCESSFUL', size: 50, page: 2 })
    expect(ok.data.page.totalElements).toBe(60)
    expect(ok.data.content).toHaveLength(10)
    const failed = await lookup({ reference: 'ORDER-SHARED', status: 'FAILED' })
    expect(failed.data.page.totalElements).toBe(0)
    const later = await lookup({ reference: 'ORDER-SHARED', fromDate: '2099-01-01' })
    expect(later.data.page.totalElements).toBe(0)
    // Filters read the reference in full, so only a reference of at most 1,000: a larger one is a 400.
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.historyReferenceHead(MERCHANT, 'ORDER-HUGE'), all: 1001 },
      }),
    )
    meter.reset()
    const huge = await merchant.get<{ responseCode: string; responseMessage: string }>(
      `${PATH}?reference=ORDER-HUGE&status=SUCCESSFUL`,
    )
    expect(huge.status).toBe(400)
    expect(huge.body.responseCode).toBe('30')
    expect(huge.text).toContain('at most 1000')
    expect(meter.itemsRead).toBeLessThanOrEqual(1)
  })

  it('finds items recorded before references were numbered, and pages them after the backfill', async () => {
    await transfers('ORDER-BEFORE', 5)
    // As such items were stored before: the sort key is the bare seqAll and no counter counts them.
    for (const item of await storedHistory(MERCHANT)) {
      if (item.merchantReference !== 'ORDER-BEFORE') continue
      await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: { pk: item.pk, sk: item.sk },
          UpdateExpression: 'SET gsi3sk = :bare',
          ExpressionAttributeValues: { ':bare': keys.seqKey(item.seqAll) },
        }),
      )
    }
    await db().send(
      new DeleteCommand({ TableName: tableName(), Key: keys.historyReferenceHead(MERCHANT, 'ORDER-BEFORE') }),
    )
    const before = await expectedNewestFirst('ORDER-BEFORE')
    // Not numbered yet: found by reading the whole reference, as before.
    const found = await lookup({ reference: 'ORDER-BEFORE', size: 2, page: 3 })
    expect(found.data.page.totalElements).toBe(5)
    expect(found.data.content.map((r) => r.providerReference)).toEqual([before[4]])

    expect(await rankHistoryReferences({ merchantId: MERCHANT })).toEqual({ references: 1, items: 5 })
    expect(await rankHistoryReferences({ merchantId: MERCHANT })).toEqual({ references: 0, items: 0 })
    // A transfer after the backfill is numbered after them, and every page is a key range again.
    await transfers('ORDER-BEFORE', 2)
    const expected = await expectedNewestFirst('ORDER-BEFORE')
    expect(expected.slice(2)).toEqual(before)
    expect(await everyPage('ORDER-BEFORE', 2, 7)).toEqual(expected)
  })
})
