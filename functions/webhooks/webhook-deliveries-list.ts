import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { deliveriesList } from '#lib/service/endpoints/webhooks.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { listDeliveries } from '#lib/webhooks/delivery-records.ts'
import { ownSubscription } from '#lib/webhooks/subscriptions.ts'

/** GET /api/v1/webhooks/{id}/deliveries (ADMIN): the delivery log, newest first, a page by cursor. */
export const handler = apiHandler(deliveriesList, apiSignature, async ({ params, query, caller }) => {
  const subscription = await ownSubscription(caller.businessId, params.id)
  const data = await listDeliveries(subscription.id, query)
  return {
    message: `${data.content.length} deliveries${data.page.next_cursor ? ', more on the next page' : ''}`,
    data,
  }
})
