import * as z from 'zod'
import { EVENT_TYPES } from '#lib/events/types.ts'
import { type EndpointDocs, endpointsOf, lazy } from '#lib/platform/http/endpoint.ts'
import {
  CreateWebhookRequest,
  DeliveriesQuery,
  DeliveryPath,
  RecoverRequest,
  RecoveryPath,
  WebhookPath,
} from '#lib/webhooks/schemas.ts'
import { BUSINESS_ADMIN, reads, writes } from './common.ts'

/** Webhook subscriptions and their deliveries (CONTRACT section 11; docs/events.md in prose). */

const webhooks = /* @__PURE__ */ endpointsOf({ domain: 'webhooks', ...BUSINESS_ADMIN })

export const subscriptionCreate = /* @__PURE__ */ webhooks({
  functionId: 'webhook-subscription-create',
  routes: [{ method: 'POST', path: '/webhooks' }],
  // A new subscription's signing secret is sealed by the function that creates it.
  access: { table: [writes(['WEBHOOKS#', 'AUDIT#'])], encrypt: ['webhook-subscription'] },
  // Its 201 shows that secret once: a retry's stored reply is kept sealed.
  sealedReply: true,
  request: { body: CreateWebhookRequest },
})
export const subscriptionList = /* @__PURE__ */ webhooks({
  functionId: 'webhook-subscription-list',
  routes: [{ method: 'GET', path: '/webhooks' }],
  access: { table: [reads(['WEBHOOKS#'])] },
  request: {},
})
export const subscriptionDelete = /* @__PURE__ */ webhooks({
  functionId: 'webhook-subscription-delete',
  routes: [{ method: 'DELETE', path: '/webhooks/{id}' }],
  access: { table: [writes(['WEBHOOKS#', 'AUDIT#'])] },
  request: { params: WebhookPath },
})
export const deliveriesList = /* @__PURE__ */ webhooks({
  functionId: 'webhook-deliveries-list',
  routes: [{ method: 'GET', path: '/webhooks/{id}/deliveries' }],
  access: { table: [reads(['WEBHOOKS#', 'WHDELIVERY#'], ['gsi1'])] },
  request: { params: WebhookPath, query: DeliveriesQuery },
})
export const deliveryRedeliver = /* @__PURE__ */ webhooks({
  functionId: 'webhook-delivery-redeliver',
  routes: [{ method: 'POST', path: '/webhooks/{id}/deliveries/{eventId}/redeliver' }],
  // The attempt goes to the delivery queue of the caller's mode (lib/webhooks/delivery-worker.ts).
  access: {
    table: [writes(['WEBHOOKS#', 'WHDELIVERY#', 'AUDIT#'])],
    queues: ['webhook-deliveries', 'webhook-test-deliveries'],
  },
  request: { params: DeliveryPath },
})

export const subscriptionEnable = /* @__PURE__ */ webhooks({
  functionId: 'webhook-subscription-enable',
  routes: [{ method: 'POST', path: '/webhooks/{id}/enable' }],
  access: { table: [writes(['WEBHOOKS#', 'AUDIT#'])] },
  request: { params: WebhookPath },
})
export const recoveryStart = /* @__PURE__ */ webhooks({
  functionId: 'webhook-recovery-start',
  routes: [{ method: 'POST', path: '/webhooks/{id}/recover' }],
  // The task beside the subscription, the subscription's recovery slot; the first page queued.
  access: { table: [writes(['WEBHOOKS#', 'AUDIT#'])], queues: ['webhook-recoveries'] },
  request: { params: WebhookPath, body: RecoverRequest },
})
export const recoveryStatus = /* @__PURE__ */ webhooks({
  functionId: 'webhook-recovery-status',
  routes: [{ method: 'GET', path: '/webhooks/{id}/recover/{task}' }],
  access: { table: [reads(['WEBHOOKS#'])] },
  request: { params: RecoveryPath },
})

const Subscription = /* @__PURE__ */ lazy(() =>
  z.object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.enum(EVENT_TYPES)),
    status: z.enum(['ACTIVE', 'FAILED', 'DISABLED']),
    created_at: z.string(),
    failed_at: z.string().optional(),
    failing_since: z.string().optional().meta({
      description:
        'The first failed attempt since the last success; failing 5 days from then disables the subscription',
    }),
    disabled_at: z.string().optional(),
  }),
)
const Delivery = /* @__PURE__ */ lazy(() =>
  z.object({
    event_id: z.string(),
    event_type: z.enum(EVENT_TYPES),
    status: z.enum(['PENDING', 'DELIVERED', 'FAILED']),
    attempts: z.int(),
    last_http_status: z.int().nullable(),
    last_error: z.string().optional().meta({ description: 'As the log entry error' }),
    last_attempt_at: z.string().nullable(),
    next_attempt_at: z.string().nullable(),
    created_at: z.string(),
    delivered_at: z.string().optional(),
    log: z.array(
      z.object({
        at: z.string(),
        status: z.int().nullable(),
        error: z.string().optional().meta({
          description:
            '`HTTP <status>`, or the class of a failure: timeout, connection refused, TLS failure, DNS failure, destination not allowed',
        }),
      }),
    ),
  }),
)
const NOT_ADMIN = 'The API key lacks the ADMIN role'
const UNKNOWN_SUBSCRIPTION = 'No webhook subscription of your business has this id'

export const subscriptionCreateDocs = (): EndpointDocs => ({
  summary: 'Subscribe a URL to events (ADMIN)',
  description:
    'The reply holds the signing secret (`whsec_` + Base64 of 32 bytes) this once. Deliveries are signed per Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<Base64 HMAC-SHA256(secret, "{id}.{timestamp}.{body}")>`; the body is an IntegrationEvent. url must be https:// to a name or address that resolves only to public addresses (no loopback, private, link-local, carrier-grade NAT, unspecified, multicast or documentation ranges, in any numeric form); the address is checked again at each delivery. A local server also takes http:// to 127.0.0.1, localhost or [::1]. At most 16 subscriptions per business, and one per URL and event type.',
  example: { url: 'https://example.com/hooks/einvoice', events: ['invoice.signed'] },
  replies: () => ({
    201: {
      description: 'Subscribed; the secret is shown this once',
      data: Subscription().extend({ secret: z.string() }),
    },
    400: 'The body is invalid, or the url is not an allowed destination: the message says why',
    403: NOT_ADMIN,
    409: 'The business has 16 subscriptions already, or the URL already receives one of these events',
    503: 'Other changes to the subscriptions were being made at the same moment: nothing changed, try again',
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
    503: 'Other changes to the subscriptions were being made at the same moment: nothing changed, try again',
  }),
})

export const deliveriesListDocs = (): EndpointDocs => ({
  summary: "A subscription's delivery log (ADMIN)",
  description:
    "Newest first, `size` at a time (up to 200, default 50). The next page: pass `cursor` = the reply's `page.next_cursor` (null on the last page). Each log entry says `HTTP <status>` or the class of a failure, never a network error or a timing.",
  replies: () => ({
    200: {
      description: 'One page of deliveries',
      data: z.object({
        content: z.array(Delivery()),
        page: z.object({ size: z.int(), next_cursor: z.string().nullable() }),
      }),
    },
    400: 'The id, the size or the cursor is invalid',
    403: NOT_ADMIN,
    404: UNKNOWN_SUBSCRIPTION,
  }),
})

export const deliveryRedeliverDocs = (): EndpointDocs => ({
  summary: 'Send one event again (ADMIN)',
  description:
    'A new round of the retry schedule, same webhook-id. Already pending: 202, nothing added. At most 10 redeliveries of one event a day (UTC).',
  replies: () => ({
    202: {
      description: 'Queued (or already pending)',
      data: z.object({ event_id: z.string(), status: z.literal('PENDING') }),
    },
    400: 'The ids in the path are invalid',
    403: NOT_ADMIN,
    404: 'No delivery of this event to a subscription of your business',
    409: 'This event was already sent again 10 times today',
    503: 'The delivery queue is unavailable: nothing changed',
  }),
})

const Recovery = /* @__PURE__ */ lazy(() =>
  z.object({
    id: z.string().meta({ description: '`rcv_` + 32 hex digits' }),
    subscription_id: z.string(),
    state: z.enum(['RUNNING', 'COMPLETED', 'STOPPED']),
    since: z.string(),
    until: z.string().nullable(),
    events_scanned: z.int().meta({ description: 'Events of the window read so far (every type)' }),
    queued: z.int().meta({ description: 'Events queued to the subscription again, or for the first time' }),
    already_delivered: z.int(),
    already_pending: z.int().meta({ description: 'Events whose delivery was already on its way' }),
    created_at: z.string(),
    completed_at: z.string().nullable(),
    stopped_because: z.string().optional(),
  }),
)

export const subscriptionEnableDocs = (): EndpointDocs => ({
  summary: 'Enable a disabled subscription (ADMIN)',
  description:
    'A subscription whose deliveries have all failed for 5 days is DISABLED (the admin list is told once): no deliveries are made to it. This turns it back on (ACTIVE) for the events from now on; POST /api/v1/webhooks/{id}/recover then sends what it missed. One not disabled: 200, unchanged.',
  replies: () => ({
    200: { description: 'The subscription, ACTIVE', data: Subscription() },
    400: 'The id in the path is invalid',
    403: NOT_ADMIN,
    404: UNKNOWN_SUBSCRIPTION,
  }),
})

export const recoveryStartDocs = (): EndpointDocs => ({
  summary: 'Recover the events a subscription missed (ADMIN)',
  description:
    "A background task sends again every event of the window (`since`, `until` inclusive; `until` absent: up to now) of a type the subscription takes, made after it, that did not reach it: failed, or never attempted (the subscription was disabled). Each goes out with its original `webhook-id` and body through the same delivery worker, retries and per-host limits; delivered and pending ones are not sent again. One recovery at a time per subscription. The reply's task id is followed with GET .../recover/{task}.",
  example: { since: '2026-11-20T18:00:00+01:00' },
  replies: () => ({
    202: { description: 'The task, RUNNING', data: Recovery() },
    400: 'The id or the body is invalid, or since is after until',
    403: NOT_ADMIN,
    404: UNKNOWN_SUBSCRIPTION,
    409: 'A recovery of this subscription is already running, or the subscription is DISABLED (enable it first)',
  }),
})

export const recoveryStatusDocs = (): EndpointDocs => ({
  summary: "A recovery task's progress (ADMIN)",
  description:
    'Its state (RUNNING, COMPLETED, or STOPPED when the subscription was deleted or disabled meanwhile) and counts.',
  replies: () => ({
    200: { description: 'The task', data: Recovery() },
    400: 'The ids in the path are invalid',
    403: NOT_ADMIN,
    404: 'No such task of a subscription of your business',
  }),
})
