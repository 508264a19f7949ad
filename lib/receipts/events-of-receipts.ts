import { createHash } from 'node:crypto'
import { eventPut, type IntegrationEvent, newEvent } from '#lib/events/event.ts'
import type { EventData, EventType } from '#lib/events/schemas.ts'
import { writeIf } from '#lib/platform/db/write.ts'
import type { ReceiptRecord } from './records.ts'

/**
 * The receipt and chain events (CONTRACT 23, section 11): written by consumers, off the report path.
 * `receipt.late` and `chain.fork` by the stream consumer on new receipt items (receipt-events), so
 * reporting 1,000 receipts writes no event item inside its transactions (an event Put in each
 * receipt's transaction would add a write unit to every late or forked receipt's commit and grow the
 * transaction the report waits on); `chain.gap_overdue` and `device.silent` by the scheduled chain
 * watch (./events-chain-watch.ts).
 *
 * Each event happens once: its id is derived from what it reports (the type and the receipt, gap or
 * silence), not drawn at random, and it is put with attribute_not_exists, so a stream record handed
 * over twice, or a watch run repeating one before it, finds the event there and writes nothing.
 */

/** `evt_` + the time in base 36 (as newEventId, so the events API lists in order) + 20 hex of the fact's hash. */
export function eventIdOf(type: EventType, fact: string, at: string): string {
  const digest = createHash('sha256').update(`${type}\u0000${fact}`).digest('hex').slice(0, 20)
  return `evt_${Date.parse(at).toString(36).padStart(9, '0')}${digest}`
}

/** Puts the event once: true when it is new, false when an earlier attempt already put it. */
export async function putEventOnce<T extends EventType>(
  type: T,
  businessId: string,
  data: EventData<T>,
  at: string,
  fact: string,
): Promise<boolean> {
  const event: IntegrationEvent = { ...newEvent(type, businessId, data, at), id: eventIdOf(type, fact, at) }
  const { Put } = eventPut(event)
  return (await writeIf({ Put })).written
}

export const isReceiptItem = (
  item: Record<string, unknown>,
): item is ReceiptRecord & Record<string, unknown> => item.entity === 'RECEIPT'

/** A new receipt item's event: late when REPORTED past report_by, a fork when stored as FORK; else none. */
export async function eventOfReceipt(receipt: ReceiptRecord): Promise<void> {
  const of = { device_id: receipt.deviceId, irn: receipt.irn, hash: receipt.hash, counter: receipt.counter }
  const fact = `${receipt.deviceId}#${receipt.counter}#${receipt.hash}`
  if (receipt.status === 'REPORTED' && receipt.late)
    await putEventOnce(
      'receipt.late',
      receipt.businessId,
      { ...of, issued_at: receipt.issuedAt, report_by: receipt.reportBy, received_at: receipt.receivedAt },
      receipt.receivedAt,
      fact,
    )
  if (receipt.status === 'FORK' && receipt.forkOf)
    await putEventOnce(
      'chain.fork',
      receipt.businessId,
      { ...of, fork_of: receipt.forkOf, received_at: receipt.receivedAt },
      receipt.receivedAt,
      fact,
    )
}
