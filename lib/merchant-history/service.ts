import { invalid } from '#lib/platform/errors.ts'
import { koboToNaira } from '#lib/platform/money.ts'
import { logger } from '#lib/platform/log.ts'
import { lagosLocalIso } from '#lib/platform/time.ts'
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
  downFrom,
  everyReferenceItem,
  hasUnrankedItems,
  lastItemBefore,
  newMeter,
  type ReadMeter,
  readHead,
  readReferenceHead,
  readReversalBlock,
  referenceRange,
  statusItems,
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
      ? lastItemBefore(merchantId, head, lagosLocalIso(new Date(query.toDate.ms + 1)), meter)
      : { seqAll: head.all, okCount: head.ok, failedCount: head.failed },
    query.fromDate ? lastItemBefore(merchantId, head, query.fromDate.local, meter) : undefined,
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
 * The merchant's history page (CONTRACT section 7): newest first. `page` is 1-based in the request and
 * the reply's `page.number` is 0-based (`page - 1`), as the interface's samples show (request page 1,
 * reply number 0): the form the existing clients of the service read.
 * Every list is read as one key range of at most `size` items per stripe it spans (at most 2 for a
 * page of up to 100); totals come from the head's counters.
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
    page: { size, number: query.page - 1, totalElements: total, totalPages: Math.ceil(total / size) },
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
        items: range ? await allRange(merchantId, head, range.bottom, range.top, meter) : [],
      }
    }
    case 'FAILED': {
      const range = densePage(failed, skip, size)
      return {
        total: failed[1] - failed[0],
        items: range
          ? await statusItems(merchantId, head, 'FAILED', downFrom(range.top, range.bottom), meter)
          : [],
      }
    }
    case 'SUCCESSFUL':
    case 'REVERSED': {
      const { total, numbers } = await locate(merchantId, head, ok, query.status, skip, size, meter)
      return { total, items: await statusItems(merchantId, head, query.status, numbers, meter) }
    }
  }
}

/**
 * SUCCESSFUL and REVERSED share the seqOk positions (lo, hi]: a position is REVERSED when its number is
 * in its block's reversal set. The head counts reversals per block, so the block holding the page's
 * first item is found without reading any block, and then only that block's numbers are read (plus,
 * with a date range, the at most two blocks the range cuts through, to count the reversals inside
 * it). Returns the status's total in the range and the seqOk numbers of the page, newest first.
 */
async function locate(
  merchantId: string,
  head: HistoryHead,
  [lo, hi]: [number, number],
  status: 'SUCCESSFUL' | 'REVERSED',
  skip: number,
  size: number,
  meter: ReadMeter,
): Promise<{ total: number; numbers: number[] }> {
  if (hi <= lo) return { total: 0, numbers: [] }
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
  if (skip >= total) return { total, numbers: [] }

  // The block holding the skip-th newest item, then the page from there down, block by block (a
  // page crosses into a second block only at a block's edge; blocks without reversals are not read).
  let before = 0
  let first = top
  while (before + perBlock.get(first)! <= skip) before += perBlock.get(first--)!
  let toSkip = skip - before
  const numbers: number[] = []
  for (let block = first; block >= bottom && numbers.length < size; block--) {
    const reversed = await reversedIn(block)
    if (status === 'REVERSED') {
      numbers.push(...reversed.slice(toSkip, toSkip + size - numbers.length))
    } else {
      const isReversed = new Set(reversed)
      const { from, to } = span(block)
      for (let position = to; position >= from && numbers.length < size; position--) {
        if (isReversed.has(position)) continue
        if (toSkip > 0) toSkip--
        else numbers.push(position)
      }
    }
    toSkip = 0
  }
  return { total, numbers }
}

/**
 * With status or dates, a reference lookup reads the reference's items and filters them: only for a
 * reference of at most this many (a reference names one payment and its retries); a larger one is a
 * 400 saying so, so that no request reads more than this.
 */
export const REFERENCE_FILTER_LIMIT = 1000

/**
 * A reference names one payment (the merchant's reference, or our providerReference) and its
 * retries. The reference's items are numbered in it (1 = oldest) by its counter, so page N is one key
 * range of at most `size` items and the counter (one item) is the total: a page reads at most size + 1
 * items, however many transactions share the reference. A providerReference match (one GetItem of its
 * pointer, the head and the item) that is not already one of them is listed first. Status and dates
 * are applied to the reference's items read in full, for a reference of at most
 * REFERENCE_FILTER_LIMIT. A reference that still has items from before the numbering (until
 * scripts/ops/rank-history-references.ts has run) is read in full, as it was before.
 */
async function referencePage(merchantId: string, query: HistoryQuery, skip: number, meter: ReadMeter) {
  const reference = query.reference!
  if (query.status === 'INITIATED') return { total: 0, items: [] }
  const [head, unranked, byProviderRef] = await Promise.all([
    readReferenceHead(merchantId, reference, meter),
    hasUnrankedItems(merchantId, reference, meter),
    /^TNX\d+$/.test(reference) ? byProviderReference(merchantId, reference, meter) : undefined,
  ])
  const extra = byProviderRef && byProviderRef.merchantReference !== reference ? byProviderRef : undefined
  const legacy = head.legacy ?? 0
  const inReference = legacy + head.all
  const filtered = query.status !== 'ALL' || query.fromDate !== undefined || query.toDate !== undefined

  if (unranked || filtered) {
    if (unranked)
      logger.warn('merchant reference has history items not ranked yet: run rank-history-references', {
        merchantId,
      })
    else if (inReference > REFERENCE_FILTER_LIMIT)
      throw invalid(
        [
          {
            path: 'query/reference',
            code: 'too_many_matches',
            message: `reference ${reference} names ${inReference} transactions: status and date filters apply to a reference of at most ${REFERENCE_FILTER_LIMIT}; page through it without them`,
          },
        ],
        'The request query string is invalid',
      )
    const all = [...(await everyReferenceItem(merchantId, reference, meter)), ...(extra ? [extra] : [])]
    const matching = all
      .filter((item) => query.status === 'ALL' || item.status === query.status)
      .filter((item) => !query.fromDate || item.createdAt >= query.fromDate.local)
      .filter((item) => !query.toDate || item.createdAt <= query.toDate.local)
      .sort((a, b) => b.seqAll - a.seqAll)
    return { total: matching.length, items: matching.slice(skip, skip + query.size) }
  }

  // Newest first: the providerReference match (if any) at index 0, then positions inReference, ..., 1.
  const first = extra ? 1 : 0
  const from = Math.max(skip - first, 0)
  const to = Math.min(skip + query.size - first, inReference)
  const items = await referenceRange(
    merchantId,
    reference,
    legacy,
    inReference - to + 1,
    inReference - from,
    meter,
  )
  return { total: inReference + first, items: extra && skip === 0 ? [extra, ...items] : items }
}
