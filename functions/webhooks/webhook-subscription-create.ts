import { actorOf } from '#lib/platform/audit/trail.ts'
import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { subscriptionCreate } from '#lib/service/endpoints/webhooks.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { sealedReplies } from '#lib/platform/http/sealed-reply.ts'
import { createSubscription } from '#lib/webhooks/subscriptions.ts'

/** POST /api/v1/webhooks (ADMIN): 201, data = the subscription with its secret, shown this once. */
export const handler = apiHandler(
  subscriptionCreate,
  apiSignature,
  async ({ body, caller }) => {
    const created = await createSubscription(caller.businessId, body, actorOf(caller))
    return {
      status: 201,
      message: 'Webhook subscription created: keep the secret, it is not shown again',
      data: created,
    }
  },
  // The secret is in the reply: with an Idempotency-Key, the stored reply is sealed.
  { sealedReplies },
)
