import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { eventGet } from '#lib/service/endpoints/events.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { getEvent } from '#lib/events/queries.ts'

/** GET /api/v1/events/{id} (ADMIN): one event of the business, as delivered. */
export const handler = apiHandler(eventGet, apiSignature, async ({ params, caller }) => {
  const data = await getEvent(caller.businessId, params.id)
  return { message: `Event ${data.id} (${data.type})`, data }
})
