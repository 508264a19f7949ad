import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { partySearch } from '#lib/service/endpoints/parties.ts'
import { NotFound } from '#lib/platform/errors.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { searchParties } from '#lib/parties/repository.ts'

/** GET /api/v1/invoice/party/{business_id}: the caller's business's parties, paged, newest first. */
export const handler = apiHandler(partySearch, apiSignature, async ({ params, query, caller }) => {
  if (params.business_id !== caller.businessId)
    throw new NotFound('No business of the caller has this business_id: use your own business id')
  return { data: await searchParties(caller.businessId, query) }
})
