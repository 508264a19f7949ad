import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { transmitPull } from '#lib/service/endpoints/lifecycle.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { pullInbox } from '#lib/lifecycle/inbox.ts'

/**
 * GET /api/v1/invoice/transmit/pull (the authority's): Envelope, data = one page of the invoices
 * transmitted to the caller's business; the next page's link (with its cursor) in `Link`.
 */
export const handler = apiHandler(transmitPull, apiSignature, async ({ query, caller, event }) => {
  const data = await pullInbox(caller.businessId, query)
  if (!data.page.next_cursor) return { data }
  const params = new URLSearchParams(event.rawQueryString ?? '')
  params.set('cursor', data.page.next_cursor)
  params.set('page', String(query.page + 1))
  return { data, headers: { link: `<${event.rawPath}?${params.toString()}>; rel="next"` } }
})
