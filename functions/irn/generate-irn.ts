import { apiHandler } from '#lib/http/factory.ts'
import { GenerateIrnRequest } from '#lib/irn/schemas.ts'
import { generateIrn } from '#lib/irn/service.ts'

/** POST /api/{v}/si/generate-irn: GenerateIRNRequest -> GenerateIRNResponse `{irn}` (idempotent). */
export const handler = apiHandler({ body: GenerateIrnRequest }, async ({ body, caller }) => {
  const { irn } = await generateIrn(caller, body)
  return { data: { irn } }
})
