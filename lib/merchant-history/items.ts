import { keys } from '#lib/platform/db/keys.ts'

/**
 * The stored shapes of a merchant's history (Area C), shared by the ledger's transactions, which
 * write them one at a time, and the bulk seeder, which writes the same shapes in batches.
 *
 * Design (docs/history-and-finance.md): every transaction of a merchant gets a dense sequence number
 * `seqAll` (1, 2, 3...) in the ALL list, and a dense number in the space of its status at creation:
 * `seqOk` for transactions created SUCCESSFUL (they may later become REVERSED) and `seqFailed` for
 * FAILED ones. The numbers are allocated by a conditional update of the merchant's head item in the
 * same transaction as the item, so they never skip or repeat, and they follow time: page N of any list
 * is a key range, and the counters are the totals. A reversal moves an item from the SUCCESSFUL to the
 * REVERSED partition (same seqOk, so both stay in time order) and records its seqOk in a reversal
 * block, from which the position of page N in either partition is computed.
 */
export type HistoryStatus = 'INITIATED' | 'SUCCESSFUL' | 'FAILED' | 'REVERSED'
export const HISTORY_STATUSES: readonly HistoryStatus[] = ['INITIATED', 'SUCCESSFUL', 'FAILED', 'REVERSED']

/** Reversed seqOk numbers are kept in blocks of this many (one item each, well under 400 KB). */
export const REVERSAL_BLOCK_SIZE = 16_384

/**
 * Striping (docs/capacity.md): every list of a merchant (ALL, each status partition, the time
 * index) is spread over STRIPES partition keys, consecutive runs of STRIPE_RUN numbers taking turns,
 * so that no one key takes more than an eighth of a hot merchant's writes (one partition takes 1,000
 * write units a second, and each item costs 2 in the indexer's transaction). A page of up to 100
 * numbers spans at most 2 runs, so reads cost at most 2 queries, side by side; the 1,000-row CSV page
 * at most 8. Numbers allocated before striping (the head's `unstriped` counts) stay in stripe 0,
 * which is the key they always had, so no item is ever re-keyed.
 */
export const STRIPES = 8
export const STRIPE_RUN = 100

/** The stripe of number `seq` in a sequence space whose first `unstripedThrough` numbers are unstriped. */
export const historyStripe = (seq: number, unstripedThrough: number) =>
  seq <= unstripedThrough ? 0 : Math.floor(seq / STRIPE_RUN) % STRIPES

/** The stripes holding the numbers bottom..top (inclusive) of one sequence space. */
export function stripesOf(bottom: number, top: number, unstripedThrough: number): number[] {
  const stripes = new Set<number>()
  if (bottom <= Math.min(top, unstripedThrough)) stripes.add(0)
  const from = Math.max(bottom, unstripedThrough + 1)
  for (let run = Math.floor(from / STRIPE_RUN); run * STRIPE_RUN <= top && stripes.size < STRIPES; run++)
    stripes.add(run % STRIPES)
  return [...stripes]
}

/** How many numbers of each space were allocated before striping (all 0 for a merchant that began striped). */
export interface Unstriped {
  all: number
  ok: number
  failed: number
}

/** The merchant's head: the next numbers to allocate are these plus one. */
export interface HistoryHead {
  /** Transactions in ALL. */
  all: number
  /** Transactions created SUCCESSFUL (still SUCCESSFUL or since REVERSED). */
  ok: number
  failed: number
  reversed: number
  /**
   * Reversals per block of REVERSAL_BLOCK_SIZE seqOk positions (top-level attributes `rb<block>`, so
   * a reversal can ADD to one inside its transaction). With these a page of SUCCESSFUL or REVERSED is
   * placed by reading one block's numbers, however deep the page.
   */
  reversedInBlock: Record<number, number>
  /** The createdAt (epoch ms) of the newest item: createdAt never goes backwards along seqAll. */
  lastAtMs: number
  unstriped: Unstriped
  /** Statement entries recorded (keys.statementEntry): the last one's number. */
  entries: number
  /** The running balance after the last statement entry, kobo (money collected net of reversals). */
  balanceKobo: number
  /** The booking time (epoch ms) of the last statement entry: booking never goes backwards. */
  entryAtMs: number
}

export const EMPTY_HEAD: HistoryHead = {
  all: 0,
  ok: 0,
  failed: 0,
  reversed: 0,
  reversedInBlock: {},
  lastAtMs: 0,
  unstriped: { all: 0, ok: 0, failed: 0 },
  entries: 0,
  balanceKobo: 0,
  entryAtMs: 0,
}

/** The head attribute counting the reversals of one block. */
export const reversalCountAttribute = (block: number) => `rb${block}`

export function headOf(item: Record<string, unknown> | undefined): HistoryHead {
  if (!item) return EMPTY_HEAD
  const n = (v: unknown) => (typeof v === 'number' ? v : 0)
  const reversedInBlock: Record<number, number> = {}
  for (const [name, value] of Object.entries(item)) {
    const block = /^rb(\d+)$/.exec(name)?.[1]
    if (block !== undefined) reversedInBlock[Number(block)] = n(value)
  }
  // A head written before striping has no unstriped counts: every number it allocated is unstriped.
  const unstripedOr = (v: unknown, all: unknown) => (typeof v === 'number' ? v : n(all))
  return {
    all: n(item.all),
    ok: n(item.ok),
    failed: n(item.failed),
    reversed: n(item.reversed),
    reversedInBlock,
    lastAtMs: n(item.lastAtMs),
    unstriped: {
      all: unstripedOr(item.unstripedAll, item.all),
      ok: unstripedOr(item.unstripedOk, item.ok),
      failed: unstripedOr(item.unstripedFailed, item.failed),
    },
    entries: n(item.entries),
    balanceKobo: n(item.balanceKobo),
    entryAtMs: n(item.entryAtMs),
  }
}

/**
 * The head update's part that keeps the unstriped counts: set once, by the first write after
 * striping began (`if_not_exists`), to the counts the head had then. Expression fragments for a
 * SET clause and its values.
 */
export function unstripedSet(head: HistoryHead) {
  return {
    set: 'unstripedAll = if_not_exists(unstripedAll, :ua), unstripedOk = if_not_exists(unstripedOk, :uo), unstripedFailed = if_not_exists(unstripedFailed, :uf)',
    values: { ':ua': head.unstriped.all, ':uo': head.unstriped.ok, ':uf': head.unstriped.failed },
  }
}

/** Where the item numbered `seqAll` is, for a merchant whose head is `head`. */
export const historyItemKey = (merchantId: string, seqAll: number, head: HistoryHead) =>
  keys.historyItem(merchantId, seqAll, historyStripe(seqAll, head.unstriped.all))

/** The stripe of a status partition's number (SUCCESSFUL and REVERSED share the seqOk space). */
export const statusStripe = (status: string, seq: number, head: HistoryHead) =>
  historyStripe(seq, status === 'FAILED' ? head.unstriped.failed : head.unstriped.ok)

/**
 * The partition keys of the item numbered `seqAll` (and `seqInStatus` in its status's space): its
 * stripe of the ALL list, of its status partition and of the time index. Writers and reconciliation
 * both place items by this.
 */
export function historyPartitions(
  merchantId: string,
  seqAll: number,
  status: string,
  seqInStatus: number,
  head: HistoryHead,
) {
  const allStripe = historyStripe(seqAll, head.unstriped.all)
  return {
    pk: keys.historyListPartition(merchantId, allStripe),
    gsi1pk: keys.historyStatusPartition(merchantId, status, statusStripe(status, seqInStatus, head)),
    gsi2pk: keys.historyTimePartition(merchantId, allStripe),
  }
}

/** The business fields of one history record. */
export interface HistoryFacts {
  merchantId: string
  amountKobo: number
  merchantReference: string
  providerReference: string
  accountNumber: string
  /** SUCCESSFUL or FAILED at creation. */
  status: 'SUCCESSFUL' | 'FAILED'
  responseCode: string
  /** Lagos local date-time with milliseconds, no zone. */
  createdAt: string
  productCode: string
  /** The Area B request it came from (absent for seeded demo data). */
  switchClientId?: string
  requestId?: string
}

export interface HistoryItem extends Omit<HistoryFacts, 'status'> {
  /** The current status: an item created SUCCESSFUL becomes REVERSED when reversed. */
  status: HistoryStatus
  pk: string
  sk: string
  gsi1pk: string
  gsi1sk: string
  gsi2pk: string
  gsi2sk: string
  gsi3pk: string
  gsi3sk: string
  entity: 'MERCHANT_TXN'
  type: 'DEBIT'
  seqAll: number
  /** seqOk for items created SUCCESSFUL, seqFailed for FAILED ones. */
  seqOk?: number
  seqFailed?: number
  /** The head's ok and failed counts just after this item: date ranges read positions from these. */
  okCount: number
  failedCount: number
  completedAt: string | null
  currency: 'NGN'
}

/** The numbers a new item takes from the head, and the head after it. */
export function allocate(head: HistoryHead, status: 'SUCCESSFUL' | 'FAILED') {
  const next: HistoryHead = {
    ...head,
    all: head.all + 1,
    ok: head.ok + (status === 'SUCCESSFUL' ? 1 : 0),
    failed: head.failed + (status === 'FAILED' ? 1 : 0),
  }
  return { next, seqAll: next.all, seqInStatus: status === 'SUCCESSFUL' ? next.ok : next.failed }
}

/**
 * The item for a transaction given the head after its allocation and its number in its merchant
 * reference (`referenceRank`, from the reference's counter). `status` is REVERSED only for seeded data
 * that is written already reversed (a live reversal updates the item instead).
 */
export function historyItem(
  facts: HistoryFacts,
  next: HistoryHead,
  referenceRank: number,
  status: HistoryStatus = facts.status,
): HistoryItem {
  const seqAll = next.all
  const seqInStatus = facts.status === 'SUCCESSFUL' ? next.ok : next.failed
  return {
    ...historyItemKey(facts.merchantId, seqAll, next),
    ...keys.historyByStatus(
      facts.merchantId,
      status,
      seqInStatus,
      statusStripe(facts.status, seqInStatus, next),
    ),
    ...historyTimeKey(facts.merchantId, facts.createdAt, seqAll, next),
    ...keys.historyByReference(facts.merchantId, facts.merchantReference, referenceRank),
    entity: 'MERCHANT_TXN',
    ...facts,
    status,
    type: 'DEBIT',
    currency: 'NGN',
    seqAll,
    ...(facts.status === 'SUCCESSFUL' ? { seqOk: seqInStatus } : { seqFailed: seqInStatus }),
    okCount: next.ok,
    failedCount: next.failed,
    completedAt: facts.createdAt,
  }
}

/** The time index entry of the item numbered `seqAll`, indexed at `atLocal`. */
export const historyTimeKey = (merchantId: string, atLocal: string, seqAll: number, head: HistoryHead) =>
  keys.historyByTime(merchantId, atLocal, seqAll, historyStripe(seqAll, head.unstriped.all))

/** The providerReference -> history item pointer, written with the item. */
export function providerReferenceItem(facts: HistoryFacts, seqAll: number) {
  return {
    ...keys.providerReference(facts.providerReference),
    entity: 'PROVIDER_REFERENCE',
    merchantId: facts.merchantId,
    seqAll,
    ...(facts.switchClientId ? { switchClientId: facts.switchClientId, requestId: facts.requestId } : {}),
  }
}

/** A merchant reference's counters (`keys.historyReferenceHead`). */
export interface ReferenceHead {
  /** Items numbered in the reference (`R#1`...`R#all`), which is also the next rank minus one. */
  all: number
  /** Items recorded before the numbering and ranked by the backfill (`L#1`...`L#legacy`); absent before it ran. */
  legacy?: number
}

export function referenceHeadOf(item: Record<string, unknown> | undefined): ReferenceHead {
  const all = typeof item?.all === 'number' ? item.all : 0
  return typeof item?.legacy === 'number' ? { all, legacy: item.legacy } : { all }
}

/**
 * The update that sets a reference's counter from `previous` to `next` ranked items, conditional on it
 * still being `previous` (without TableName): the indexer's and the seeder's.
 */
export function referenceHeadUpdate(merchantId: string, reference: string, previous: number, next: number) {
  return {
    Key: keys.historyReferenceHead(merchantId, reference),
    UpdateExpression: 'SET #all = :next, entity = :entity, merchantId = :merchant, merchantReference = :ref',
    // The backfill may have made the item (with `legacy` only): no `all` is the same as 0.
    ConditionExpression: previous === 0 ? 'attribute_not_exists(#all)' : '#all = :previous',
    ExpressionAttributeNames: { '#all': 'all' },
    ExpressionAttributeValues: {
      ':next': next,
      ':entity': 'MERCHANT_HISTORY_REFERENCE',
      ':merchant': merchantId,
      ':ref': reference,
      ...(previous === 0 ? {} : { ':previous': previous }),
    },
  }
}

/**
 * One line of the merchant's statement (CONTRACT 20): a money movement on the merchant's
 * collections, booked once and never rewritten. A successful transfer is a credit; its reversal is a
 * debit of its own, booked when the reversal happened (the transfer's entry stays as it was).
 */
export interface StatementEntry {
  entity: 'MERCHANT_STATEMENT_ENTRY'
  merchantId: string
  /** 1, 2, 3... per merchant, in booking order. */
  seq: number
  kind: 'TRANSFER' | 'REVERSAL'
  /** Signed kobo: positive for a credit (transfer in), negative for a debit (reversal). */
  amountKobo: number
  /** The balance after this entry, kobo. */
  balanceAfterKobo: number
  /** When it was booked: Lagos local, never before the entry booked before it. */
  bookedAt: string
  /** When the ledger did it (the transfer's createdAt or the reversal's reversedAt), Lagos local. */
  valueAt: string
  providerReference: string
  merchantReference: string
  accountNumber: string
  productCode: string
  currency: 'NGN'
}

/** The head's statement part after an entry of `amountKobo` that happened at `atMs`, and the entry's booking. */
export function bookEntry(head: HistoryHead, amountKobo: number, atMs: number) {
  const bookedMs = Math.max(atMs, head.entryAtMs)
  const next: HistoryHead = {
    ...head,
    entries: head.entries + 1,
    balanceKobo: head.balanceKobo + amountKobo,
    entryAtMs: bookedMs,
  }
  return { next, bookedMs }
}

/** The head update's part that keeps the statement counters (SET fragment and values). */
export function entriesSet(next: HistoryHead) {
  return {
    set: 'entries = :entries, balanceKobo = :balance, entryAtMs = :entryAt',
    values: { ':entries': next.entries, ':balance': next.balanceKobo, ':entryAt': next.entryAtMs },
  }
}

/**
 * The condition that no other writer booked an entry since `previous` was read (a head from before
 * statements has no `entries`, which counts as 0).
 */
export function entriesCondition(previous: HistoryHead) {
  return {
    condition:
      previous.entries === 0
        ? '(attribute_not_exists(entries) OR entries = :entriesBefore)'
        : 'entries = :entriesBefore',
    values: { ':entriesBefore': previous.entries },
  }
}

export const reversalBlockOf = (seqOk: number) => Math.floor(seqOk / REVERSAL_BLOCK_SIZE)

/**
 * Counts and kobo to ADD to one day's totals (`keys.historyDay`): a transfer counts on the Lagos day
 * of its createdAt as it was created (successful or failed), and a reversal adds +1/+amount to
 * reversed on the day of the reversal, leaving the transfer's day as it was.
 */
export type DayChange = Partial<
  Record<
    'successfulCount' | 'successfulKobo' | 'failedCount' | 'failedKobo' | 'reversedCount' | 'reversedKobo',
    number
  >
>

/** The day's totals change for one transaction recorded with this current status. */
export function dayChangeOf(status: HistoryStatus, amountKobo: number): DayChange {
  if (status === 'FAILED') return { failedCount: 1, failedKobo: amountKobo }
  if (status === 'REVERSED') return { reversedCount: 1, reversedKobo: amountKobo }
  return { successfulCount: 1, successfulKobo: amountKobo }
}

/** Sums `change` into the day's pending change. */
export function addDayChange(days: Map<string, DayChange>, day: string, change: DayChange): void {
  const total = days.get(day) ?? {}
  for (const [name, value] of Object.entries(change) as [keyof DayChange, number][])
    total[name] = (total[name] ?? 0) + value
  days.set(day, total)
}

/** The UpdateItem (without TableName) that ADDs a change to a merchant's day totals. */
export function dayTotalsUpdate(merchantId: string, day: string, change: DayChange) {
  const names = Object.keys(change)
  return {
    Key: keys.historyDay(merchantId, day),
    UpdateExpression: `ADD ${names.map((_, i) => `#n${i} :v${i}`).join(', ')} SET entity = :entity, merchantId = :merchant, #date = :date`,
    ExpressionAttributeNames: {
      ...Object.fromEntries(names.map((name, i) => [`#n${i}`, name])),
      '#date': 'date',
    },
    ExpressionAttributeValues: {
      ...Object.fromEntries(names.map((name, i) => [`:v${i}`, change[name as keyof DayChange]])),
      ':entity': 'MERCHANT_DAY_TOTALS',
      ':merchant': merchantId,
      ':date': day,
    },
  }
}
