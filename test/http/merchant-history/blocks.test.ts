import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { issueMerchantToken } from '#lib/platform/auth/credentials.ts'
import { ApiClient } from '#client/api-client.ts'
import { addMerchant } from '#lib/ledger/repository.ts'
import { type HistoryItem, REVERSAL_BLOCK_SIZE } from '#lib/merchant-history/items.ts'
import { seedTransactions } from '../../../scripts/ops/seed-transactions.ts'
import { toRecord } from '#lib/merchant-history/service.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { allPages } from '../../support/finance.ts'

/**
 * SUCCESSFUL and REVERSED pages are placed with per-block reversal counts and one block's numbers.
 * A history longer than one block (16,384 successful positions) checks every page across the
 * boundary, with and without a date range cutting through both blocks.
 */
const MERCHANT = 'MRC-HIST-BLOCKS'
let api: TestApi
let merchant: ApiClient
let items: HistoryItem[]
beforeAll(async () => {
  api = await startApi()
  await addMerchant({ merchantId: MERCHANT, name: 'Two blocks' })
  const { token } = await issueMerchantToken({ merchantId: MERCHANT })
  merchant = new ApiClient(api.url, { area: 'bearer', token, headers: { 'x-merchant-id': MERCHANT } })
  const seeded = await seedTransactions({
    merchantId: MERCHANT,
    count: 18_000,
    failedShare: 0.02,
    reversedShare: 0.25,
    seed: 3,
    returnItems: true,
    concurrency: 6,
  })
  items = seeded.items!.slice().reverse()
}, 300_000)
afterAll(() => api?.close())

describe('merchant history longer than one reversal block', () => {
  it('holds more successful positions than one block', () => {
    const okPositions = items.filter((i) => i.status !== 'FAILED').length
    expect(okPositions).toBeGreaterThan(REVERSAL_BLOCK_SIZE)
  })

  it.each(['SUCCESSFUL', 'REVERSED'])(
    'lists every %s page across the block boundary',
    { timeout: 60_000 },
    async (status) => {
      const expected = items.filter((i) => i.status === status).map(toRecord)
      const { content, total } = await allPages(merchant, { status, size: 200 })
      expect(total).toBe(expected.length)
      expect(content).toEqual(expected)
    },
  )

  it.each(['SUCCESSFUL', 'REVERSED'])(
    'lists %s within a date range cutting through both blocks',
    { timeout: 60_000 },
    async (status) => {
      const boundary = items.findIndex((i) => i.seqOk !== undefined && i.seqOk < REVERSAL_BLOCK_SIZE)
      const toDate = items[boundary - 500]!.createdAt
      const fromDate = items[boundary + 1500]!.createdAt
      const inRange = items.filter(
        (i) => i.status === status && i.createdAt >= fromDate && i.createdAt <= toDate,
      )
      // The window really has items on both sides of the boundary.
      expect(
        inRange.some((i) => i.seqOk! >= REVERSAL_BLOCK_SIZE) &&
          inRange.some((i) => i.seqOk! < REVERSAL_BLOCK_SIZE),
      ).toBe(true)
      const expected = inRange.map(toRecord)
      const { content, total } = await allPages(merchant, { status, fromDate, toDate, size: 200 })
      expect(total).toBe(expected.length)
      expect(content).toEqual(expected)
    },
  )
})
