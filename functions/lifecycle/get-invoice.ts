import { apiSignature } from '#lib/auth/api-signature.ts'
import { apiHandler } from '#lib/http/factory.ts'
import { pullInvoice } from '#lib/lifecycle/queries.ts'
import { IrnPath } from '#lib/lifecycle/schemas.ts'

/** GET /api/{v}/si/get-invoice/{irn}: Envelope, data = the pulled invoice (A.7). */
export const handler = apiHandler({ auth: apiSignature, params: IrnPath }, async ({ params, caller }) => ({
  message: `Invoice ${params.irn}`,
  data: await pullInvoice(caller, params.irn),
}))
