import { packValue } from '#lib/invoice/packed-json.ts'
import { recordOf } from '#lib/platform/db/items.ts'
import { itemAt, readMany } from '#lib/platform/db/batch.ts'
import { tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import type { TransactItem } from '#lib/platform/db/transact.ts'
import { transact } from '#lib/platform/db/transact.ts'
import { writeIf } from '#lib/platform/db/write.ts'
import { readRecord } from '#lib/platform/db/items.ts'
import type { PrevGuard, ReceiptRecord } from './records.ts'

/**
 * The writes and reads of receipt items (./records.ts): each a conditional write on a key of the
 * receipt's own device, so a device's counters and links are claimed once, whoever asks first.
 */

/** The receipt as received, packed for its item (lib/invoice/packed-json.ts). */
export const bodyOf = (receipt: unknown) => packValue(receipt)

/** The first receipt at its counter: the Put that claims the counter. */
export function slotPut(record: ReceiptRecord): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...keys.receipt(record.deviceId, record.counter), ...record },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  }
}

/** The guard that says which receipt first named `prevHash`. */
export function prevGuardPut(record: ReceiptRecord): TransactItem {
  const guard: PrevGuard = { entity: 'RECEIPT_PREV', counter: record.counter, hash: record.hash }
  return {
    Put: {
      TableName: tableName(),
      Item: { ...keys.receiptPrevGuard(record.deviceId, record.prevHash), ...guard },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  }
}

/**
 * Stores a receipt that keeps its counter without an invoice (REJECTED for its content): its counter
 * and its link together or neither. False when either was taken first.
 */
export async function claimWithoutInvoice(record: ReceiptRecord): Promise<boolean> {
  const outcome = await transact({ slot: slotPut(record), guard: prevGuardPut(record) })
  return outcome.ok
}

/** Stores a FORK beside the receipt it forks; false when this very receipt is stored there already. */
export async function storeFork(record: ReceiptRecord): Promise<boolean> {
  const written = await writeIf({
    Put: {
      Item: { ...keys.receiptFork(record.deviceId, record.counter, record.hash), ...record },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  })
  return written.written
}

export const readFork = (deviceId: string, counter: number, hash: string) =>
  readRecord<ReceiptRecord>(keys.receiptFork(deviceId, counter, hash), { consistent: true })

/** The receipts already held at these devices' counters, by `<device>#<counter>` (consistent reads). */
export async function slotsHeld(
  wanted: { deviceId: string; counter: number }[],
): Promise<Map<string, ReceiptRecord>> {
  const found = await readMany(wanted.map((w) => keys.receipt(w.deviceId, w.counter)))
  const held = new Map<string, ReceiptRecord>()
  for (const w of wanted) {
    const item = itemAt<Record<string, unknown>>(found, keys.receipt(w.deviceId, w.counter))
    if (item) held.set(slotId(w.deviceId, w.counter), recordOf<ReceiptRecord>(item))
  }
  return held
}

export const slotId = (deviceId: string, counter: number) => `${deviceId}#${counter}`

/** What holds a receipt's counter and its prev_hash now, read to say why its claim failed. */
export async function claimants(record: Pick<ReceiptRecord, 'deviceId' | 'counter' | 'prevHash'>) {
  const slotKey = keys.receipt(record.deviceId, record.counter)
  const guardKey = keys.receiptPrevGuard(record.deviceId, record.prevHash)
  const found = await readMany([slotKey, guardKey])
  const slot = itemAt<Record<string, unknown>>(found, slotKey)
  const guard = itemAt<Record<string, unknown>>(found, guardKey)
  return {
    slot: slot ? recordOf<ReceiptRecord>(slot) : undefined,
    guard: guard ? recordOf<PrevGuard>(guard) : undefined,
  }
}
