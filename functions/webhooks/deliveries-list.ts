import { apiSignature } from '#lib/auth/api-signature.ts'
import { apiHandler } from '#lib/http/factory.ts'
import { businessOf } from '#lib/lifecycle/access.ts'
import { listDeliveries } from '#lib/webhooks/deliveries.ts'
import { DeliveriesQuery, WebhookPath } from '#lib/webhooks/schemas.ts'
import { ownSubscription } from '#lib/webhooks/subscriptions.ts'

/** GET /api/v1/webhooks/{id}/deliveries (ADMIN): the delivery log, newest first, paged. */
export const handler = apiHandler(
  { auth: apiSignature, params: WebhookPath, query: DeliveriesQuery },
  async ({ params, query, caller }) => {
    const subscription = await ownSubscription(businessOf(caller).businessId, params.id)
    const data = await listDeliveries(subscription.id, query)
    return { message: `${data.page.totalElements} deliveries`, data }
  },
)
