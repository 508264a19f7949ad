import * as z from 'zod'
import { EVENT_PREFIX } from '#lib/platform/db/keys.ts'
import { type EndpointDocs, endpointsOf } from '#lib/platform/http/endpoint.ts'
import { EVENT_SCHEMAS, EVENT_TYPES } from '#lib/events/schemas.ts'
import { EventPath, EventsQuery } from '#lib/events/request-schemas.ts'
import { BUSINESS_ADMIN, reads } from './common.ts'

/** The events API (CONTRACT 21; docs/events.md in prose): a business's integration events, kept 90 days. */

const events = /* @__PURE__ */ endpointsOf({ domain: 'events', ...BUSINESS_ADMIN })

export const eventList = /* @__PURE__ */ events({
  functionId: 'event-list',
  routes: [{ method: 'GET', path: '/events' }],
  // The business's listing (gsi1) or its listing of one type (gsi2); the items are the events themselves.
  access: { table: [reads([EVENT_PREFIX, 'EVENTS#'], ['gsi1', 'gsi2'])] },
  request: { query: EventsQuery },
})

export const eventGet = /* @__PURE__ */ events({
  functionId: 'event-get',
  routes: [{ method: 'GET', path: '/events/{id}' }],
  access: { table: [reads([EVENT_PREFIX])] },
  request: { params: EventPath },
})

const AnyEvent = () => z.union(EVENT_TYPES.map((type) => EVENT_SCHEMAS[type]))
const NOT_ADMIN = 'The API key lacks the ADMIN role'

export const eventListDocs = (): EndpointDocs => ({
  summary: "The business's events (ADMIN)",
  description:
    "Every integration event of the caller's business in the key's mode (live or test), newest first, kept at least 90 days: each exactly the payload its webhook deliveries carry (the same `id`, which is their `webhook-id`), whether or not a subscription received it. Filters: `type` (one event type), `since` and `until` (date-times with their offset, both inclusive). `size` at a time (up to 200, default 50); the next page: pass `cursor` = the reply's `page.next_cursor` (null on the last page). A page reads its own events and one more, whatever the filters.",
  replies: () => ({
    200: {
      description: 'One page of events',
      data: z.object({
        content: z.array(AnyEvent()),
        page: z.object({ size: z.int(), next_cursor: z.string().nullable() }),
      }),
    },
    400: 'A filter, the size or the cursor is invalid, or since is after until',
    403: NOT_ADMIN,
  }),
})

export const eventGetDocs = (): EndpointDocs => ({
  summary: 'One event (ADMIN)',
  description:
    "The event with this id, as its deliveries carry it, if it belongs to the caller's business and the key's mode.",
  replies: () => ({
    200: { description: 'The event', data: AnyEvent() },
    400: 'The id is not an event id',
    403: NOT_ADMIN,
    404: "No event with this id for the caller's business in this mode",
  }),
})
