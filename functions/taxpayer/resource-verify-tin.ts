import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { verifyTin as declaration } from '#lib/service/endpoints/taxpayer.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { verifyTin } from '#lib/taxpayer/service.ts'

/** POST /api/{v}/resource/verify-tin: Envelope, data = VerifyTinApiResponse; unknown TIN 404. */
export const handler = apiHandler(declaration, apiSignature, async ({ body }) => ({
  message: 'TIN verified',
  data: await verifyTin(body.tin),
}))
