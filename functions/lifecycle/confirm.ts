import { apiSignature } from '#lib/auth/api-signature.ts'
import { apiHandler } from '#lib/http/factory.ts'
import { confirmInvoice } from '#lib/lifecycle/queries.ts'
import { IrnPath } from '#lib/lifecycle/schemas.ts'

/** GET /api/{v}/app/invoice/confirm/{irn}: Envelope, data = the invoice's lifecycle. */
export const handler = apiHandler({ auth: apiSignature, params: IrnPath }, async ({ params, caller }) => {
  const data = await confirmInvoice(caller, params.irn)
  return { message: `Invoice ${data.irn} is ${data.status}`, data }
})
