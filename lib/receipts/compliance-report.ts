import { Decimal } from 'decimal.js'
import { recordOf } from '#lib/platform/db/items.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { queryAll } from '#lib/platform/db/query.ts'
import { writeIf } from '#lib/platform/db/write.ts'
import { unpackValue } from '#lib/invoice/packed-json.ts'
import { invalid } from '#lib/platform/errors.ts'
import { csvText } from '#lib/platform/text/csv.ts'
import { lagosDay } from '#lib/platform/time.ts'
import { chainView } from './chain.ts'
import { readChain } from './chain-store.ts'
import { inParallel } from './in-parallel.ts'
import type { DeviceRecord, ReceiptRecord, ReceiptResult } from './records.ts'
import { serverNowMs } from './server-time.ts'

/**
 * GET /api/v1/compliance/report (CONTRACT 23): per device and in total, for a range of issue days in
 * Lagos time (at most 31): receipts reported, on time, late, duplicates, forks, rejected, gaps open
 * and overdue, and the payable and tax amounts reported, with the time it was computed (the server's
 * time: the test clock in test mode).
 *
 * What is counted, and why:
 * - reported / on time / late / forks / rejected: the device's stored receipts by their issued_at
 *   (`N#` items: REPORTED, or REJECTED for their content; `F#` items: FORK). A receipt refused for its
 *   signature, an unknown or a revoked device is stored nowhere and counted nowhere: nothing proves
 *   the device issued it, so it is no part of the device's record.
 * - duplicates: a resent receipt is not stored again; the report path ADDs one to the first receipt's
 *   `duplicates` (countDuplicates below), so it is counted on the issue day of the receipt it repeats.
 * - gaps: the chain's gaps as they stand now (./chain.ts chainView), those whose next receipt was
 *   issued in the range; overdue 24 h after that receipt's issued_at.
 * - amounts: each REPORTED receipt's payable amount and tax, from its stored body, summed exactly.
 * Cost: one Query of the business's devices, and per device one Query of its receipt items and one
 * GetItem of its chain: every receipt item of the device is read (items are keyed by counter, not by
 * issue day), so a report reads what the devices hold. An ADMIN call, thrown at the admin throttle.
 */

export const MAX_REPORT_DAYS = 31
const DAY = /^\d{4}-\d{2}-\d{2}$/

export interface ComplianceCounts {
  reported: number
  on_time: number
  late: number
  duplicates: number
  forks: number
  rejected: number
  gaps_open: number
  gaps_overdue: number
  payable_amount: string
  tax_amount: string
}

const zero = (): ComplianceCounts => ({
  reported: 0,
  on_time: 0,
  late: 0,
  duplicates: 0,
  forks: 0,
  rejected: 0,
  gaps_open: 0,
  gaps_overdue: 0,
  payable_amount: '0.00',
  tax_amount: '0.00',
})

const badRange = (path: string, message: string) =>
  invalid([{ path: `query/${path}`, code: 'COMPLIANCE_RANGE', message }], 'The report range is refused')

/** from and to as Lagos days, checked: real dates, from <= to, at most MAX_REPORT_DAYS. */
export function reportRange(from: string, to: string): { from: string; to: string } {
  for (const [path, day] of [
    ['from', from],
    ['to', to],
  ] as const) {
    if (
      !DAY.test(day) ||
      Number.isNaN(Date.parse(`${day}T00:00:00Z`)) ||
      new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) !== day
    )
      throw badRange(path, `${path} must be an issue day in Lagos time, YYYY-MM-DD (e.g. 2026-01-31)`)
  }
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1
  if (days < 1) throw badRange('to', 'to must be the same day as from or later')
  if (days > MAX_REPORT_DAYS)
    throw badRange(
      'to',
      `A report covers at most ${MAX_REPORT_DAYS} issue days: split the range into shorter ones`,
    )
  return { from, to }
}

/** The payable and tax amounts of a receipt's stored body (the invoice as the device signed it). */
function amountsOf(record: ReceiptRecord): { payable: Decimal; tax: Decimal } {
  try {
    const body = unpackValue<{
      legal_monetary_total?: { payable_amount?: unknown }
      tax_total?: unknown
    } | null>(record.bodyGzip)
    const payable = new Decimal(String(body?.legal_monetary_total?.payable_amount ?? 0))
    const tax = (Array.isArray(body?.tax_total) ? body.tax_total : []).reduce(
      (sum: Decimal, t: { tax_amount?: unknown }) => sum.plus(new Decimal(String(t?.tax_amount ?? 0))),
      new Decimal(0),
    )
    return { payable, tax }
  } catch {
    return { payable: new Decimal(0), tax: new Decimal(0) }
  }
}

async function deviceCounts(deviceId: string, range: { from: string; to: string }, nowMs: number) {
  const inRange = (iso: string) => {
    const day = lagosDay(iso)
    return range.from <= day && day <= range.to
  }
  const [items, chain] = await Promise.all([
    queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :n)',
      ExpressionAttributeValues: { ':pk': keys.receiptPartition(deviceId), ':n': 'N#' },
    }),
    readChain(deviceId),
  ])
  const counts = zero()
  let payable = new Decimal(0)
  let tax = new Decimal(0)
  for (const item of items) {
    const receipt = recordOf<ReceiptRecord & { duplicates?: number }>(item)
    if (receipt.entity !== 'RECEIPT' || !inRange(receipt.issuedAt)) continue
    counts.duplicates += receipt.duplicates ?? 0
    if (receipt.status === 'FORK') counts.forks++
    else if (receipt.status === 'REJECTED') counts.rejected++
    else {
      counts.reported++
      if (receipt.late) counts.late++
      else counts.on_time++
      const amounts = amountsOf(receipt)
      payable = payable.plus(amounts.payable)
      tax = tax.plus(amounts.tax)
    }
  }
  const view = chainView(chain, nowMs)
  for (const gap of view.gaps) {
    const after = chain.runs.find((r) => r.from === gap.to + 1)
    if (!after || !inRange(after.firstIssuedAt)) continue
    counts.gaps_open++
    if (gap.overdue) counts.gaps_overdue++
  }
  return { ...counts, payable_amount: payable.toFixed(2), tax_amount: tax.toFixed(2) }
}

const COUNTED = [
  'reported',
  'on_time',
  'late',
  'duplicates',
  'forks',
  'rejected',
  'gaps_open',
  'gaps_overdue',
] as const

export async function complianceReport(businessId: string, range: { from: string; to: string }) {
  const nowMs = await serverNowMs(businessId)
  const devices = (
    await queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :dev)',
      ExpressionAttributeValues: { ':pk': keys.devicePartition(businessId), ':dev': keys.deviceSkPrefix },
    })
  ).map((item) => recordOf<DeviceRecord>(item))
  const rows: ({ device_id: string; name: string; status: string } & ComplianceCounts)[] = new Array(
    devices.length,
  )
  await inParallel(
    devices.map((device, i) => [device, i] as const),
    8,
    async ([device, i]) => {
      rows[i] = {
        device_id: device.deviceId,
        name: device.name,
        status: device.status,
        ...(await deviceCounts(device.deviceId, range, nowMs)),
      }
    },
  )
  const total = zero()
  for (const row of rows) for (const name of COUNTED) total[name] += row[name]
  total.payable_amount = rows.reduce((s, r) => s.plus(r.payable_amount), new Decimal(0)).toFixed(2)
  total.tax_amount = rows.reduce((s, r) => s.plus(r.tax_amount), new Decimal(0)).toFixed(2)
  return { from: range.from, to: range.to, computed_at: new Date(nowMs).toISOString(), devices: rows, total }
}

export const COMPLIANCE_CSV_COLUMNS = [
  'device_id',
  'name',
  'status',
  ...COUNTED,
  'payable_amount',
  'tax_amount',
] as const

/**
 * The report as CSV by the service's one writer (CONTRACT 18: quoting, and a device name starting with
 * `=` neutralised): one row per device, then a `TOTAL` row; the range and the computation time are in
 * the header's Content-Disposition and in the reply's headers, not in rows a spreadsheet would sum.
 */
export function complianceCsv(report: Awaited<ReturnType<typeof complianceReport>>): string {
  const cells = (r: ComplianceCounts) => [...COUNTED.map((n) => String(r[n])), r.payable_amount, r.tax_amount]
  return csvText(
    [
      ...report.devices.map((d) => [d.device_id, d.name, d.status, ...cells(d)]),
      ['TOTAL', '', '', ...cells(report.total)],
    ],
    { columns: COMPLIANCE_CSV_COLUMNS },
  )
}

/**
 * Counts resends: each DUPLICATE of a request adds one to the receipt it repeats (the `N#` item, or
 * the `F#` item of a fork), which the report counts on that receipt's issue day. One UpdateItem per
 * duplicate, made only when a till resends.
 */
export async function countDuplicates(
  reported: { record: Pick<ReceiptRecord, 'deviceId' | 'counter'>; result: ReceiptResult }[],
): Promise<void> {
  const dups = reported.filter((r) => r.result.status === 'DUPLICATE' && r.result.duplicate_of)
  await inParallel(dups, 16, async ({ record, result }) => {
    const key =
      result.first?.status === 'FORK'
        ? keys.receiptFork(record.deviceId, record.counter, result.duplicate_of!)
        : keys.receipt(record.deviceId, record.counter)
    await writeIf({
      Update: {
        Key: key,
        UpdateExpression: 'ADD duplicates :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':one': 1 },
      },
    })
  })
}
