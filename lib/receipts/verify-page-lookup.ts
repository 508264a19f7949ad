import type { ReceiptVerifyFields } from '#client/receipts/verify-url.ts'
import { itemAt, readMany } from '#lib/platform/db/batch.ts'
import { readRecord, recordOf } from '#lib/platform/db/items.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { currentMode, inMode, type Mode } from '#lib/platform/mode.ts'
import type { DeviceRecord, DeviceStatus, ReceiptRecord } from './records.ts'

/**
 * What a receipt's QR URL can prove (CONTRACT 23), for the public verification page and verify-qr.
 *
 * The device signs the receipt's RFC 8785 bytes (client/receipts/crypto.ts receiptBytes), not its
 * hash, and the QR carries only the hash and the signature: the signature cannot be checked from the
 * QR alone. So the receipt is genuine when the device's chain holds a reported receipt with this
 * hash, at this counter, for this IRN, whose signature is the QR's: the service checked that
 * signature against the device's registered key over the receipt's bytes when it was reported
 * (lib/receipts/report.ts; a receipt whose signature fails is stored nowhere). Before it is reported
 * nothing proves it, and the page says so plainly rather than guess.
 *
 * Cost: one GetItem (the device by its id, which carries its mode: the page has no credential) and
 * one BatchGetItem of two keys in the device's mode (the counter's first receipt and a fork with this
 * hash); nothing is written, so a public page gives no one a way to make the service write.
 */

/** The device by its id alone (`DEVICEID#`): written with the device, revoked with it. */
export interface DeviceById {
  entity: 'DEVICE_BY_ID'
  deviceId: string
  businessId: string
  mode: Mode
  status: DeviceStatus
  registeredAt: string
  revokedAt?: string
}

/** The item registration puts beside the device (lib/receipts/devices.ts), in the same transaction. */
export function deviceByIdItem(device: DeviceRecord) {
  const item: DeviceById = {
    entity: 'DEVICE_BY_ID',
    deviceId: device.deviceId,
    businessId: device.businessId,
    mode: currentMode(),
    status: device.status,
    registeredAt: device.registeredAt,
  }
  return { ...keys.deviceById(device.deviceId), ...item }
}

/**
 * - GENUINE: reported, and the QR's hash, signature and IRN are the reported receipt's;
 * - NOT_GENUINE: no device has this id, or the reported receipt with this hash has another
 *   signature or IRN (the QR was altered or made up);
 * - NOT_MATCHING: the device reported another receipt under this counter, none with this hash;
 * - NOT_YET_REPORTED: nothing is reported under this counter yet.
 */
export type ReceiptVerdict = 'GENUINE' | 'NOT_GENUINE' | 'NOT_MATCHING' | 'NOT_YET_REPORTED'

export interface ReceiptCheck {
  verdict: ReceiptVerdict
  mode: Mode
  irn: string
  device_id: string
  counter: number
  hash: string
  /** Absent when no device has this id. */
  device?: {
    status: DeviceStatus
    revoked_at?: string
    /** ACTIVE when the receipt was signed (a reported receipt's issued_at), or REVOKED if after revoked_at. */
    status_at_issue?: DeviceStatus
  }
  issued_at?: string
  /** When the service received it (the business's test clock in test mode), and whether past report_by. */
  reported_at?: string
  late?: boolean
  /** REPORTED, FORK (another receipt holds its counter) or REJECTED (its content broke the invoice rules). */
  report_status?: ReceiptRecord['status']
}

/** Reads the device by its id, and in the device's mode what its chain holds at the counter. */
export async function checkReceipt(fields: ReceiptVerifyFields, onlyMode?: Mode): Promise<ReceiptCheck> {
  const base = { irn: fields.irn, device_id: fields.device_id, counter: fields.counter, hash: fields.hash }
  const device = await readRecord<DeviceById>(keys.deviceById(fields.device_id))
  // verify-qr answers in its caller's mode only (CONTRACT 18): another mode's device is not one it knows.
  if (!device || (onlyMode && device.mode !== onlyMode))
    return { ...base, verdict: 'NOT_GENUINE', mode: onlyMode ?? 'live' }
  return inMode(device.mode, async () => {
    const first = keys.receipt(fields.device_id, fields.counter)
    const fork = keys.receiptFork(fields.device_id, fields.counter, fields.hash)
    const found = await readMany([first, fork])
    const atCounter = itemAt<Record<string, unknown>>(found, first)
    const forked = itemAt<Record<string, unknown>>(found, fork)
    const held = atCounter ? recordOf<ReceiptRecord>(atCounter) : undefined
    const record = held?.hash === fields.hash ? held : forked ? recordOf<ReceiptRecord>(forked) : undefined
    const deviceView = {
      status: device.status,
      ...(device.revokedAt ? { revoked_at: device.revokedAt } : {}),
    }
    if (!record)
      return {
        ...base,
        mode: device.mode,
        device: deviceView,
        verdict: held ? 'NOT_MATCHING' : 'NOT_YET_REPORTED',
      }
    // A QR that does not match learns nothing of the stored receipt (the times are for its holder).
    if (record.signature !== fields.signature || record.irn !== fields.irn)
      return { ...base, mode: device.mode, device: deviceView, verdict: 'NOT_GENUINE' }
    const revokedBefore = device.revokedAt !== undefined && device.revokedAt <= record.issuedAt
    return {
      ...base,
      mode: device.mode,
      verdict: 'GENUINE',
      device: { ...deviceView, status_at_issue: revokedBefore ? 'REVOKED' : 'ACTIVE' },
      issued_at: record.issuedAt,
      reported_at: record.receivedAt,
      late: record.late,
      report_status: record.status,
    }
  })
}
