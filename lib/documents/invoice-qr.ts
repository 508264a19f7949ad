import { getBusiness } from '#lib/registry/businesses.ts'
import { Conflict } from '#lib/platform/errors.ts'
import { keepQrText } from '#lib/invoice/repository.ts'
import type { InvoiceRecord } from '#lib/invoice/record.ts'
import { requireAuthorityKey } from '#lib/qr/authority-key.ts'
import { encryptPayload, MAX_PLAINTEXT_BYTES, plaintextOf } from '#lib/qr/cipher.ts'

/**
 * The authority QR text of a signed invoice (CONTRACT sections 5 and 16): the IRN, stamped with the
 * time it was signed (from the record, never the clock), and its business's certificate, encrypted
 * for the authority key. Made on the first request and stored on the record (keepQrText), because
 * the encryption is randomised: every later PDF prints exactly the stored text.
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
  return keepQrText(record.irn, encryptPayload(key.publicKey, plaintext))
}
