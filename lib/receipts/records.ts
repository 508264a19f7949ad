import type { Problem } from '#lib/platform/errors.ts'

/**
 * The stored records of B2C devices and receipts (CONTRACT 23). Every key is built in
 * lib/platform/db/keys.ts, every key in the caller's mode (`scoped`): test devices and receipts
 * never meet live ones.
 *
 * A business's devices, one small partition `DEVICE#<business>` (at most 100 active, so it is read
 * whole when listed):
 * - `DEV#<device_id>`  DeviceRecord. Written once at registration; revocation sets status and revokedAt.
 * - `COUNT`           `{ active }`: the active devices, ADDed in the registration and revocation
 *                     transactions under the condition `active < 100`.
 * - `JWK#<thumbprint>` `{ deviceId }`: the RFC 7638 thumbprint of a registered key, put with
 *                     attribute_not_exists in the registration transaction (the same key twice is 409).
 *                     Kept after a revocation: a revoked key is not registered again.
 *
 * One device's receipts, one partition `RCPT#<device_id>` per device (a business's tills never queue
 * behind one another, and a device writes a few receipts a minute):
 * - `N#<counter, 12 digits>`  ReceiptRecord: the first receipt received at that counter (REPORTED or
 *                     REJECTED for its content: a signed receipt keeps its counter). Put with
 *                     attribute_not_exists; a byte-identical receipt again finds it by its counter and
 *                     hash (DUPLICATE, answered with `result`, for as long as the item is kept).
 * - `N#<counter>#F#<hash>` ReceiptRecord with status FORK: another receipt at a counter already held,
 *                     or naming a prev_hash already named (`forkOf` is the receipt it forks from).
 * - `P#<prev_hash>`   PrevGuard: the receipt that first named this prev_hash (counter 1 names the
 *                     genesis hash), put with the receipt, so two receipts naming one link are a FORK.
 * - `CHAIN`           ChainRecord (./chain.ts): the device's received counters as linked runs, its
 *                     forks, late count and last receipt; updated once per device per request, under a
 *                     condition on the revision read.
 * Receipts signed by an unknown or revoked device, with a wrong signature or a wrong genesis link are
 * REJECTED and stored nowhere: they prove nothing about the device's chain.
 * A REPORTED receipt is also an invoice of the business (lib/invoice: IRN#, its events, audit and
 * search items), written in the same transaction as its `N#` item and `P#` guard.
 */

export type DeviceStatus = 'ACTIVE' | 'REVOKED'

/** A public JWK as registered: Ed25519 (OKP) or P-256 (EC), public members only. */
export type DevicePublicKey =
  | { kty: 'OKP'; crv: 'Ed25519'; x: string }
  | { kty: 'EC'; crv: 'P-256'; x: string; y: string }

export interface DeviceRecord {
  entity: 'DEVICE'
  deviceId: string
  businessId: string
  name: string
  publicKey: DevicePublicKey
  /** RFC 7638 thumbprint of publicKey (base64url of SHA-256). */
  thumbprint: string
  status: DeviceStatus
  /** base64url SHA-256 of the UTF-8 device id: what counter 1 names as prev_hash. */
  genesisHash: string
  registeredAt: string
  revokedAt?: string
}

export type ReceiptStatus = 'REPORTED' | 'DUPLICATE' | 'FORK' | 'REJECTED'

/** One receipt's result in the reply of POST /api/v1/receipts (CONTRACT 23). */
export interface ReceiptResult {
  hash: string
  status: ReceiptStatus
  irn?: string
  late?: boolean
  duplicate_of?: string
  /** The receipt this one forks from (FORK). */
  fork_of?: string
  /** The first result of the receipt this one duplicates (DUPLICATE). */
  first?: ReceiptResult
  errors?: Problem[]
}

/** A stored receipt (`N#` or `N#...#F#` item). */
export interface ReceiptRecord {
  entity: 'RECEIPT'
  businessId: string
  deviceId: string
  counter: number
  prevHash: string
  hash: string
  irn: string
  issuedAt: string
  /** issuedAt + 24 h. */
  reportBy: string
  /** Server time when received (the business's test clock in test mode). */
  receivedAt: string
  status: Exclude<ReceiptStatus, 'DUPLICATE'>
  late: boolean
  signature: string
  /** The rejected receipt's hash this one corrects. */
  corrects?: string
  forkOf?: string
  errors?: Problem[]
  /**
   * The receipt as received, signature included, as compressed JSON (lib/invoice/packed-json.ts; gzip
   * in items written before it): its bytes can be checked again.
   */
  bodyGzip: Uint8Array
}

export interface PrevGuard {
  entity: 'RECEIPT_PREV'
  counter: number
  hash: string
}

/** The result a stored receipt was first answered with. */
export function resultOf(record: ReceiptRecord): ReceiptResult {
  return {
    hash: record.hash,
    status: record.status,
    irn: record.irn,
    ...(record.late ? { late: true } : {}),
    ...(record.forkOf ? { fork_of: record.forkOf } : {}),
    ...(record.errors?.length ? { errors: record.errors } : {}),
  }
}
