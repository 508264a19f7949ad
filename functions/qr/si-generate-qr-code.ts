import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { generateQrCode as declaration } from '#lib/service/endpoints/qr.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { generateQrCode } from '#lib/qr/generate.ts'

/** POST /api/{v}/si/generate-qr-code: Envelope, data = `{qr_code_base64, qr_code_file_bytes}`. */
export const handler = apiHandler(declaration, apiSignature, async ({ body, caller }) => {
  const { irn, data } = await generateQrCode(caller, body)
  return { message: `QR code generated for IRN ${irn}`, data }
})
