import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { generateIrn as declaration } from '#lib/service/endpoints/irn.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { generateIrn } from '#lib/irn/service.ts'

/** POST /api/{v}/si/generate-irn: GenerateIRNRequest -> GenerateIRNResponse `{irn}` (idempotent). */
export const handler = apiHandler(declaration, apiSignature, async ({ body, caller }) => {
  const { irn } = await generateIrn(caller, body)
  return { data: { irn } }
})
