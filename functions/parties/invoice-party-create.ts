import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { partyCreate } from '#lib/service/endpoints/parties.ts'
import { NotFound } from '#lib/platform/errors.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { createParty } from '#lib/parties/repository.ts'

/** POST /api/v1/invoice/party: a party of the caller's business, with its postal address (201). */
export const handler = apiHandler(partyCreate, apiSignature, async ({ body, caller }) => {
  if (body.business_id !== caller.businessId)
    throw new NotFound(
      `Business ${body.business_id} was not found for this API client: use your own business id`,
    )
  const data = await createParty(caller.businessId, body)
  return { status: 201, message: `Party ${data.id} created`, data }
})
