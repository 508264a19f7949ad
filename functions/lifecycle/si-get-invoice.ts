import { apiSignature } from '#lib/auth/api-signature.ts'
import { getInvoice } from '#lib/endpoints/lifecycle.ts'
import { apiHandler } from '#lib/http/factory.ts'
import { pullInvoice } from '#lib/lifecycle/queries.ts'

/** GET /api/{v}/si/get-invoice/{irn}: Envelope, data = the pulled invoice (A.7). */
export const handler = apiHandler(getInvoice, apiSignature, async ({ params, caller }) => ({
  message: `Invoice ${params.irn}`,
  data: await pullInvoice(caller, params.irn),
}))
