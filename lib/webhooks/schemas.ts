import * as z from 'zod'
import { EVENT_TYPES } from '#lib/events/types.ts'
import { Instant } from '#lib/events/request-schemas.ts'

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

export const RecoveryPath = WebhookPath.extend({
  task: z.string().regex(/^rcv_[0-9a-f]{32}$/, 'not a recovery task id'),
})

/** POST /api/v1/webhooks/{id}/recover: the window of events to send again (both ends inclusive). */
export const RecoverRequest = z.object({
  since: Instant('since'),
  until: Instant('until').optional(),
})

const blankIsAbsent = (value: unknown) => (value === '' ? undefined : value)
const integer = (name: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${name} must be a whole number from ${min} to ${max}` })
    .int(`${name} must be a whole number from ${min} to ${max}`)
    .min(min, `${name} must be a whole number from ${min} to ${max}`)
    .max(max, `${name} must be a whole number from ${min} to ${max}`)

/**
 * A page of at most `size` (default 50, at most 200), newest first; the next one by the previous
 * reply's `page.next_cursor` (CONTRACT section 14: no page reads more than its own items and one).
 */
export const DeliveriesQuery = z.object({
  status: z.preprocess(
    (v) => (typeof v === 'string' && v ? v.toUpperCase() : undefined),
    z
      .enum(['FAILED', 'PENDING', 'DELIVERED'], { error: 'status must be failed, pending or delivered' })
      .optional(),
  ),
  size: z.preprocess(blankIsAbsent, integer('size', 1, 200).default(50)),
  cursor: z.preprocess(
    blankIsAbsent,
    z
      .string()
      .max(200, 'cursor is not one this API gave: use page.next_cursor of the previous reply')
      .optional(),
  ),
})
