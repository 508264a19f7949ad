import { timingSafeEqual } from 'node:crypto'
import type { ApiClientCaller } from '#lib/platform/auth/caller.ts'
import { getBusiness } from '#lib/registry/businesses.ts'
import { invalid, NotFound } from '#lib/platform/errors.ts'
import { parseIrn } from '#lib/irn/format.ts'
import { readInvoiceRecord } from '#lib/invoice/repository.ts'
import { currentMode } from '#lib/platform/mode.ts'
import { requireAuthorityKey } from './authority-key.ts'
import { decryptQrText, parsePlaintext } from './cipher.ts'
import type { VerifyQrRequest } from './schemas.ts'
import { parseReceiptVerifyUrl } from '#client/receipts/verify-url.ts'
import { checkReceipt } from '#lib/receipts/verify-page-lookup.ts'

// Apart from generate.ts so that verify-qr does not bundle the PNG encoder (qrcode is CommonJS,
// so esbuild cannot drop it from a module that also renders).

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a, 'utf8')
  const y = Buffer.from(b, 'utf8')
  return x.length === y.length && timingSafeEqual(x, y)
}

/**
 * verify-qr: decrypts a QR text and reports the IRN, when the QR was made, whether its certificate is
 * the IRN's business's, the invoice's status and the mode. The certificate itself is never echoed.
 * Only the key of the caller's mode is tried (CONTRACT 18): a test-mode QR code is not one a live
 * caller recognises, and the reverse.
 */
export async function verifyQr(_caller: ApiClientCaller, body: VerifyQrRequest) {
  // A B2C receipt's QR is the URL of its verification page (CONTRACT 23): the page's answer, as JSON,
  // for a device of the caller's mode only (a live key does not know a test device, nor the reverse).
  const receipt = parseReceiptVerifyUrl(body.qr.trim())
  if (receipt) {
    const check = await checkReceipt(receipt, currentMode())
    if (!check.device)
      throw new NotFound(
        `The receipt's QR code names device ${receipt.device_id}, which is not registered with this service in this key's mode: the receipt is not genuine`,
      )
    return { kind: 'receipt' as const, ...check }
  }
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
    mode: currentMode(),
  }
}
