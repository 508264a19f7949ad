/**
 * The URL a receipt's QR code carries (CONTRACT 23): the service's public verification page, with
 * what a phone needs to ask about the receipt and nothing the printed receipt does not show:
 *
 *   <base>/verify/r/<device_id>/<counter>?h=<hash>&s=<signature>&i=<irn>
 *
 * About 250 characters with a 40-character base: a version 12 QR code at level M holds 287 bytes,
 * 65 modules a side (3.3 cm at a receipt printer's 0.5 mm a module). The till builds it
 * with receiptVerifyUrl; the service's page and verify-qr read it with parseReceiptVerifyUrl, so the
 * shape is written in one place.
 */

export interface ReceiptVerifyFields {
  irn: string
  /** The receipt's hash: base64url of SHA-256 of its bytes, 43 characters. */
  hash: string
  device_id: string
  counter: number
  /** The device's signature, base64url of 64 bytes: 86 characters. */
  signature: string
}

/** The path segment before the device id: `/verify/r/` (r for receipt). */
export const RECEIPT_VERIFY_PATH = '/verify/r/'

const HASH = /^[A-Za-z0-9_-]{43}$/
const SIGNATURE = /^[A-Za-z0-9_-]{86}$/
/** The IRN's form (lib/irn/format.ts in the service): `<invoice_number>-<service_id>-<YYYYMMDD>`. */
const IRN = /^[A-Za-z0-9]+-[A-Za-z0-9]+-\d{8}$/
const COUNTER = /^[1-9]\d{0,15}$/
/** A device id longer than this is no device id the service issues. */
const MAX_DEVICE_ID = 128

/** The verification URL of a receipt. `base` is the service's public URL (a trailing `/` is dropped). */
export function receiptVerifyUrl(base: string, fields: ReceiptVerifyFields): string {
  const root = base.replace(/\/+$/, '')
  return (
    `${root}${RECEIPT_VERIFY_PATH}${encodeURIComponent(fields.device_id)}/${fields.counter}` +
    `?h=${fields.hash}&s=${fields.signature}&i=${encodeURIComponent(fields.irn)}`
  )
}

/**
 * The fields of a receipt's verification URL, with the base it was made with (`''` for a path given
 * without scheme and host, as a server sees its request), or undefined for anything else: a path that
 * is not `/verify/r/<device_id>/<counter>`, a member missing, repeated or malformed. Never throws,
 * since what it reads comes from anyone's phone.
 */
export function parseReceiptVerifyUrl(
  url: string | URL,
): (ReceiptVerifyFields & { base: string }) | undefined {
  let parsed: URL
  try {
    const relative = typeof url === 'string' && url.startsWith('/')
    parsed = relative ? new URL(url, 'http://relative.invalid') : new URL(url)
    const at = parsed.pathname.lastIndexOf(RECEIPT_VERIFY_PATH)
    if (at < 0) return undefined
    const [rawDevice, counterText, ...rest] = parsed.pathname
      .slice(at + RECEIPT_VERIFY_PATH.length)
      .split('/')
    if (rest.length || !rawDevice || !counterText || !COUNTER.test(counterText)) return undefined
    const counter = Number(counterText)
    const device_id = decodeURIComponent(rawDevice)
    if (!Number.isSafeInteger(counter) || device_id.length > MAX_DEVICE_ID) return undefined
    const one = (name: string): string | undefined => {
      const values = parsed.searchParams.getAll(name)
      return values.length === 1 ? values[0] : undefined
    }
    const hash = one('h')
    const signature = one('s')
    const irn = one('i')
    if (!hash || !HASH.test(hash) || !signature || !SIGNATURE.test(signature) || !irn || !IRN.test(irn))
      return undefined
    const base = relative ? '' : `${parsed.origin}${parsed.pathname.slice(0, at)}`
    return { base, irn, hash, device_id, counter, signature }
  } catch {
    // A URL that does not parse, or a device id whose percent-encoding is broken.
    return undefined
  }
}
