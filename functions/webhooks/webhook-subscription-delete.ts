import { actorOf } from '#lib/audit/trail.ts'
import { apiSignature } from '#lib/auth/api-signature.ts'
import { subscriptionDelete } from '#lib/endpoints/webhooks.ts'
import { apiHandler } from '#lib/http/factory.ts'
import { deleteSubscription } from '#lib/webhooks/subscriptions.ts'

/** DELETE /api/v1/webhooks/{id} (ADMIN): 204; no new deliveries, pending ones stop. */
export const handler = apiHandler(subscriptionDelete, apiSignature, async ({ params, caller }) => {
  await deleteSubscription(caller.businessId, params.id, actorOf(caller))
  return { status: 204 }
})
