import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { eventList } from '#lib/service/endpoints/events.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { listEvents } from '#lib/events/queries.ts'

/** GET /api/v1/events (ADMIN): the business's events, newest first, a page by cursor. */
export const handler = apiHandler(eventList, apiSignature, async ({ query, caller }) => {
  const { size, cursor, ...window } = query
  const data = await listEvents(caller.businessId, window, { size, cursor })
  return {
    message: `${data.content.length} events${data.page.next_cursor ? ', more on the next page' : ''}`,
    data,
  }
})
