import * as z from 'zod'
import { EVENT_TYPES } from '#lib/events/types.ts'

/** POST /api/v1/webhooks. */
export const CreateWebhookRequest = z.object({
  url: z.string().min(1).max(2048),
  events: z
    .array(z.enum(EVENT_TYPES, { error: `each event must be one of ${EVENT_TYPES.join(', ')}` }))
    .min(1, 'events must name at least one event type'),
})
export type CreateWebhookRequest = z.output<typeof CreateWebhookRequest>

export const WebhookPath = z.object({ id: z.string().regex(/^wh_[0-9a-f]{32}$/, 'not a webhook id') })
export const DeliveryPath = WebhookPath.extend({
  eventId: z.string().regex(/^evt_[0-9a-z]{9}[0-9a-f]{20}$/, 'not an event id'),
})

const blankIsAbsent = (value: unknown) => (value === '' ? undefined : value)
const integer = (name: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${name} must be a whole number from ${min} to ${max}` })
    .int(`${name} must be a whole number from ${min} to ${max}`)
    .min(min, `${name} must be a whole number from ${min} to ${max}`)
    .max(max, `${name} must be a whole number from ${min} to ${max}`)

/** Paged like CONTRACT section 7: page 1-based (default 1), size default 50, at most 200. */
export const DeliveriesQuery = z.object({
  status: z.preprocess(
    (v) => (typeof v === 'string' && v ? v.toUpperCase() : undefined),
    z
      .enum(['FAILED', 'PENDING', 'DELIVERED'], { error: 'status must be failed, pending or delivered' })
      .optional(),
  ),
  page: z.preprocess(blankIsAbsent, integer('page', 1, 1_000_000).default(1)),
  size: z.preprocess(blankIsAbsent, integer('size', 1, 200).default(50)),
})
