import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { transmitLookup } from '#lib/service/endpoints/lifecycle.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { lookupExchange } from '#lib/lifecycle/queries.ts'

/** GET /api/v1/invoice/transmit/lookup/{irn} (the authority's): Envelope, data = the exchange record. */
export const handler = apiHandler(transmitLookup, apiSignature, async ({ params, caller }) => {
  const data = await lookupExchange(caller, params.irn)
  return { message: `Exchange record of invoice ${data.irn}`, data }
})
