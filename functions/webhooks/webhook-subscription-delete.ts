import { actorOf } from '#lib/platform/audit/trail.ts'
import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { subscriptionDelete } from '#lib/service/endpoints/webhooks.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { deleteSubscription } from '#lib/webhooks/subscriptions.ts'

/** DELETE /api/v1/webhooks/{id} (ADMIN): 204; no new deliveries, pending ones stop. */
export const handler = apiHandler(subscriptionDelete, apiSignature, async ({ params, caller }) => {
  await deleteSubscription(caller.businessId, params.id, actorOf(caller))
  return { status: 204 }
})
