import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { verifyQr as declaration } from '#lib/service/endpoints/qr.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { verifyQr } from '#lib/qr/verify.ts'

/** POST /api/v1/resource/verify-qr: what a QR text says and whether it checks out. */
export const handler = apiHandler(declaration, apiSignature, async ({ body, caller }) => {
  const data = await verifyQr(caller, body)
  if ('kind' in data)
    return { message: `Receipt ${data.counter} of device ${data.device_id}: ${data.verdict}`, data }
  return {
    message: data.certificate_valid
      ? `QR code of IRN ${data.irn} verified: the certificate belongs to the issuing business`
      : `QR code of IRN ${data.irn} decrypted, but its certificate is not the issuing business's`,
    data,
  }
})
