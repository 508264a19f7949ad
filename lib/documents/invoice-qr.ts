import { createHmac, type KeyObject } from 'node:crypto'
import type { InvoiceRecord } from '#lib/invoice/record.ts'
import { Conflict } from '#lib/platform/errors.ts'
import { requireAuthorityKey } from '#lib/qr/authority-key.ts'
import { encryptPayloadStable, MAX_PLAINTEXT_BYTES, plaintextOf } from '#lib/qr/cipher.ts'
import { getBusiness } from '#lib/registry/businesses.ts'

/**
 * The authority QR text of a signed invoice (CONTRACT sections 5 and 16): the IRN, stamped with the
 * time it was signed (from the record, never the clock), and its business's certificate, encrypted
 * for the authority key. RSA PKCS#1 v1.5 encryption is randomised, and the same invoice must print
 * the same QR every time: the padding is made from the plaintext under a key derived from the
 * authority's private key (lib/qr/cipher.ts encryptPayloadStable), so every request makes the same
 * text and a GET stores nothing. Records whose PDF was made before this kept their text (`qrText`,
 * stored by the first PDF request then): it is printed as it was.
 */
export async function invoiceQrText(record: InvoiceRecord): Promise<string> {
  if (record.qrText) return record.qrText
  const business = await getBusiness(record.businessId)
  const signedAt = record.signedAt ?? record.createdAt
  const plaintext = plaintextOf({
    irn: record.irn,
    timestamp: Math.floor(Date.parse(signedAt) / 1000),
    certificate: business?.certificate ?? '',
  })
  if (plaintext.length > MAX_PLAINTEXT_BYTES) {
    // generate-qr-code refuses such a certificate with 400; here the invoice is already signed.
    throw new Conflict(
      `The QR payload of ${record.irn} would be ${plaintext.length} bytes, over the ${MAX_PLAINTEXT_BYTES} one RSA-2048 block holds: the business certificate is too long`,
    )
  }
  const key = await requireAuthorityKey()
  return encryptPayloadStable(key.publicKey, plaintext, paddingKeyOf(key.privateKey))
}

/** The padding key of an authority key (one per mode): an HMAC of its private key, kept per container. */
const paddingKeys = new WeakMap<KeyObject, Buffer>()
function paddingKeyOf(privateKey: KeyObject): Buffer {
  let key = paddingKeys.get(privateKey)
  if (!key) {
    const der = privateKey.export({ type: 'pkcs8', format: 'der' })
    key = createHmac('sha256', der).update('invoice QR padding, v1').digest()
    paddingKeys.set(privateKey, key)
  }
  return key
}
