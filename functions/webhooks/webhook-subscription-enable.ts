import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { subscriptionEnable } from '#lib/service/endpoints/webhooks.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { actorOf } from '#lib/platform/audit/trail.ts'
import { enableSubscription } from '#lib/webhooks/subscriptions.ts'

/** POST /api/v1/webhooks/{id}/enable (ADMIN): a DISABLED subscription ACTIVE again. */
export const handler = apiHandler(subscriptionEnable, apiSignature, async ({ params, caller }) => {
  const { subscription, changed } = await enableSubscription(caller.businessId, params.id, actorOf(caller))
  return {
    message: changed
      ? `Webhook subscription ${params.id} enabled`
      : `Webhook subscription ${params.id} is ${subscription.status}; nothing changed`,
    data: subscription,
  }
})
