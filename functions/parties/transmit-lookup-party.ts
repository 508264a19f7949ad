import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { lookupParty } from '#lib/service/endpoints/parties.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { lookupParty as lookup } from '#lib/parties/exchange.ts'

/** GET /api/v1/invoice/transmit/lookup/party/{party_id}: whether invoices to that party can be transmitted. */
export const handler = apiHandler(lookupParty, apiSignature, async ({ params, caller }) => ({
  data: await lookup(caller.businessId, params.party_id),
}))
