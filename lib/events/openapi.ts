import * as z from 'zod'
import { BatchPath, BatchRequest } from '#lib/batches/schemas.ts'
import type { OperationSpec } from '#lib/openapi/registry.ts'
import { CreateWebhookRequest, DeliveriesQuery, DeliveryPath, WebhookPath } from '#lib/webhooks/schemas.ts'
import { EVENT_TYPES } from './event.ts'

/**
 * The OpenAPI entries of the webhook and batch endpoints (CONTRACT section 11), merged into
 * lib/openapi/registry.ts by functionId. docs/events.md describes the same in prose.
 */
export const IntegrationEventRecord = z
  .object({
    id: z.string().meta({ description: '`evt_...`; also the `webhook-id` header of every attempt' }),
    type: z.enum(EVENT_TYPES),
    created_at: z.string().meta({ description: 'When the change was committed (ISO 8601, UTC)' }),
    business_id: z.string(),
    data: z.record(z.string(), z.unknown()).meta({
      description:
        'For invoice events: irn, status, payment_status and the fields of the change (validated_at, signed_at, previous_status, transmitted_at, supplier_tin, buyer_tin, previous_payment_status, payment_updated_at). For batch.completed: batch_id, action, status, total, succeeded, failed.',
    }),
  })
  .meta({ id: 'IntegrationEvent', description: 'The JSON body of every webhook delivery' })

const Subscription = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(EVENT_TYPES)),
  status: z.enum(['ACTIVE', 'FAILED']),
  created_at: z.string(),
  failed_at: z.string().optional(),
})
const Page = z.object({ size: z.int(), number: z.int(), totalElements: z.int(), totalPages: z.int() })
const Delivery = z.object({
  event_id: z.string(),
  event_type: z.enum(EVENT_TYPES),
  status: z.enum(['PENDING', 'DELIVERED', 'FAILED']),
  attempts: z.int(),
  last_http_status: z.int().nullable(),
  last_error: z.string().optional(),
  last_attempt_at: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
  delivered_at: z.string().optional(),
  log: z.array(
    z.object({ at: z.string(), status: z.int().nullable(), ms: z.int(), error: z.string().optional() }),
  ),
})
const BatchItem = z.object({
  index: z.int(),
  irn: z.string().nullable(),
  status: z.enum(['PENDING', 'SUCCEEDED', 'FAILED']),
  http_status: z.int().optional().meta({ description: 'What the single endpoint answered' }),
  reply: z.record(z.string(), z.unknown()).optional().meta({ description: "The single endpoint's reply" }),
  message: z.string().optional(),
  errors: z.array(z.unknown()).optional().meta({ description: "The single endpoint's errors" }),
})

export const eventOperations: Record<string, OperationSpec> = {
  'webhook-subscription-create': {
    summary: 'Subscribe a URL to events (ADMIN)',
    description:
      'The reply holds the signing secret (`whsec_` + Base64 of 32 bytes) this once. Deliveries are signed per Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<Base64 HMAC-SHA256(secret, "{id}.{timestamp}.{body}")>`; the body is an IntegrationEvent. url must be https:// (http:// to 127.0.0.1 or localhost on a local server).',
    body: CreateWebhookRequest,
    response: Subscription.extend({ secret: z.string() }),
    successStatus: 201,
  },
  'webhook-subscription-list': {
    summary: "The business's webhook subscriptions (ADMIN)",
    response: z.array(Subscription),
  },
  'webhook-subscription-delete': {
    summary: 'Delete a subscription (ADMIN)',
    params: WebhookPath,
    successStatus: 204,
  },
  'webhook-deliveries-list': {
    summary: "A subscription's delivery log (ADMIN)",
    description: 'Newest first; paged like the merchant history (page from 1, size up to 200).',
    params: WebhookPath,
    query: DeliveriesQuery,
    response: z.object({ content: z.array(Delivery), page: Page }),
  },
  'webhook-delivery-redeliver': {
    summary: 'Send one event again (ADMIN)',
    description: 'A new round of the retry schedule, same webhook-id. Already pending: 202, nothing added.',
    params: DeliveryPath,
    response: z.object({ event_id: z.string(), status: z.literal('PENDING') }),
    successStatus: 202,
  },
  'app-invoice-batch-submit': {
    summary: 'Submit 1 to 100 invoices to validate or sign',
    description:
      'Answers 202 with Location; each invoice is then handled exactly as POST /app/invoice/validate or /sign would (both sign, CONTRACT section 5), once. An Idempotency-Key replays the first reply. batch.completed is sent when every item has its result.',
    body: BatchRequest,
    response: z.object({
      batch_id: z.string(),
      status: z.literal('ACCEPTED'),
      total: z.int(),
      created_at: z.string(),
    }),
    successStatus: 202,
  },
  'app-invoice-batch-status': {
    summary: 'A batch and each item result',
    params: BatchPath,
    response: z.object({
      batch_id: z.string(),
      action: z.enum(['validate', 'sign']),
      status: z.enum(['ACCEPTED', 'PROCESSING', 'COMPLETED']),
      total: z.int(),
      succeeded: z.int(),
      failed: z.int(),
      created_at: z.string(),
      completed_at: z.string().optional(),
      items: z.array(BatchItem),
    }),
  },
}
