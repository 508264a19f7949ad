import { apiSignature } from '#lib/auth/api-signature.ts'
import { apiHandler } from '#lib/http/factory.ts'
import { VerifyTinRequest } from '#lib/taxpayer/schemas.ts'
import { verifyTin } from '#lib/taxpayer/service.ts'

/** POST /api/{v}/resource/verify-tin: Envelope, data = VerifyTinApiResponse; unknown TIN 404. */
export const handler = apiHandler({ auth: apiSignature, body: VerifyTinRequest }, async ({ body }) => ({
  message: 'TIN verified',
  data: await verifyTin(body.tin),
}))
