import { queueHandler } from '#lib/platform/async/handlers.ts'
import { type DeliveryMessage, handleDeliveryMessage } from '#lib/webhooks/delivery-worker.ts'

/**
 * The webhook-deliveries queue -> one signed attempt per message, or one more page of an event's
 * fan-out (lib/service/consumers.ts).
 */
export const handler = queueHandler<DeliveryMessage>('webhook-deliver', handleDeliveryMessage)
