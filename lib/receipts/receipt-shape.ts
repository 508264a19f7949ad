import type { Problem } from '#lib/platform/errors.ts'

/**
 * The receipt's own members (CONTRACT 23), checked before anything else: a v2 invoice plus `device`
 * and `signature` (and `corrects` on a correction). Each problem has its path in the receipt.
 */
export interface ReceiptDevicePart {
  device_id: string
  counter: number
  prev_hash: string
  issued_at: string
}

export interface ParsedReceipt {
  device: ReceiptDevicePart
  signature: string
  corrects?: string
  /** The invoice: the receipt without device, signature and corrects. */
  invoice: Record<string, unknown>
}

const HASH = /^[A-Za-z0-9_-]{43}$/
const DEVICE_ID = /^dev_[0-9a-f]{32}$/
const SIGNATURE = /^[A-Za-z0-9_-]{86}$/
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/
/** Counters go up to 10^12 - 1: the keys hold them in 12 digits (lib/platform/db/keys.ts). */
const MAX_COUNTER = 999_999_999_999

const p = (path: string, code: string, message: string): Problem => ({ path, code, message })

export function parseReceipt(
  value: unknown,
): { ok: true; receipt: ParsedReceipt } | { ok: false; problems: Problem[] } {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return {
      ok: false,
      problems: [
        p('', 'RECEIPT_SHAPE', 'A receipt must be a JSON object: a v2 invoice with device and signature'),
      ],
    }
  const { device, signature, corrects, ...invoice } = value as Record<string, unknown>
  const problems: Problem[] = devicePartProblems(device)
  if (typeof signature !== 'string' || !SIGNATURE.test(signature))
    problems.push(
      p(
        'signature',
        'RECEIPT_SHAPE',
        'signature must be base64url (no padding) of 64 bytes: Ed25519, or ES256 as r || s',
      ),
    )
  if (corrects !== undefined && (typeof corrects !== 'string' || !HASH.test(corrects)))
    problems.push(
      p('corrects', 'RECEIPT_SHAPE', 'corrects must be the hash of the rejected receipt this one corrects'),
    )
  if (problems.length) return { ok: false, problems }
  return {
    ok: true,
    receipt: {
      device: device as ReceiptDevicePart,
      signature: signature as string,
      ...(corrects !== undefined ? { corrects: corrects as string } : {}),
      invoice,
    },
  }
}

/** The problems of `device`, each at its path. */
function devicePartProblems(device: unknown): Problem[] {
  const problems: Problem[] = []
  if (!device || typeof device !== 'object' || Array.isArray(device))
    return [p('device', 'RECEIPT_SHAPE', 'device must be {device_id, counter, prev_hash, issued_at}')]
  const d = device as Record<string, unknown>
  if (typeof d.device_id !== 'string' || !DEVICE_ID.test(d.device_id))
    problems.push(
      p(
        'device/device_id',
        'RECEIPT_SHAPE',
        'device_id must be a device id (dev_ and 32 hex digits) from POST /api/v1/devices',
      ),
    )
  if (
    typeof d.counter !== 'number' ||
    !Number.isInteger(d.counter) ||
    d.counter < 1 ||
    d.counter > MAX_COUNTER
  )
    problems.push(
      p(
        'device/counter',
        'RECEIPT_SHAPE',
        `counter must be a whole number from 1 to ${MAX_COUNTER}: 1, 2, 3... per device`,
      ),
    )
  if (typeof d.prev_hash !== 'string' || !HASH.test(d.prev_hash))
    problems.push(
      p(
        'device/prev_hash',
        'RECEIPT_SHAPE',
        "prev_hash must be base64url (no padding) of 32 bytes: the previous receipt's hash, or the device's genesis_hash for counter 1",
      ),
    )
  if (
    typeof d.issued_at !== 'string' ||
    !ISO_INSTANT.test(d.issued_at) ||
    Number.isNaN(Date.parse(d.issued_at))
  )
    problems.push(
      p(
        'device/issued_at',
        'RECEIPT_SHAPE',
        'issued_at must be an ISO 8601 instant with its offset, e.g. 2026-11-21T10:15:30Z',
      ),
    )
  return problems
}
