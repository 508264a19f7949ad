import { timingSafeEqual } from 'node:crypto'
import { actorOf } from '#lib/audit/trail.ts'
import type { Caller } from '#lib/auth/caller.ts'
import { getBusiness } from '#lib/auth/credentials.ts'
import { invalid, NotFound } from '#lib/http/errors.ts'
import { parseIrn } from '#lib/irn/format.ts'
import { registerIrn, resolveIrn } from '#lib/irn/service.ts'
import { readInvoiceRecord } from '#lib/invoice/repository.ts'
import { requireAuthorityKey } from './authority-key.ts'
import { decryptQrText, encryptPayload, MAX_PLAINTEXT_BYTES, parsePlaintext, plaintextOf } from './cipher.ts'
import { qrPng } from './image.ts'
import type { GenerateQrCodeRequest, VerifyQrRequest } from './schemas.ts'

/**
 * generate-qr-code: the IRN (same rules as generate-irn, and registered as GENERATED like it), the
 * certificate (the business's unless the request gives one), encrypted for the authority key, as a PNG.
 * Everything that can refuse the request is checked before the IRN is registered.
 */
export async function generateQrCode(caller: Caller, body: GenerateQrCodeRequest) {
  const resolved = await resolveIrn(caller, body)
  const certificate = body.certificate ?? resolved.business.certificate
  const plaintext = plaintextOf({ irn: resolved.irn, timestamp: Math.floor(Date.now() / 1000), certificate })
  if (plaintext.length > MAX_PLAINTEXT_BYTES) {
    throw invalid([
      {
        path: 'certificate',
        code: 'QR_PAYLOAD_TOO_LONG',
        message: `The QR payload would be ${plaintext.length} bytes; one RSA-2048 block holds at most ${MAX_PLAINTEXT_BYTES}: use a shorter certificate or invoice_number`,
      },
    ])
  }
  const key = await requireAuthorityKey()
  await registerIrn(resolved, actorOf(caller))
  const image = await qrPng(encryptPayload(key.publicKey, plaintext))
  return { irn: resolved.irn, data: { qr_code_base64: image.dataUrl, qr_code_file_bytes: image.base64 } }
}

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a, 'utf8')
  const y = Buffer.from(b, 'utf8')
  return x.length === y.length && timingSafeEqual(x, y)
}

/**
 * verify-qr: decrypts a QR text and reports the IRN, when the QR was made, whether its certificate is
 * the IRN's business's, and the invoice's status. The certificate itself is never echoed.
 */
export async function verifyQr(_caller: Caller, body: VerifyQrRequest) {
  const key = await requireAuthorityKey()
  const plaintext = decryptQrText(key.privateKey, body.qr)
  const payload = plaintext ? parsePlaintext(plaintext) : undefined
  if (!payload || !parseIrn(payload.irn)) {
    throw invalid(
      [
        {
          path: 'qr',
          code: 'QR_NOT_RECOGNISED',
          message: 'qr is not a QR code issued by this service: scan it again and send its text unchanged',
        },
      ],
      'The QR code is not valid',
    )
  }
  const record = await readInvoiceRecord(payload.irn)
  if (!record)
    throw new NotFound(`The QR code names IRN ${payload.irn}, which is not registered with this service`)
  const business = await getBusiness(record.businessId)
  return {
    irn: payload.irn,
    timestamp: payload.timestamp,
    issued_at: new Date(payload.timestamp * 1000).toISOString(),
    certificate_valid: business !== undefined && sameText(payload.certificate, business.certificate),
    status: record.status,
  }
}
