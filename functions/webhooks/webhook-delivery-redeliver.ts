import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { deliveryRedeliver } from '#lib/service/endpoints/webhooks.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { redeliver } from '#lib/webhooks/delivery-worker.ts'

/** POST /api/v1/webhooks/{id}/deliveries/{eventId}/redeliver (ADMIN): 202, a new round of attempts. */
export const handler = apiHandler(deliveryRedeliver, apiSignature, async ({ params, caller }) => {
  const queued = await redeliver(caller.businessId, params.id, params.eventId)
  return {
    status: 202,
    message: queued ? 'Redelivery queued' : 'A delivery of this event is already pending',
    data: { event_id: params.eventId, status: 'PENDING' },
  }
})
