import { itemAt, readMany } from '#lib/platform/db/batch.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { queryAll } from '#lib/platform/db/query.ts'
import { writeIf } from '#lib/platform/db/write.ts'
import { lagosDay } from '#lib/platform/time.ts'
import { inParallel } from './in-parallel.ts'
import type { ReceiptRecord } from './records.ts'

/**
 * A device's receipts are keyed by counter, and the compliance report asks by issue day: for each
 * Lagos day a device issued receipts on, one small item (`D#<day>` in the device's partition) keeps
 * the lowest and the highest counter of that day's receipts. A report of days reads those items and
 * then only the receipts between the range's lowest and highest counter, not every receipt the device
 * ever reported (at 1,000 receipts a till a day, a year of them would be about 70,000 read units and
 * more than a function's 10 s).
 *
 * The bounds only ever widen, and they are written before the receipts they cover are decided: a
 * stored receipt is always inside its day's bounds; a receipt that then fails or is refused only leaves
 * them wider than they need be, which costs reads, never a miss. Tills issue in counter order, so a
 * day's counters are one run; a till clock set back mixes days inside the run, and the report keeps
 * each receipt by its own issue day all the same.
 *
 * Receipts stored before these items existed have none: a chain item carries `dayBounds` only when
 * it was created by code that writes them (./chain-store.ts), and a device without it is reported from
 * all its receipts, as before.
 */

type Dated = Pick<ReceiptRecord, 'deviceId' | 'counter' | 'issuedAt'>

/** Each (device, day)'s lowest and highest counter among these receipts. */
export function boundsOf(receipts: Dated[]): { deviceId: string; day: string; lo: number; hi: number }[] {
  const byDay = new Map<string, { deviceId: string; day: string; lo: number; hi: number }>()
  for (const r of receipts) {
    const day = lagosDay(r.issuedAt)
    const id = `${r.deviceId} ${day}`
    const seen = byDay.get(id)
    if (!seen) byDay.set(id, { deviceId: r.deviceId, day, lo: r.counter, hi: r.counter })
    else {
      seen.lo = Math.min(seen.lo, r.counter)
      seen.hi = Math.max(seen.hi, r.counter)
    }
  }
  return [...byDay.values()]
}

type DayBounds = ReturnType<typeof boundsOf>[number]

/** The bounds that must move to cover `bounds`, given what each day's item holds (undefined: none). */
export function boundsToMove(
  bounds: DayBounds[],
  heldOf: (b: DayBounds) => { lo?: number; hi?: number } | undefined,
): { deviceId: string; day: string; name: 'lo' | 'hi'; value: number; beyond: '>' | '<' }[] {
  return bounds.flatMap((b) => {
    const held = heldOf(b)
    const { deviceId, day } = b
    return [
      ...(typeof held?.lo === 'number' && held.lo <= b.lo
        ? []
        : [{ deviceId, day, name: 'lo' as const, value: b.lo, beyond: '>' as const }]),
      ...(typeof held?.hi === 'number' && held.hi >= b.hi
        ? []
        : [{ deviceId, day, name: 'hi' as const, value: b.hi, beyond: '<' as const }]),
    ]
  })
}

/**
 * Widens each day's bounds to cover these receipts. The days' items are read first (one consistent
 * BatchGetItem for the request) and only a bound that must move is written: a conditional SET of
 * `lo` or `hi`, refused when another request widened it further meanwhile (bounds only widen, so an
 * item that covered a counter when read covers it for good). A till reporting in counter order moves
 * its day's `hi` once a request.
 */
export async function keepDayBounds(receipts: Dated[]): Promise<void> {
  const bounds = boundsOf(receipts)
  const found = await readMany(bounds.map((b) => keys.receiptDay(b.deviceId, b.day)))
  const writes = boundsToMove(bounds, (b) =>
    itemAt<{ lo?: number; hi?: number }>(found, keys.receiptDay(b.deviceId, b.day)),
  )
  await inParallel(writes, 16, async ({ deviceId, day, name, value, beyond }) => {
    await writeIf({
      Update: {
        Key: keys.receiptDay(deviceId, day),
        UpdateExpression: 'SET #b = :v, entity = :entity',
        ConditionExpression: `attribute_not_exists(#b) OR #b ${beyond} :v`,
        ExpressionAttributeNames: { '#b': name },
        ExpressionAttributeValues: { ':v': value, ':entity': 'RECEIPT_DAY' },
      },
    })
  })
}

/**
 * The counters a report of these days must read for one device: from the lowest `lo` to the highest
 * `hi` of the days' items; undefined when the device issued nothing on them. One Query of at most 31
 * small items (a report's range).
 */
export async function countersOfDays(
  deviceId: string,
  range: { from: string; to: string },
): Promise<{ lo: number; hi: number } | undefined> {
  const days = await queryAll<{ lo?: number; hi?: number }>({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: {
      ':pk': keys.receiptPartition(deviceId),
      ':from': keys.receiptDaySk(range.from),
      ':to': keys.receiptDaySk(range.to),
    },
  })
  const los = days.flatMap((d) => (typeof d.lo === 'number' ? [d.lo] : []))
  const his = days.flatMap((d) => (typeof d.hi === 'number' ? [d.hi] : []))
  if (!los.length || !his.length) return undefined
  return { lo: Math.min(...los), hi: Math.max(...his) }
}
