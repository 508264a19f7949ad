import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { lookupTin } from '#lib/service/endpoints/parties.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { lookupTin as lookup } from '#lib/parties/exchange.ts'

/** GET /api/v1/invoice/transmit/lookup/tin/{tin}: whether invoices to that TIN can be transmitted. */
export const handler = apiHandler(lookupTin, apiSignature, async ({ params, caller }) => ({
  data: await lookup(caller.businessId, params.tin),
}))
