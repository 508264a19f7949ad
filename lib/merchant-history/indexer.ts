import { tableName } from '#lib/platform/db/client.ts'
import { itemAt, readMany } from '#lib/platform/db/batch.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { type TransactItem, transact } from '#lib/platform/db/transact.ts'
import { AGAIN, withRetries } from '#lib/platform/db/retry.ts'
import { lagosLocalIso, parseLagosLocal } from '#lib/platform/time.ts'
import {
  addDayChange,
  allocate,
  bookEntry,
  type DayChange,
  dayChangeOf,
  dayTotalsUpdate,
  entriesCondition,
  entriesSet,
  type HistoryFacts,
  type HistoryHead,
  type HistoryItem,
  headOf,
  historyItem,
  historyItemKey,
  historyTimeKey,
  referenceHeadOf,
  referenceHeadUpdate,
  reversalBlockOf,
  reversalCountAttribute,
  type StatementEntry,
  statusStripe,
  unstripedSet,
} from './items.ts'

/**
 * The merchant history's only writer for live transfers. A transfer's transaction touches the
 * account, its request record and its providerReference pointer, nothing of the merchant's, so a
 * busy merchant serializes nothing. This indexer, fed the ledger's records (in AWS by the table's
 * DynamoDB stream, functions/merchant-history/history-indexer.ts; locally by the same handler through
 * scripts/local/stream-drive.ts), then records them in the merchant's history:
 *
 * - new transfers: sorted by createdAt, given the next dense numbers of the head, and the next rank in
 *   their merchant reference from its counter, in ONE conditional transaction per batch (head,
 *   reference counters, history items, the pointers' seqAll, the day totals), so the numbers never
 *   skip or repeat however many indexers run at once: a loser re-reads and tries again;
 * - reversals (the record's status became REVERSED): the item moves from the SUCCESSFUL to the
 *   REVERSED partition (the Area C list shows a transaction's current status, spec C.1), its seqOk
 *   goes into its reversal block, and the reversal is counted on the day it happened, one
 *   transaction per batch, conditional on the item still being SUCCESSFUL.
 *
 * Both also append the merchant's statement (CONTRACT 20, keys.statementEntry): a credit entry per
 * successful transfer and a debit entry of its own per reversal, numbered and carrying the running
 * balance from the head, in the same transaction. Nothing already booked is touched, so a day's
 * statement and its totals never change once the day is over and its entries are in (a reversal
 * lands on its own day, not on its transfer's).
 *
 * Every step is idempotent: a pointer that already has its seqAll, or an item already REVERSED, is
 * skipped, so a stream that delivers a record twice (or two shards racing) changes nothing twice.
 */

/**
 * What the indexer reads of a ledger transfer's record from the stream: the fields it records in the
 * history, no more (the ledger's record has these and others; this module does not import it).
 */
export interface IndexedTransfer {
  switchClientId: string
  requestId: string
  merchantId: string
  merchantReference: string
  providerReference: string
  accountNumber: string
  amountKobo: number
  productCode: string
  responseCode: string
  status: 'SUCCESSFUL' | 'FAILED' | 'REVERSED'
  /** Lagos local date-time with milliseconds, no zone. */
  createdAt: string
  reversedAt?: string
}

/** DynamoDB's most actions in one TransactWriteItems. */
const MAX_ACTIONS = 100
/** Reversals per transaction: an item and an entry each, their reversal blocks, the head and the day totals. */
const REVERSAL_CHUNK = 30
/** How long one batch keeps trying against other indexers before the stream gets it back. */
const BUDGET_MS = 20_000
const RETRY = { budgetMs: BUDGET_MS, baseMs: 4, capMs: 100 }

const lagosMs = (local: string) => parseLagosLocal(local)?.getTime() ?? 0
/** The Lagos calendar day of a Lagos local date-time. */
const dayOf = (local: string) => local.slice(0, 10)

/** The status a transfer had when it was created (a REVERSED one was created SUCCESSFUL). */
const createdAs = (t: IndexedTransfer): 'SUCCESSFUL' | 'FAILED' =>
  t.status === 'FAILED' ? 'FAILED' : 'SUCCESSFUL'

export function isTransferRecord(item: Record<string, unknown>): boolean {
  return item.entity === 'BANK_REQUEST' && item.kind === 'TRANSFER' && typeof item.merchantId === 'string'
}

/**
 * Records these ledger transfers (new or reversed since) in their merchants' histories. Returns the
 * merchants whose part could not be recorded (the caller hands those records back for a retry).
 */
export async function indexTransfers(
  transfers: IndexedTransfer[],
): Promise<{ failed: Map<string, unknown> }> {
  // The newest image of each transfer wins (a batch may hold its INSERT and its reversal's MODIFY).
  const latest = new Map<string, IndexedTransfer>()
  for (const t of transfers) latest.set(`${t.switchClientId}#${t.requestId}`, t)
  const byMerchant = new Map<string, IndexedTransfer[]>()
  for (const t of latest.values()) byMerchant.set(t.merchantId, [...(byMerchant.get(t.merchantId) ?? []), t])
  const failed = new Map<string, unknown>()
  await Promise.all(
    [...byMerchant].map(async ([merchantId, list]) => {
      try {
        await indexMerchant(merchantId, list)
      } catch (error) {
        failed.set(merchantId, error)
      }
    }),
  )
  return { failed }
}

/**
 * The merchant's head as read, or as this indexer last committed it (`stored`: the item exists), and
 * the ranked counts of the references this indexer committed.
 */
interface KnownHead {
  head: HistoryHead
  stored: boolean
  references: Map<string, number>
}

/**
 * One merchant's part of a batch. Its new transfers are numbered chunk after chunk, in order, each
 * chunk as large as one transaction takes: for a hot merchant these transactions ARE the history's
 * lag, so each costs one round trip. Every chunk's pointers are read up front, side by side (only an
 * indexer sets their seqAll, and a racing indexer that set one first fails this chunk's conditions),
 * with the counters of the chunk's merchant references (one item each, in the same BatchGetItem), and
 * a chunk's head is the one the chunk before committed; all are read again only on AGAIN.
 */
async function indexMerchant(merchantId: string, transfers: IndexedTransfer[]): Promise<void> {
  const oldestFirst = [...transfers].sort(
    (a, b) => a.createdAt.localeCompare(b.createdAt) || a.requestId.localeCompare(b.requestId),
  )
  const chunks = chunksForOneTransaction(oldestFirst)
  const headKey = keys.historyHead(merchantId)
  const pointerKeys = (chunk: IndexedTransfer[]) => [
    ...chunk.map((t) => keys.providerReference(t.providerReference)),
    ...referencesOf(chunk).map((reference) => keys.historyReferenceHead(merchantId, reference)),
  ]
  const firstReads = chunks.map((chunk, i) =>
    readMany(i === 0 ? [headKey, ...pointerKeys(chunk)] : pointerKeys(chunk)),
  )
  // Each is awaited in its chunk's turn; one that fails then is that chunk's failure, not an unhandled one.
  for (const read of firstReads) read.catch(() => {})
  let known: KnownHead | undefined
  for (const [i, chunk] of chunks.entries()) {
    await withRetries(async (attempt) => {
      const found = attempt === 0 ? await firstReads[i]! : await readMany([headKey, ...pointerKeys(chunk)])
      const result = await addNew(
        merchantId,
        chunk,
        found,
        attempt === 0 && known ? known : headIn(found, headKey),
      )
      if (result !== AGAIN) known = result
      return result
    }, RETRY)
  }
  const reversed = oldestFirst.filter((t) => t.status === 'REVERSED')
  for (let i = 0; i < reversed.length; i += REVERSAL_CHUNK) {
    const chunk = reversed.slice(i, i + REVERSAL_CHUNK)
    await withRetries(() => moveReversed(merchantId, chunk), RETRY)
  }
}

/** The distinct merchant references of some transfers. */
const referencesOf = (transfers: IndexedTransfer[]) => [...new Set(transfers.map((t) => t.merchantReference))]

/**
 * The transfers in order, cut into runs that each fit one transaction: up to three actions per
 * transfer (its history item, its pointer's seqAll, its statement entry), one counter per merchant
 * reference, the head, and one
 * day-totals update per calendar day. (Its reads, pointers and counters and the head, then stay
 * under BatchGetItem's 100 keys.)
 */
function chunksForOneTransaction(oldestFirst: IndexedTransfer[]): IndexedTransfer[][] {
  const chunks: IndexedTransfer[][] = []
  let chunk: IndexedTransfer[] = []
  let days = new Set<string>()
  let references = new Set<string>()
  for (const t of oldestFirst) {
    const withDay = new Set(days).add(dayOf(t.createdAt))
    const withReference = new Set(references).add(t.merchantReference)
    if (chunk.length && 3 * (chunk.length + 1) + withReference.size + 1 + withDay.size > MAX_ACTIONS) {
      chunks.push(chunk)
      chunk = []
      days = new Set()
      references = new Set()
    }
    chunk.push(t)
    days.add(dayOf(t.createdAt))
    references.add(t.merchantReference)
  }
  if (chunk.length) chunks.push(chunk)
  return chunks
}

function headIn(
  found: Map<string, Record<string, unknown>>,
  headKey: ReturnType<typeof keys.historyHead>,
): KnownHead {
  const stored = itemAt<Record<string, unknown>>(found, headKey)
  return { head: headOf(stored), stored: stored !== undefined, references: new Map() }
}

/**
 * The last step of both writers: the day totals join the batch's items in one transaction, so the
 * statement moves with the history; AGAIN when another indexer won the race (the caller re-reads).
 */
async function commitWithDayTotals(
  merchantId: string,
  items: TransactItem[],
  days: Map<string, DayChange>,
): Promise<'done' | typeof AGAIN> {
  const dayTotals = [...days].map(([day, change]) => dayTotalsItem(merchantId, day, change))
  return (await transact({ items, dayTotals })).ok ? 'done' : AGAIN
}

function dayTotalsItem(merchantId: string, day: string, change: DayChange): TransactItem {
  return { Update: { TableName: tableName(), ...dayTotalsUpdate(merchantId, day, change) } }
}

/** The head after a batch, with the condition that no other writer moved it since it was read. */
function headItem(
  merchantId: string,
  stored: boolean,
  previous: HistoryHead,
  next: HistoryHead,
): TransactItem {
  const unstriped = unstripedSet(previous)
  const entries = entriesSet(next)
  const booked = entriesCondition(previous)
  return {
    Update: {
      TableName: tableName(),
      Key: keys.historyHead(merchantId),
      UpdateExpression: `SET #all = :all, ok = :ok, failed = :failed, lastAtMs = :at, reversed = if_not_exists(reversed, :zero), entity = :entity, ${unstriped.set}, ${entries.set}`,
      // No other writer numbered a transfer or booked an entry since the head was read.
      ConditionExpression: stored ? `#all = :previous AND ${booked.condition}` : 'attribute_not_exists(pk)',
      ExpressionAttributeNames: { '#all': 'all' },
      ExpressionAttributeValues: {
        ':all': next.all,
        ':ok': next.ok,
        ':failed': next.failed,
        ':at': next.lastAtMs,
        ':zero': 0,
        ':entity': 'MERCHANT_HISTORY_HEAD',
        ...unstriped.values,
        ...entries.values,
        ...(stored ? { ':previous': previous.all, ...booked.values } : {}),
      },
    },
  }
}

/**
 * Numbers the transfers of a chunk not numbered yet, after `known`: one transaction conditional on the
 * head still being `known` and each reference counter still being what was read (the counters are
 * read beside the head but not with it, so the head's condition alone would not cover them). Returns
 * the head and counters it committed (`known` when there was nothing to number), or AGAIN if another
 * writer got there first.
 */
async function addNew(
  merchantId: string,
  chunk: IndexedTransfer[],
  found: Map<string, Record<string, unknown>>,
  known: KnownHead,
): Promise<KnownHead | typeof AGAIN> {
  const pending = chunk.filter((t) => {
    const pointer = itemAt<{ seqAll?: number }>(found, keys.providerReference(t.providerReference))
    // Every transfer's transaction writes its pointer, so it is there; with a seqAll it is recorded.
    return pointer !== undefined && pointer.seqAll === undefined
  })
  if (!pending.length) return known
  const before = known.head
  let head = before
  // Each reference's ranked count before this chunk: as this indexer committed it, else as read.
  const referencesBefore = new Map<string, number>()
  for (const reference of referencesOf(pending))
    referencesBefore.set(
      reference,
      known.references.get(reference) ??
        referenceHeadOf(itemAt(found, keys.historyReferenceHead(merchantId, reference))).all,
    )
  const references = new Map(referencesBefore)
  const items: TransactItem[] = []
  const days = new Map<string, DayChange>()
  const recordedAtMs = Date.now()
  for (const t of pending) {
    const status = createdAs(t)
    // The time index must sort as the numbering does (date ranges are key ranges of the numbers): a
    // transfer committed after a later one was numbered is indexed at that one's time, milliseconds
    // apart. Its createdAt (and so its day and completedAt) stays the ledger's.
    const atMs = Math.max(lagosMs(t.createdAt), head.lastAtMs)
    const indexedAt = atMs === lagosMs(t.createdAt) ? t.createdAt : lagosLocalIso(new Date(atMs))
    head = { ...allocate(head, status).next, lastAtMs: atMs }
    const facts: HistoryFacts = {
      merchantId,
      amountKobo: t.amountKobo,
      merchantReference: t.merchantReference,
      providerReference: t.providerReference,
      accountNumber: t.accountNumber,
      status,
      responseCode: t.responseCode,
      createdAt: t.createdAt,
      productCode: t.productCode,
      switchClientId: t.switchClientId,
      requestId: t.requestId,
    }
    const rank = references.get(t.merchantReference)! + 1
    references.set(t.merchantReference, rank)
    items.push({
      Put: {
        TableName: tableName(),
        Item: {
          ...historyItem(facts, head, rank),
          ...historyTimeKey(merchantId, indexedAt, head.all, head),
          recordedAtMs,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    })
    items.push({
      Update: {
        TableName: tableName(),
        Key: keys.providerReference(t.providerReference),
        UpdateExpression: 'SET seqAll = :seq',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(seqAll)',
        ExpressionAttributeValues: { ':seq': head.all },
      },
    })
    addDayChange(days, dayOf(t.createdAt), dayChangeOf(status, t.amountKobo))
    if (status === 'SUCCESSFUL') {
      const booked = bookEntry(head, t.amountKobo, lagosMs(t.createdAt))
      head = booked.next
      items.push(entryPut(merchantId, t, 'TRANSFER', booked.next, booked.bookedMs, t.createdAt))
    }
  }
  for (const [reference, count] of references)
    items.push({
      Update: {
        TableName: tableName(),
        ...referenceHeadUpdate(merchantId, reference, referencesBefore.get(reference)!, count),
      },
    })
  items.push(headItem(merchantId, known.stored, before, head))
  const outcome = await commitWithDayTotals(merchantId, items, days)
  return outcome === AGAIN
    ? AGAIN
    : { head, stored: true, references: new Map([...known.references, ...references]) }
}

/**
 * A statement entry, booked at `bookedMs` with the head after it (its number and running balance),
 * put only if absent: an entry is never rewritten.
 */
function entryPut(
  merchantId: string,
  t: IndexedTransfer,
  kind: StatementEntry['kind'],
  after: HistoryHead,
  bookedMs: number,
  valueAt: string,
): TransactItem {
  const bookedAt = lagosLocalIso(new Date(bookedMs))
  const entry: StatementEntry = {
    entity: 'MERCHANT_STATEMENT_ENTRY',
    merchantId,
    seq: after.entries,
    kind,
    amountKobo: kind === 'TRANSFER' ? t.amountKobo : -t.amountKobo,
    balanceAfterKobo: after.balanceKobo,
    bookedAt,
    valueAt,
    providerReference: t.providerReference,
    merchantReference: t.merchantReference,
    accountNumber: t.accountNumber,
    productCode: t.productCode,
    currency: 'NGN',
  }
  return {
    Put: {
      TableName: tableName(),
      Item: { ...keys.statementEntry(merchantId, bookedAt, after.entries), ...entry },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  }
}

/**
 * Moves the reversed transfers' items to REVERSED (those not moved yet) and books each reversal as a
 * debit entry of its own on the day it happened: one transaction, or AGAIN.
 */
async function moveReversed(merchantId: string, chunk: IndexedTransfer[]): Promise<'done' | typeof AGAIN> {
  // The head (read with the pointers) says which stripe each item is in.
  const headKey = keys.historyHead(merchantId)
  const pointers = await readMany([headKey, ...chunk.map((t) => keys.providerReference(t.providerReference))])
  const head = headIn(pointers, headKey).head
  let booked = head
  const seqs = chunk.map(
    (t) => itemAt<{ seqAll?: number }>(pointers, keys.providerReference(t.providerReference))?.seqAll,
  )
  // Not numbered yet: addNew of this very batch does it first, so only a concurrent race lands here.
  if (seqs.some((s) => s === undefined)) return AGAIN
  const found = await readMany(seqs.map((s) => historyItemKey(merchantId, s!, head)))
  const items: TransactItem[] = []
  const perBlock = new Map<number, number[]>()
  const days = new Map<string, DayChange>()
  chunk.forEach((t, i) => {
    const item = itemAt<HistoryItem>(found, historyItemKey(merchantId, seqs[i]!, head))
    if (item?.status !== 'SUCCESSFUL' || item.seqOk === undefined) return
    items.push({
      Update: {
        TableName: tableName(),
        Key: historyItemKey(merchantId, item.seqAll, head),
        UpdateExpression: 'SET #status = :reversed, gsi1pk = :partition, reversedAt = :at',
        ConditionExpression: '#status = :successful',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':reversed': 'REVERSED',
          ':successful': 'SUCCESSFUL',
          ':partition': keys.historyStatusPartition(
            merchantId,
            'REVERSED',
            statusStripe('REVERSED', item.seqOk, head),
          ),
          ':at': t.reversedAt ?? lagosLocalIso(new Date()),
        },
      },
    })
    const block = reversalBlockOf(item.seqOk)
    perBlock.set(block, [...(perBlock.get(block) ?? []), item.seqOk])
    // The reversal counts on its own day; the transfer's day keeps the transfer as it was.
    const reversedAt = t.reversedAt ?? lagosLocalIso(new Date())
    addDayChange(days, dayOf(reversedAt), { reversedCount: 1, reversedKobo: item.amountKobo })
    const entry = bookEntry(booked, -item.amountKobo, lagosMs(reversedAt))
    booked = entry.next
    items.push(
      entryPut(
        merchantId,
        { ...t, amountKobo: item.amountKobo },
        'REVERSAL',
        entry.next,
        entry.bookedMs,
        reversedAt,
      ),
    )
  })
  if (!items.length) return 'done'
  const blocks = [...perBlock]
  for (const [block, list] of blocks) {
    items.push({
      Update: {
        TableName: tableName(),
        Key: keys.historyReversalBlock(merchantId, block),
        UpdateExpression: 'ADD seqs :seqs, #count :n SET entity = :entity',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: {
          ':seqs': new Set(list),
          ':n': list.length,
          ':entity': 'MERCHANT_HISTORY_REVERSALS',
        },
      },
    })
  }
  const entries = entriesSet(booked)
  const bookedBefore = entriesCondition(head)
  items.push({
    Update: {
      TableName: tableName(),
      Key: keys.historyHead(merchantId),
      UpdateExpression: `ADD reversed :n, ${blocks.map((_, i) => `#b${i} :b${i}`).join(', ')} SET ${entries.set}`,
      // No other writer booked an entry since the head was read (the running balance follows from it).
      ConditionExpression: `attribute_exists(pk) AND ${bookedBefore.condition}`,
      ExpressionAttributeNames: Object.fromEntries(
        blocks.map(([block], i) => [`#b${i}`, reversalCountAttribute(block)]),
      ),
      ExpressionAttributeValues: {
        ':n': blocks.reduce((sum, [, list]) => sum + list.length, 0),
        ...Object.fromEntries(blocks.map(([, list], i) => [`:b${i}`, list.length])),
        ...entries.values,
        ...bookedBefore.values,
      },
    },
  })
  return commitWithDayTotals(merchantId, items, days)
}
