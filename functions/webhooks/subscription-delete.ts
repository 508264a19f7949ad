import { actorOf } from '#lib/audit/trail.ts'
import { apiSignature } from '#lib/auth/api-signature.ts'
import { apiHandler } from '#lib/http/factory.ts'
import { businessOf } from '#lib/lifecycle/access.ts'
import { WebhookPath } from '#lib/webhooks/schemas.ts'
import { deleteSubscription } from '#lib/webhooks/subscriptions.ts'

/** DELETE /api/v1/webhooks/{id} (ADMIN): 204; no new deliveries, pending ones stop. */
export const handler = apiHandler({ auth: apiSignature, params: WebhookPath }, async ({ params, caller }) => {
  await deleteSubscription(businessOf(caller).businessId, params.id, actorOf(caller))
  return { status: 204 }
})
