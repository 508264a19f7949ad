import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { subscriptionList } from '#lib/service/endpoints/webhooks.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { subscriptionsOf, viewOf } from '#lib/webhooks/subscriptions.ts'

/** GET /api/v1/webhooks (ADMIN): the business's subscriptions, without secrets. */
export const handler = apiHandler(subscriptionList, apiSignature, async ({ caller }) => {
  const listed = (await subscriptionsOf(caller.businessId)).filter((s) => s.status !== 'DELETED')
  return {
    message: `${listed.length} webhook subscription${listed.length === 1 ? '' : 's'}`,
    data: listed.map(viewOf),
  }
})
