import { streamHandler } from '#lib/platform/async/handlers.ts'
import { eventOf, isEventItem } from '#lib/events/event.ts'
import { fanOut } from '#lib/webhooks/delivery-worker.ts'

/** The table's stream -> each new integration event becomes one delivery per subscription (lib/service/consumers.ts). */
export const handler = streamHandler('webhook-fan-out', isEventItem, (item) => fanOut(eventOf(item)))
