import { actorOf } from '#lib/audit/trail.ts'
import { apiSignature } from '#lib/auth/api-signature.ts'
import { apiHandler } from '#lib/http/factory.ts'
import { businessOf } from '#lib/lifecycle/access.ts'
import { CreateWebhookRequest } from '#lib/webhooks/schemas.ts'
import { createSubscription } from '#lib/webhooks/subscriptions.ts'

/** POST /api/v1/webhooks (ADMIN): 201, data = the subscription with its secret, shown this once. */
export const handler = apiHandler(
  { auth: apiSignature, body: CreateWebhookRequest },
  async ({ body, caller }) => {
    const created = await createSubscription(businessOf(caller).businessId, body, actorOf(caller))
    return {
      status: 201,
      message: 'Webhook subscription created: keep the secret, it is not shown again',
      data: created,
    }
  },
)
