import { randomBytes } from 'node:crypto'
import { tableName } from '#lib/platform/db/client.ts'
import { queryAll } from '#lib/platform/db/query.ts'
import { recordOf } from '#lib/platform/db/items.ts'
import { withAttributes } from '#lib/platform/db/index-reads.ts'
import { EVENT_PREFIX, keys } from '#lib/platform/db/keys.ts'
import { LISTED, TTL_ATTRIBUTE } from '#lib/platform/db/table.ts'
import { currentMode } from '#lib/platform/mode.ts'
import type { EventData, EventType } from './schemas.ts'

/**
 * Integration events (CONTRACT section 11): the transactional outbox. Whoever changes a record puts
 * the change's event in the same TransactWriteItems (lib/invoice/repository.ts, lib/batches), so no
 * change is stored without its event and no event without its change. The table's stream then hands
 * each new event to the webhook fan-out (functions/webhooks/webhook-fan-out.ts), which is the only reader.
 */
export type { EventType } from './schemas.ts'

/** The payload every receiver gets, exactly as stored. */
export interface IntegrationEvent {
  /** `evt_` + time-ordered id: also the Standard Webhooks `webhook-id` of every attempt. */
  id: string
  type: EventType
  created_at: string
  business_id: string
  /** `test` on every event of test mode, so no receiver takes a sandbox event for a real one; absent when live. */
  mode?: 'test'
  data: Record<string, unknown>
}

export interface EventItem extends IntegrationEvent {
  entity: 'EVENT'
}

/**
 * Ids sort by creation time (milliseconds in base 36, fixed width) and end in 80 random bits, so two
 * events never share an id and a listing reads in order.
 */
export function newEventId(at: Date = new Date()): string {
  return `evt_${at.getTime().toString(36).padStart(9, '0')}${randomBytes(10).toString('hex')}`
}

/** `data` is typed by the event's schema (./schemas.ts), which the OpenAPI document publishes. */
export function newEvent<T extends EventType>(
  type: T,
  businessId: string,
  data: EventData<T>,
  at: string,
): IntegrationEvent {
  const id = newEventId(new Date(at))
  // CONTRACT 18: a test-mode event says so in its payload; a live payload is as it always was.
  const mode = currentMode() === 'test' ? { mode: 'test' as const } : {}
  return { id, type, created_at: at, business_id: businessId, ...mode, data }
}

/** CONTRACT 21: an event can be listed, fetched and recovered for at least this long. */
export const EVENT_RETENTION_DAYS = 90

/**
 * When DynamoDB's TTL may remove an event: EVENT_RETENTION_DAYS after it happened, counted from the
 * later of its time and now (a test-mode event's time runs ahead on its business's test clock).
 */
const expiryOf = (createdAt: string) =>
  Math.floor(Math.max(Date.now(), Date.parse(createdAt) || 0) / 1000) + EVENT_RETENTION_DAYS * 24 * 3600

/** The Put of one event, for the transaction of the change it reports. */
export function eventPut(event: IntegrationEvent) {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...keys.event(event.id),
        ...keys.eventByBusiness(event.business_id, event.created_at, event.id),
        ...keys.eventByType(event.business_id, event.type, event.created_at, event.id),
        entity: 'EVENT',
        ...event,
        [TTL_ATTRIBUTE]: expiryOf(event.created_at),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  }
}

export const isEventItem = (item: Record<string, unknown>): item is EventItem & Record<string, unknown> =>
  item.entity === 'EVENT' && typeof item.pk === 'string' && item.pk.startsWith(EVENT_PREFIX)

/** The event payload of a stored event item (keys and bookkeeping stripped). */
export function eventOf(item: Record<string, unknown>): IntegrationEvent {
  const { id, type, created_at, business_id, mode, data } = recordOf<EventItem>(item)
  return { id, type, created_at, business_id, ...(mode === 'test' ? { mode } : {}), data }
}

/** Every event of one business, oldest first (operations and tests). */
export async function eventsOfBusiness(businessId: string): Promise<IntegrationEvent[]> {
  const items = await queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.eventBusinessPartition(businessId) },
  })
  return (await withAttributes<Record<string, unknown>>('gsi1', LISTED.event, items)).map(eventOf)
}
