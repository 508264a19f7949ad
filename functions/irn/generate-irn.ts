import { apiSignature } from '#lib/auth/api-signature.ts'
import { apiHandler } from '#lib/http/factory.ts'
import { GenerateIrnRequest } from '#lib/irn/schemas.ts'
import { generateIrn } from '#lib/irn/service.ts'

/** POST /api/{v}/si/generate-irn: GenerateIRNRequest -> GenerateIRNResponse `{irn}` (idempotent). */
export const handler = apiHandler(
  { auth: apiSignature, body: GenerateIrnRequest },
  async ({ body, caller }) => {
    const { irn } = await generateIrn(caller, body)
    return { data: { irn } }
  },
)
