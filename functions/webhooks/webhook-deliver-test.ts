import { queueHandler } from '#lib/platform/async/handlers.ts'
import { type DeliveryMessage, handleDeliveryMessage } from '#lib/webhooks/delivery-worker.ts'

/**
 * The webhook-test-deliveries queue -> test mode's attempts and fan-out pages, the same work as
 * webhook-deliver on a queue and concurrency share of their own (CONTRACT 18, lib/service/consumers.ts).
 */
export const handler = queueHandler<DeliveryMessage>('webhook-deliver-test', handleDeliveryMessage)
