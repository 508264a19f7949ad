import { apiSignature } from '#lib/auth/api-signature.ts'
import { apiHandler } from '#lib/http/factory.ts'
import { ValidateIrnRequest } from '#lib/irn/schemas.ts'
import { validateIrn } from '#lib/irn/service.ts'

/** POST /api/{v}/app/invoice/validate-irn: 200 `{irn}` for an IRN of the caller's business, else 400. */
export const handler = apiHandler(
  { auth: apiSignature, body: ValidateIrnRequest },
  async ({ body, caller }) => ({
    data: await validateIrn(caller, body),
  }),
)
