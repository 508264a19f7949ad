import { actorOf } from '#lib/platform/audit/trail.ts'
import type { ApiClientCaller } from '#lib/platform/auth/caller.ts'
import { invalid } from '#lib/platform/errors.ts'
import { registerIrn, resolveIrn } from '#lib/irn/service.ts'
import { requireAuthorityKey } from './authority-key.ts'
import { encryptPayload, MAX_PLAINTEXT_BYTES, plaintextOf } from './cipher.ts'
import { qrPng } from './image.ts'
import type { GenerateQrCodeRequest } from './schemas.ts'

/**
 * generate-qr-code: the IRN (same rules as generate-irn, and registered as GENERATED like it), the
 * certificate (the business's unless the request gives one), encrypted for the authority key, as a PNG.
 * Everything that can refuse the request is checked before the IRN is registered.
 */
export async function generateQrCode(caller: ApiClientCaller, body: GenerateQrCodeRequest) {
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
