import { formatNaira } from '#lib/platform/money.ts'
import { scanPages } from '#lib/platform/db/query.ts'
import { inMode, MODES, type Mode, modeOfKey, TEST_MARK } from '#lib/platform/mode.ts'
import { type HistoryHead, headOf, historyPartitions } from '#lib/merchant-history/items.ts'
import { DAILY_TOTAL_FIELDS, type DailyTotals, dayOf, totalsOf, ZERO_TOTALS } from './daily-totals.ts'

/**
 * Reconciliation (CONTRACT section 12): proves that the ledger, the merchants' histories and their
 * daily totals agree, from one consistent scan of the table (read-only):
 * - every account: balance = opening balance + its recorded transfers (a SUCCESSFUL transfer debits,
 *   a REVERSED one debited and was credited back, a FAILED one moved nothing);
 * - every merchant: exactly one history item per ledger transfer to it, with the same amount,
 *   account, status and time, and no other item, each stored under the keys (stripes) its numbers
 *   say, where pages look for it; and every day's totals item equal to that day's transfers (created
 *   successful or failed that day) and reversals (made that day); an absent item is a day of zeros.
 * Each mode (CONTRACT section 15) is a ledger of its own: its items are checked against each other
 * only, and a test-mode difference says so in its subject.
 * `npm run cli -- ledger reconcile` and the daily scheduled function both run `reconcile()`.
 */
export interface Difference {
  /** What disagrees, e.g. `account 0123456789`, `merchant MRC0001`, `merchant MRC0001 day 2026-01-15`. */
  subject: string
  /** A sentence a person can act on, with the figures on both sides. */
  message: string
  /** Stays the same while the difference does (traffic moving balances does not change it). */
  key: string
}

export interface ReconcileReport {
  accounts: number
  merchants: number
  transfers: number
  historyItems: number
  days: number
  differences: Difference[]
}

type Item = Record<string, unknown>
type Status = 'SUCCESSFUL' | 'FAILED' | 'REVERSED'

interface Transfer {
  merchantId: string
  accountNumber: string
  amountKobo: number
  status: Status
  providerReference: string
  createdAt: string
  requestId: string
  /** A REVERSED transfer's reversal time (Lagos local). */
  reversedAt?: string
}

/** Everything the checks read, gathered in one pass over the table. */
interface Snapshot {
  accounts: Item[]
  merchants: Set<string>
  transfers: Transfer[]
  history: Item[]
  days: Item[]
  /** Each merchant's history head: which stripe each number is in. */
  heads: Map<string, HistoryHead>
}

const str = (v: unknown) => (typeof v === 'string' ? v : '')
const num = (v: unknown) => (typeof v === 'number' ? v : 0)

const emptySnapshot = (): Snapshot => ({
  accounts: [],
  merchants: new Set(),
  transfers: [],
  history: [],
  days: [],
  heads: new Map(),
})

/** The merchant id of a history partition key, without its mode's mark. */
const merchantOfPartition = (pk: unknown) => str(pk).slice('MHIST#'.length).replace(TEST_MARK, '')

/**
 * One strongly consistent parallel scan keeping only the items reconciliation looks at, each in its
 * mode's snapshot (by its key). Merchant profiles have no mode: every mode checks every merchant.
 */
async function snapshot(
  segments: number,
  progress?: (scanned: number) => void,
): Promise<Record<Mode, Snapshot>> {
  let scanned = 0
  const snapshots: Record<Mode, Snapshot> = { live: emptySnapshot(), test: emptySnapshot() }
  await Promise.all(
    Array.from({ length: segments }, async (_, segment) => {
      for await (const page of scanPages({
        ConsistentRead: true,
        Segment: segment,
        TotalSegments: segments,
        FilterExpression:
          'entity IN (:account, :merchant, :request, :txn, :head) OR (begins_with(pk, :mhist) AND begins_with(sk, :day))',
        ExpressionAttributeValues: {
          ':account': 'ACCOUNT',
          ':merchant': 'MERCHANT',
          ':request': 'BANK_REQUEST',
          ':txn': 'MERCHANT_TXN',
          ':head': 'MERCHANT_HISTORY_HEAD',
          ':mhist': 'MHIST#',
          ':day': 'DAY#',
        },
      })) {
        scanned += page.ScannedCount ?? 0
        progress?.(scanned)
        for (const item of page.Items ?? []) {
          const found = snapshots[modeOfKey(str(item.pk))]
          switch (item.entity) {
            case 'ACCOUNT':
              found.accounts.push(item)
              break
            case 'MERCHANT':
              for (const mode of MODES) snapshots[mode].merchants.add(str(item.merchantId))
              break
            case 'BANK_REQUEST':
              if (item.kind === 'TRANSFER') found.transfers.push(item as unknown as Transfer)
              break
            case 'MERCHANT_TXN':
              found.history.push(item)
              break
            case 'MERCHANT_HISTORY_HEAD':
              found.heads.set(merchantOfPartition(item.pk), headOf(item))
              break
            default:
              found.days.push(item)
          }
        }
      }
    }),
  )
  return snapshots
}

const naira = (kobo: number) => `${kobo < 0 ? '-' : ''}${formatNaira(Math.abs(kobo))}`

/** What a transfer did to its account: only a transfer that is still SUCCESSFUL kept the money. */
const debitOf = (t: Transfer) => (t.status === 'SUCCESSFUL' ? t.amountKobo : 0)

function checkAccounts(s: Snapshot): Difference[] {
  const debits = new Map<string, number>()
  for (const t of s.transfers) debits.set(t.accountNumber, (debits.get(t.accountNumber) ?? 0) + debitOf(t))
  const differences: Difference[] = []
  for (const account of s.accounts) {
    const number = str(account.accountNumber)
    const subject = `account ${number}`
    if (typeof account.openingBalanceKobo !== 'number') {
      differences.push({
        subject,
        key: `${subject}:no-opening`,
        message: `${subject}: no opening balance is recorded (opened before reconciliation existed), so its balance ${naira(num(account.balanceKobo))} cannot be proved`,
      })
      continue
    }
    const moved = -(debits.get(number) ?? 0)
    const expected = account.openingBalanceKobo + moved
    const balance = num(account.balanceKobo)
    if (balance !== expected) {
      differences.push({
        subject,
        key: `${subject}:off:${balance - expected}`,
        message: `${subject}: balance ${naira(balance)} but opening ${naira(account.openingBalanceKobo)} + transactions ${naira(moved)} = ${naira(expected)} (off by ${naira(balance - expected)})`,
      })
    }
  }
  const known = new Set(s.accounts.map((a) => str(a.accountNumber)))
  for (const number of new Set(s.transfers.map((t) => t.accountNumber))) {
    if (!known.has(number)) {
      differences.push({
        subject: `account ${number}`,
        key: `account ${number}:missing`,
        message: `account ${number}: transfers are recorded against it but the account does not exist`,
      })
    }
  }
  return differences
}

/**
 * Each item under the keys its numbers say (lib/merchant-history/items.ts): the list stripe, the status
 * partition and the time index. An item elsewhere is in the table but missing from the pages.
 */
function checkPlaces(merchantId: string, head: HistoryHead | undefined, history: Item[]): Difference[] {
  const subject = `merchant ${merchantId}`
  if (!head) return []
  return history.flatMap((item) => {
    const seqAll = num(item.seqAll)
    const seqInStatus = num(item.seqOk ?? item.seqFailed)
    const expected = historyPartitions(merchantId, seqAll, str(item.status), seqInStatus, head)
    const wrong = (Object.keys(expected) as (keyof typeof expected)[]).filter((k) => item[k] !== expected[k])
    return wrong.map((k) => ({
      subject,
      key: `${subject}:place:${str(item.providerReference)}:${k}`,
      message: `${subject}: history item ${str(item.providerReference)} (number ${seqAll}) has ${k} ${str(item[k])} but its number belongs under ${expected[k]}, so pages do not show it there`,
    }))
  })
}

function checkHistory(merchantId: string, transfers: Transfer[], history: Item[]): Difference[] {
  const subject = `merchant ${merchantId}`
  const differences: Difference[] = []
  const items = new Map<string, Item[]>()
  for (const item of history) {
    const ref = str(item.providerReference)
    items.set(ref, [...(items.get(ref) ?? []), item])
  }
  for (const t of transfers) {
    const found = items.get(t.providerReference) ?? []
    items.delete(t.providerReference)
    const what = `transfer ${t.providerReference} (requestId ${t.requestId})`
    if (found.length === 0) {
      differences.push({
        subject,
        key: `${subject}:missing:${t.providerReference}`,
        message: `${subject}: ${what} of ${naira(t.amountKobo)} is not in the history`,
      })
      continue
    }
    if (found.length > 1) {
      differences.push({
        subject,
        key: `${subject}:duplicate:${t.providerReference}`,
        message: `${subject}: ${what} is in the history ${found.length} times`,
      })
    }
    const item = found[0]!
    const wrong = (
      [
        ['amount', naira(t.amountKobo), naira(num(item.amountKobo))],
        ['status', t.status, str(item.status)],
        ['account', t.accountNumber, str(item.accountNumber)],
        // The ledger's time is the item's completedAt; its createdAt may be later (the history keeps
        // createdAt in numbering order when an indexer records transfers after newer ones).
        ['time', t.createdAt, str(item.completedAt ?? item.createdAt)],
      ] as const
    ).filter(([, ledger, shown]) => ledger !== shown)
    for (const [field, ledger, shown] of wrong) {
      differences.push({
        subject,
        key: `${subject}:${field}:${t.providerReference}:${shown}`,
        message: `${subject}: ${what} has ${field} ${ledger} in the ledger but ${shown} in the history`,
      })
    }
  }
  for (const [ref, extra] of items) {
    differences.push({
      subject,
      key: `${subject}:extra:${ref}`,
      message: `${subject}: history item ${ref} (${naira(num(extra[0]!.amountKobo))}, ${str(extra[0]!.status)}) has no transfer in the ledger${extra[0]!.requestId ? '' : ' (seeded demo data has none)'}`,
    })
  }
  return differences
}

const TOTAL_NAMES: Record<Status, ['successfulCount' | 'failedCount' | 'reversedCount', keyof DailyTotals]> =
  {
    SUCCESSFUL: ['successfulCount', 'successfulKobo'],
    FAILED: ['failedCount', 'failedKobo'],
    REVERSED: ['reversedCount', 'reversedKobo'],
  }

/**
 * Each transfer counts on the day of its history item's createdAt (the day the history's write added
 * it to), or of its own createdAt while it has no item (a missing item is reported anyway): as
 * failed, or as successful when it was created successful (a reversed one too). A reversal counts
 * as reversed on the day of its own reversedAt, so a past day's totals never change (CONTRACT 20).
 */
function checkDays(
  merchantId: string,
  transfers: Transfer[],
  history: Item[],
  dayItems: Item[],
): Difference[] {
  const historyDay = new Map(history.map((item) => [str(item.providerReference), dayOf(str(item.createdAt))]))
  const expected = new Map<string, DailyTotals>()
  for (const t of transfers) {
    const count = (day: string, status: Status) => {
      const totals = expected.get(day) ?? { ...ZERO_TOTALS }
      const [counted, amount] = TOTAL_NAMES[status]
      totals[counted] += 1
      totals[amount] += t.amountKobo
      expected.set(day, totals)
    }
    const day = historyDay.get(t.providerReference) ?? dayOf(t.createdAt)
    count(day, t.status === 'FAILED' ? 'FAILED' : 'SUCCESSFUL')
    if (t.status === 'REVERSED') count(dayOf(t.reversedAt ?? t.createdAt), 'REVERSED')
  }
  const stored = new Map(dayItems.map((item) => [str(item.sk).slice('DAY#'.length), totalsOf(item)]))
  const differences: Difference[] = []
  for (const day of [...new Set([...expected.keys(), ...stored.keys()])].sort()) {
    const want = expected.get(day) ?? ZERO_TOTALS
    const have = stored.get(day) ?? ZERO_TOTALS
    const off = DAILY_TOTAL_FIELDS.filter((field) => want[field] !== have[field])
    if (off.length === 0) continue
    const subject = `merchant ${merchantId} day ${day}`
    differences.push({
      subject,
      key: `${subject}:${off.map((f) => `${f}=${have[f]}/${want[f]}`).join(',')}`,
      message: `${subject}: daily totals ${off.map((f) => `${f} ${have[f]}`).join(', ')} but the ledger's transfers give ${off.map((f) => `${f} ${want[f]}`).join(', ')}`,
    })
  }
  return differences
}

function check(s: Snapshot): ReconcileReport {
  const byMerchant = <T>(list: T[], idOf: (x: T) => string) => {
    const map = new Map<string, T[]>()
    for (const x of list) map.set(idOf(x), [...(map.get(idOf(x)) ?? []), x])
    return map
  }
  const transfers = byMerchant(s.transfers, (t) => t.merchantId)
  const history = byMerchant(s.history, (i) => str(i.merchantId))
  const days = byMerchant(s.days, (i) => merchantOfPartition(i.pk))
  const merchants = [
    ...new Set([...s.merchants, ...transfers.keys(), ...history.keys(), ...days.keys()]),
  ].sort()
  const differences = [
    ...checkAccounts(s),
    ...merchants.flatMap((m) => [
      ...checkHistory(m, transfers.get(m) ?? [], history.get(m) ?? []),
      ...checkPlaces(m, s.heads.get(m), history.get(m) ?? []),
      ...checkDays(m, transfers.get(m) ?? [], history.get(m) ?? [], days.get(m) ?? []),
    ]),
  ]
  return {
    accounts: s.accounts.length,
    merchants: merchants.length,
    transfers: s.transfers.length,
    historyItems: s.history.length,
    days: s.days.length,
    differences,
  }
}

/** Each mode checked in its own keys (lib/platform/mode.ts), the counts summed and the differences listed. */
function checkModes(snapshots: Record<Mode, Snapshot>): ReconcileReport {
  const reports = MODES.map((mode) => {
    const report = inMode(mode, () => check(snapshots[mode]))
    if (mode === 'live') return report
    const mark = (d: Difference): Difference => ({
      subject: `test-mode ${d.subject}`,
      key: `test:${d.key}`,
      message: `test mode: ${d.message}`,
    })
    return { ...report, differences: report.differences.map(mark) }
  })
  const live = reports[0]!
  const test = reports[1]!
  return {
    accounts: live.accounts + test.accounts,
    merchants: live.merchants,
    transfers: live.transfers + test.transfers,
    historyItems: live.historyItems + test.historyItems,
    days: live.days + test.days,
    differences: [...live.differences, ...test.differences],
  }
}

export interface ReconcileOptions {
  /** Parallel scan segments (more for big tables in AWS). */
  segments?: number
  /**
   * The history and daily totals may trail the ledger by seconds, and a scan is not a snapshot: a
   * transfer committing mid-scan can look like a difference. So a run that finds differences waits
   * this long, checks again, and reports only the differences found both times.
   */
  settleMs?: number
  /** Told the items scanned so far after each page, and when a second check is coming (the CLI's progress). */
  progress?: { scanned(items: number): void; settling(differences: number, ms: number): void }
}

export async function reconcile({
  segments = 4,
  settleMs = 3_000,
  progress,
}: ReconcileOptions = {}): Promise<ReconcileReport> {
  const first = checkModes(await snapshot(segments, progress?.scanned))
  if (first.differences.length === 0) return first
  progress?.settling(first.differences.length, settleMs)
  await new Promise((resolve) => setTimeout(resolve, settleMs))
  const second = checkModes(await snapshot(segments, progress?.scanned))
  const before = new Set(first.differences.map((d) => d.key))
  return { ...second, differences: second.differences.filter((d) => before.has(d.key)) }
}
