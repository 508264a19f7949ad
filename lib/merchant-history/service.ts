import { koboToNaira } from '#lib/ledger/money.ts'
import { lagosLocalIso } from '#lib/time.ts'
import {
  type HistoryHead,
  type HistoryItem,
  type HistoryStatus,
  REVERSAL_BLOCK_SIZE,
  reversalBlockOf,
} from './items.ts'
import {
  allRange,
  byProviderReference,
  byReference,
  lastItemBefore,
  newMeter,
  type ReadMeter,
  readHead,
  readReversalBlock,
  statusRange,
} from './repository.ts'
import type { HistoryQuery } from './schemas.ts'

/** A transaction as Area C shows it: exactly the fields of spec C.1. */
export interface TransactionRecord {
  amount: number
  completedAt: string | null
  merchantReference: string
  providerReference: string
  queriedAccount: string
  status: HistoryStatus
  type: string
}

export interface HistoryPage {
  content: TransactionRecord[]
  page: { size: number; number: number; totalElements: number; totalPages: number }
}

export const toRecord = (item: HistoryItem): TransactionRecord => ({
  amount: koboToNaira(item.amountKobo),
  completedAt: item.completedAt,
  merchantReference: item.merchantReference,
  providerReference: item.providerReference,
  queriedAccount: item.accountNumber,
  status: item.status,
  type: item.type,
})

/** Where a date range starts and ends in each sequence space: positions (lo, hi]. */
interface Bounds {
  all: [number, number]
  ok: [number, number]
  failed: [number, number]
}

/**
 * The positions of a date range, from two one-item reads of the time index: every item carries the
 * head's counts just after it was created, so the newest item at or before toDate tells how many
 * transactions of each kind are at or before toDate, and the newest one before fromDate how many are
 * before fromDate. No per-day counters and no counting of items are needed.
 */
async function boundsOf(
  merchantId: string,
  query: HistoryQuery,
  head: HistoryHead,
  meter: ReadMeter,
): Promise<Bounds> {
  const [upper, lower] = await Promise.all([
    query.toDate
      ? lastItemBefore(merchantId, lagosLocalIso(new Date(query.toDate.ms + 1)), meter)
      : { seqAll: head.all, okCount: head.ok, failedCount: head.failed },
    query.fromDate ? lastItemBefore(merchantId, query.fromDate.local, meter) : undefined,
  ])
  const hi = upper ?? { seqAll: 0, okCount: 0, failedCount: 0 }
  const lo = lower ?? { seqAll: 0, okCount: 0, failedCount: 0 }
  return {
    all: [lo.seqAll, Math.max(lo.seqAll, hi.seqAll)],
    ok: [lo.okCount, Math.max(lo.okCount, hi.okCount)],
    failed: [lo.failedCount, Math.max(lo.failedCount, hi.failedCount)],
  }
}

/** Page `skip / size` of a dense sequence range (lo, hi], newest first: a key range. */
function densePage(
  [lo, hi]: [number, number],
  skip: number,
  size: number,
): { bottom: number; top: number } | undefined {
  const top = hi - skip
  if (top <= lo) return undefined
  return { bottom: Math.max(lo + 1, top - size + 1), top }
}

/**
 * The merchant's history page (CONTRACT section 7): newest first. `page` is 1-based and the reply's
 * `page.number` is the page asked for: the spec's samples disagree (request page 1, reply number 0),
 * and a client reading the reply's number back into its next request must land on the next page.
 * Every list is read as one key range of at most `size` items; totals come from the head's counters.
 */
export async function listTransactions(
  merchantId: string,
  query: HistoryQuery,
  meter: ReadMeter = newMeter(),
): Promise<HistoryPage> {
  const size = query.size
  const skip = (query.page - 1) * size
  const { total, items } = query.reference
    ? await referencePage(merchantId, query, skip, meter)
    : await listPage(merchantId, query, skip, meter)
  return {
    content: items.map(toRecord),
    page: { size, number: query.page, totalElements: total, totalPages: Math.ceil(total / size) },
  }
}

async function listPage(merchantId: string, query: HistoryQuery, skip: number, meter: ReadMeter) {
  const size = query.size
  const head = await readHead(merchantId, meter)
  const dated = Boolean(query.fromDate || query.toDate)
  const bounds = dated ? await boundsOf(merchantId, query, head, meter) : undefined
  const all = bounds?.all ?? [0, head.all]
  const ok = bounds?.ok ?? [0, head.ok]
  const failed = bounds?.failed ?? [0, head.failed]

  switch (query.status) {
    case 'INITIATED':
      // Transfers complete in the transaction that records them: none is ever left INITIATED.
      return { total: 0, items: [] }
    case 'ALL': {
      const range = densePage(all, skip, size)
      return {
        total: all[1] - all[0],
        items: range ? await allRange(merchantId, range.bottom, range.top, meter) : [],
      }
    }
    case 'FAILED': {
      const range = densePage(failed, skip, size)
      return {
        total: failed[1] - failed[0],
        items: range ? await statusRange(merchantId, 'FAILED', range.bottom, range.top, size, meter) : [],
      }
    }
    case 'SUCCESSFUL':
    case 'REVERSED': {
      const { total, top } = await locate(merchantId, head, ok, query.status, skip, meter)
      if (top === undefined) return { total, items: [] }
      // The partition holds only items of this status, so `size` items from `top` down are the page.
      return { total, items: await statusRange(merchantId, query.status, ok[0] + 1, top, size, meter) }
    }
  }
}

/**
 * SUCCESSFUL and REVERSED share the seqOk positions (lo, hi]: a position is REVERSED when its number is
 * in its block's reversal set. The head counts reversals per block, so the block holding the page's
 * first item is found without reading any block, and then only that block's numbers are read (plus,
 * with a date range, the at most two blocks the range cuts through, to count the reversals inside
 * it). Returns the status's total in the range and the seqOk of the page's first (newest) item.
 */
async function locate(
  merchantId: string,
  head: HistoryHead,
  [lo, hi]: [number, number],
  status: 'SUCCESSFUL' | 'REVERSED',
  skip: number,
  meter: ReadMeter,
): Promise<{ total: number; top?: number }> {
  if (hi <= lo) return { total: 0 }
  const sets = new Map<number, number[]>()
  /** A block's reversed numbers inside the range, newest first (read at most once). */
  const reversedIn = async (block: number) => {
    if (!head.reversedInBlock[block]) return []
    let set = sets.get(block)
    if (!set) {
      set = (await readReversalBlock(merchantId, block, meter)).filter((r) => r > lo && r <= hi)
      sets.set(block, set)
    }
    return set
  }
  const span = (block: number) => ({
    // Positions start at 1; a block's positions beyond head.ok do not exist yet.
    from: Math.max(lo + 1, block * REVERSAL_BLOCK_SIZE, 1),
    to: Math.min(hi, (block + 1) * REVERSAL_BLOCK_SIZE - 1, head.ok),
  })
  const counts = async (block: number) => {
    const { from, to } = span(block)
    const positions = Math.max(0, to - from + 1)
    const whole =
      from === Math.max(block * REVERSAL_BLOCK_SIZE, 1) &&
      to === Math.min((block + 1) * REVERSAL_BLOCK_SIZE - 1, head.ok)
    const reversed = whole ? (head.reversedInBlock[block] ?? 0) : (await reversedIn(block)).length
    return { positions, reversed, inStatus: status === 'REVERSED' ? reversed : positions - reversed }
  }

  const top = reversalBlockOf(hi)
  const bottom = reversalBlockOf(lo + 1)
  const perBlock = new Map<number, number>()
  let total = 0
  for (let block = top; block >= bottom; block--) {
    const { inStatus } = await counts(block)
    perBlock.set(block, inStatus)
    total += inStatus
  }
  if (skip >= total) return { total }

  // The block holding the skip-th newest item, then the item within it.
  let before = 0
  let block = top
  while (before + perBlock.get(block)! <= skip) before += perBlock.get(block--)!
  const within = skip - before
  const reversed = await reversedIn(block)
  if (status === 'REVERSED') return { total, top: reversed[within] }
  // Start as if nothing in the block were reversed, then step down past each reversal at or above.
  let position = span(block).to - within
  for (const r of reversed) {
    if (r < position) break
    position--
  }
  return { total, top: position }
}

/**
 * A reference names one payment (the merchant's reference, or our providerReference) and its
 * retries: the few items carrying it are read by key and the other filters applied to them.
 */
async function referencePage(merchantId: string, query: HistoryQuery, skip: number, meter: ReadMeter) {
  const reference = query.reference!
  const [byMerchantRef, byProviderRef] = await Promise.all([
    byReference(merchantId, reference, meter),
    /^TNX\d+$/.test(reference) ? byProviderReference(merchantId, reference, meter) : undefined,
  ])
  const unique = new Map<number, HistoryItem>()
  for (const item of [...byMerchantRef, ...(byProviderRef ? [byProviderRef] : [])])
    unique.set(item.seqAll, item)
  const matching = [...unique.values()]
    .filter((item) => query.status === 'ALL' || item.status === query.status)
    .filter((item) => !query.fromDate || item.createdAt >= query.fromDate.local)
    .filter((item) => !query.toDate || item.createdAt <= query.toDate.local)
    .sort((a, b) => b.seqAll - a.seqAll)
  return { total: matching.length, items: matching.slice(skip, skip + query.size) }
}
