import { randomUUID } from 'node:crypto'
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { issueMerchantToken } from '#lib/platform/auth/credentials.ts'
import { ApiClient } from '#client/api-client.ts'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { addMerchant, openAccount } from '#lib/ledger/repository.ts'
import { type HistoryItem, historyStripe } from '#lib/merchant-history/items.ts'
import { seedTransactions } from '../../../scripts/ops/seed-transactions.ts'
import { toRecord } from '#lib/merchant-history/service.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { type DevClients, devClients } from '../../support/clients.ts'
import { allPages } from '../../support/finance.ts'
import { range, storedHistory } from '../../support/history.ts'
import { transferBody } from '../../support/transfers.ts'

/**
 * A merchant's lists are striped over several partition keys (lib/merchant-history/items.ts), and a
 * history written before striping stays where it is: its numbers are "unstriped", in stripe 0, which
 * is the key every item had then. This file writes such a history (every item at the unstriped key,
 * a head without unstriped counts), then live transfers, and reads every list across the boundary.
 */
const MERCHANT = 'MRC-HIST-STRIPES'
const LEGACY = 250
let api: TestApi
let clients: DevClients
let merchant: ApiClient
const sent: { requestId: string; providerReference: string }[] = []

/** The history as it was before striping: the seeder told every number is unstriped, then the head as it was. */
async function writeHistoryFromBeforeStriping() {
  const everything = 1e12
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.historyHead(MERCHANT),
        entity: 'MERCHANT_HISTORY_HEAD',
        all: 0,
        ok: 0,
        failed: 0,
        reversed: 0,
        lastAtMs: 0,
        unstripedAll: everything,
        unstripedOk: everything,
        unstripedFailed: everything,
      },
    }),
  )
  const now = Date.now()
  await seedTransactions({
    merchantId: MERCHANT,
    count: LEGACY,
    failedShare: 0.1,
    reversedShare: 0.1,
    seed: 7,
    from: new Date(now - 10 * 86_400_000),
    to: new Date(now - 86_400_000),
  })
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.historyHead(MERCHANT),
      UpdateExpression: 'REMOVE unstripedAll, unstripedOk, unstripedFailed',
    }),
  )
}

beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
  await addMerchant({ merchantId: MERCHANT, name: 'Striped history' })
  const { token } = await issueMerchantToken({ merchantId: MERCHANT })
  merchant = new ApiClient(api.url, { area: 'bearer', token, headers: { 'x-merchant-id': MERCHANT } })
  await writeHistoryFromBeforeStriping()

  // 230 live transfers: every eleventh from an empty account (declined), five of the approved reversed.
  await openAccount({ accountNumber: '7300000001', name: 'Stripes payer', balanceKobo: 1_000_000 })
  await openAccount({ accountNumber: '7300000002', name: 'Stripes empty', balanceKobo: 0 })
  for (let i = 0; i < 230; i++) {
    const accountNumber = i % 11 === 10 ? '7300000002' : '7300000001'
    const body = transferBody({ accountNumber, merchantId: MERCHANT, amount: 1 })
    const reply = await clients.switch.post<{ providerReference: string }>(
      '/api/v1/transactions/transfer',
      body,
    )
    expect(reply.status).toBe(200)
    sent.push({ requestId: body.requestId, providerReference: reply.body.providerReference })
  }
  for (const i of [3, 99, 150, 201, 229]) {
    const reply = await clients.switch.post('/api/v1/transactions/reversal', {
      requestId: `REV-${randomUUID()}`,
      stan: '555555',
      processingCode: '400000',
      originalRequestId: sent[i]!.requestId,
    })
    expect(reply.status).toBe(200)
  }
  await api.settled()
}, 120_000)
afterAll(() => api?.close())

describe('merchant history written before striping, then striped', () => {
  it('keeps the old items at their key and stripes the new ones, numbering every one exactly once', async () => {
    const stored = await storedHistory(MERCHANT)
    expect(stored.map((i) => i.seqAll)).toEqual(range(LEGACY + 230))
    const head = (
      await db().send(new GetCommand({ TableName: tableName(), Key: keys.historyHead(MERCHANT) }))
    ).Item!
    expect(head.unstripedAll).toBe(LEGACY)
    const legacy = stored.filter((i) => i.seqAll <= LEGACY)
    expect(head.unstripedOk).toBe(legacy.filter((i) => i.seqOk !== undefined).length)
    expect(head.unstripedFailed).toBe(legacy.filter((i) => i.seqFailed !== undefined).length)
    for (const item of stored) {
      const stripe = historyStripe(item.seqAll, LEGACY)
      expect(item.pk, `item ${item.seqAll}`).toBe(keys.historyListPartition(MERCHANT, stripe))
    }
    const newStripes = new Set(stored.filter((i) => i.seqAll > LEGACY).map((i) => i.pk))
    expect(newStripes.size).toBeGreaterThanOrEqual(3)
  })

  it.each([
    ['ALL', '100'],
    ['ALL', '7'],
    ['SUCCESSFUL', '100'],
    ['SUCCESSFUL', '9'],
    ['REVERSED', '3'],
    ['FAILED', '6'],
  ])('lists %s in pages of %s across the boundary, as stored', { timeout: 60_000 }, async (status, size) => {
    const stored = (await storedHistory(MERCHANT)).reverse() as HistoryItem[]
    const expected = stored.filter((i) => status === 'ALL' || i.status === status).map(toRecord)
    expect(expected.length).toBeGreaterThan(Number(size))
    const { content, total } = await allPages(merchant, { status, size })
    expect(total).toBe(expected.length)
    expect(content).toEqual(expected)
  })

  it('lists a date range that starts before striping and ends after it', async () => {
    const stored = (await storedHistory(MERCHANT)).reverse() as HistoryItem[]
    const fromDate = stored.find((i) => i.seqAll === LEGACY - 40)!.createdAt
    const toDate = stored.find((i) => i.seqAll === LEGACY + 170)!.createdAt
    for (const status of ['ALL', 'SUCCESSFUL']) {
      const expected = stored
        .filter(
          (i) =>
            (status === 'ALL' || i.status === status) && i.createdAt >= fromDate && i.createdAt <= toDate,
        )
        .map(toRecord)
      const { content, total } = await allPages(merchant, { status, size: '50', fromDate, toDate })
      expect(total, status).toBe(expected.length)
      expect(content, status).toEqual(expected)
    }
  })

  it('finds an item by providerReference on either side of the boundary', async () => {
    const stored = await storedHistory(MERCHANT)
    for (const seq of [LEGACY - 1, LEGACY + 120]) {
      const reference = stored[seq - 1]!.providerReference as string
      const { content } = await allPages(merchant, { reference, size: '10' })
      expect(content.map((t) => t.providerReference)).toEqual([reference])
    }
  })
})
