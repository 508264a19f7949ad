import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { confirm } from '#lib/service/endpoints/lifecycle.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { confirmInvoice } from '#lib/lifecycle/queries.ts'

/** GET /api/{v}/app/invoice/confirm/{irn}: Envelope, data = the invoice's lifecycle. */
export const handler = apiHandler(confirm, apiSignature, async ({ params, caller }) => {
  const data = await confirmInvoice(caller, params.irn)
  return { message: `Invoice ${data.irn} is ${data.status}`, data }
})
