import { queueHandler } from '#lib/async/handlers.ts'
import { type AttemptMessage, attempt } from '#lib/webhooks/delivery.ts'

/** The webhook-deliveries queue -> one signed attempt per message (lib/consumers.ts). */
export const handler = queueHandler<AttemptMessage>('webhook-deliver', (message) => attempt(message))
