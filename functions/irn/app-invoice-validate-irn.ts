import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { validateIrn as declaration } from '#lib/service/endpoints/irn.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { validateIrn } from '#lib/irn/service.ts'

/** POST /api/{v}/app/invoice/validate-irn: 200 `{irn}` for an IRN of the caller's business, else 400. */
export const handler = apiHandler(declaration, apiSignature, async ({ body, caller }) => ({
  data: await validateIrn(caller, body),
}))
