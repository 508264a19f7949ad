import * as z from 'zod'
import { BatchPath, BatchRequest } from '#lib/batches/schemas.ts'
import { EVENT_TYPES } from '#lib/events/types.ts'
import { type EndpointDocs, endpoint, lazy } from '#lib/http/endpoint.ts'
import { CreateWebhookRequest, DeliveriesQuery, DeliveryPath, WebhookPath } from '#lib/webhooks/schemas.ts'

/** Webhook subscriptions and deliveries, and batches (CONTRACT section 11; docs/events.md in prose). */

export const subscriptionCreate = /* @__PURE__ */ endpoint({
  functionId: 'webhook-subscription-create',
  request: { body: CreateWebhookRequest },
})
export const subscriptionList = /* @__PURE__ */ endpoint({
  functionId: 'webhook-subscription-list',
  request: {},
})
export const subscriptionDelete = /* @__PURE__ */ endpoint({
  functionId: 'webhook-subscription-delete',
  request: { params: WebhookPath },
})
export const deliveriesList = /* @__PURE__ */ endpoint({
  functionId: 'webhook-deliveries-list',
  request: { params: WebhookPath, query: DeliveriesQuery },
})
export const deliveryRedeliver = /* @__PURE__ */ endpoint({
  functionId: 'webhook-delivery-redeliver',
  request: { params: DeliveryPath },
})
export const batchSubmit = /* @__PURE__ */ endpoint({
  functionId: 'app-invoice-batch-submit',
  request: { body: BatchRequest },
})
export const batchStatus = /* @__PURE__ */ endpoint({
  functionId: 'app-invoice-batch-status',
  request: { params: BatchPath },
})

const Subscription = /* @__PURE__ */ lazy(() =>
  z.object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.enum(EVENT_TYPES)),
    status: z.enum(['ACTIVE', 'FAILED']),
    created_at: z.string(),
    failed_at: z.string().optional(),
  }),
)
const Delivery = /* @__PURE__ */ lazy(() =>
  z.object({
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
  }),
)
const BatchItem = /* @__PURE__ */ lazy(() =>
  z.object({
    index: z.int(),
    irn: z.string().nullable(),
    status: z.enum(['PENDING', 'SUCCEEDED', 'FAILED']),
    http_status: z.int().optional().meta({ description: 'What the single endpoint answered' }),
    reply: z.record(z.string(), z.unknown()).optional().meta({ description: "The single endpoint's reply" }),
    message: z.string().optional(),
    errors: z.array(z.unknown()).optional().meta({ description: "The single endpoint's errors" }),
  }),
)

const INVALID = 'The body is invalid: every problem is listed'
const NOT_ADMIN = 'The API key lacks the ADMIN role'
const UNKNOWN_SUBSCRIPTION = 'No webhook subscription of your business has this id'

export const subscriptionCreateDocs = (): EndpointDocs => ({
  summary: 'Subscribe a URL to events (ADMIN)',
  description:
    'The reply holds the signing secret (`whsec_` + Base64 of 32 bytes) this once. Deliveries are signed per Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<Base64 HMAC-SHA256(secret, "{id}.{timestamp}.{body}")>`; the body is an IntegrationEvent. url must be https:// (http:// to 127.0.0.1 or localhost on a local server).',
  example: { url: 'https://example.com/hooks/einvoice', events: ['invoice.signed'] },
  replies: () => ({
    201: {
      description: 'Subscribed; the secret is shown this once',
      data: Subscription().extend({ secret: z.string() }),
    },
    400: INVALID,
    403: NOT_ADMIN,
  }),
})

export const subscriptionListDocs = (): EndpointDocs => ({
  summary: "The business's webhook subscriptions (ADMIN)",
  description: 'Every subscription that is not deleted, without its secret.',
  replies: () => ({
    200: { description: 'The subscriptions', data: z.array(Subscription()) },
    403: NOT_ADMIN,
  }),
})

export const subscriptionDeleteDocs = (): EndpointDocs => ({
  summary: 'Delete a subscription (ADMIN)',
  description: 'No new deliveries; pending ones stop.',
  replies: () => ({
    204: { description: 'Deleted', empty: true },
    400: 'The id in the path is invalid',
    403: NOT_ADMIN,
    404: UNKNOWN_SUBSCRIPTION,
  }),
})

export const deliveriesListDocs = (): EndpointDocs => ({
  summary: "A subscription's delivery log (ADMIN)",
  description:
    'Newest first; paged like merchant history (`page` from 1, size up to 200, reply `number` from 0).',
  replies: () => ({
    200: {
      description: 'One page of deliveries',
      data: z.object({
        content: z.array(Delivery()),
        page: z.object({ size: z.int(), number: z.int(), totalElements: z.int(), totalPages: z.int() }),
      }),
    },
    400: 'The id or the paging parameters are invalid',
    403: NOT_ADMIN,
    404: UNKNOWN_SUBSCRIPTION,
  }),
})

export const deliveryRedeliverDocs = (): EndpointDocs => ({
  summary: 'Send one event again (ADMIN)',
  description: 'A new round of the retry schedule, same webhook-id. Already pending: 202, nothing added.',
  replies: () => ({
    202: {
      description: 'Queued (or already pending)',
      data: z.object({ event_id: z.string(), status: z.literal('PENDING') }),
    },
    400: 'The ids in the path are invalid',
    403: NOT_ADMIN,
    404: 'No delivery of this event to a subscription of your business',
    503: 'The delivery queue is unavailable: nothing changed',
  }),
})

export const batchSubmitDocs = (): EndpointDocs => ({
  summary: 'Submit 1 to 100 invoices to validate or sign',
  description:
    'Answers 202 with Location; each invoice is then handled exactly as POST /app/invoice/validate or /sign would (both sign, CONTRACT section 5), once. An Idempotency-Key replays the first reply. batch.completed is sent when every item has its result.',
  exampleFile: 'docs/examples/batch-v1.json',
  replies: () => ({
    202: {
      description: 'Accepted; the Location header is where its status is read',
      headers: { Location: 'The batch status URL' },
      data: z.object({
        batch_id: z.string(),
        status: z.literal('ACCEPTED'),
        total: z.int(),
        created_at: z.string(),
      }),
    },
    400: INVALID,
    409: 'The Idempotency-Key was used with another body',
  }),
})

export const batchStatusDocs = (): EndpointDocs => ({
  summary: 'A batch and each item result',
  description: "Another business's batch is 404.",
  replies: () => ({
    200: {
      description: 'The batch',
      data: z.object({
        batch_id: z.string(),
        action: z.enum(['validate', 'sign']),
        status: z.enum(['ACCEPTED', 'PROCESSING', 'COMPLETED']),
        total: z.int(),
        succeeded: z.int(),
        failed: z.int(),
        created_at: z.string(),
        completed_at: z.string().optional(),
        items: z.array(BatchItem()),
      }),
    },
    400: 'The batch id in the path is invalid',
    404: 'No batch with this id for your business',
  }),
})
