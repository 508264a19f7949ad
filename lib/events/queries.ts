import { queryPage } from '#lib/platform/db/query.ts'
import { readRecord } from '#lib/platform/db/items.ts'
import { withAttributes } from '#lib/platform/db/index-reads.ts'
import { indexNamed, LISTED } from '#lib/platform/db/table.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { BadRequest, NotFound } from '#lib/platform/errors.ts'
import { type EventItem, eventOf, type IntegrationEvent } from './event.ts'
import type { EventType } from './types.ts'

/**
 * The events API (CONTRACT 21): a business's events, as stored (the payload every delivery of them
 * carries), for as long as they are kept (EVENT_RETENTION_DAYS). Listed from the business's index
 * partition (gsi1, or gsi2 for one type), in time order, so a page reads its own items and one more
 * whatever the filters: since and until bound the index's sort key, and the type picks the partition.
 * The keys are the caller's mode's (lib/platform/db/keys.ts), so the other mode's events are never read.
 */

/** The sort key an event is listed under: its time, then its id. */
const sortKeyOf = (e: Pick<IntegrationEvent, 'created_at' | 'id'>) => `${e.created_at}#${e.id}`

const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z)#(evt_[0-9a-z]{9}[0-9a-f]{20})$/
const BAD_CURSOR = 'cursor is not one this API gave: use page.next_cursor of the previous reply'

export const encodeEventCursor = (e: Pick<IntegrationEvent, 'created_at' | 'id'>) =>
  Buffer.from(sortKeyOf(e)).toString('base64url')

/** The position a cursor names, or a 400 when it is not one this service handed out. */
export function decodeEventCursor(cursor: string): { created_at: string; id: string } {
  const match = CURSOR.exec(Buffer.from(cursor, 'base64url').toString('utf8'))
  if (!match) throw new BadRequest(BAD_CURSOR)
  return { created_at: match[1]!, id: match[2]! }
}

export interface EventWindow {
  type?: EventType
  /** ISO instants, both inclusive. */
  since?: string
  until?: string
}

/** Every sort key sorts after this and before the next: an instant as the lower or upper bound. */
const LOWEST = '0000-01-01T00:00:00.000Z'
const HIGHEST = '9999-12-31T23:59:59.999Z~'

/**
 * One page of `size` events of the business in `window`, newest first (`order: 'newest'`, the API)
 * or oldest first (a recovery), after the cursor's position. `more` when a next page may exist.
 */
export async function eventPage(
  businessId: string,
  window: EventWindow,
  options: { size: number; after?: { created_at: string; id: string }; order: 'newest' | 'oldest' },
): Promise<{ events: IntegrationEvent[]; more: boolean }> {
  const index = window.type ? 'gsi2' : 'gsi1'
  const { partitionKey, sortKey } = indexNamed(index)
  const partition = window.type
    ? keys.eventTypePartition(businessId, window.type)
    : keys.eventBusinessPartition(businessId)
  let lo = window.since ?? LOWEST
  let hi = window.until ? `${window.until}#~` : HIGHEST
  const after = options.after
  if (after) {
    // The cursor's own position bounds the range on the side the listing moves away from, so the
    // start key is always inside the key condition (DynamoDB refuses one outside it).
    if (options.order === 'newest') hi = hi < sortKeyOf(after) ? hi : sortKeyOf(after)
    else lo = lo > sortKeyOf(after) ? lo : sortKeyOf(after)
  }
  if (lo > hi) return { events: [], more: false }
  const startInRange = after && sortKeyOf(after) >= lo && sortKeyOf(after) <= hi
  const query: Parameters<typeof queryPage>[0] = {
    IndexName: index,
    KeyConditionExpression: `${partitionKey} = :pk AND ${sortKey} BETWEEN :lo AND :hi`,
    ExpressionAttributeValues: { ':pk': partition, ':lo': lo, ':hi': hi },
    ScanIndexForward: options.order === 'oldest',
    ...(after && startInRange
      ? {
          ExclusiveStartKey: {
            ...keys.event(after.id),
            [partitionKey]: partition,
            [sortKey]: sortKeyOf(after),
          },
        }
      : {}),
  }
  const page = await queryPage(query, options.size)
  const events = await withAttributes<Record<string, unknown>>(index, LISTED.event, page.items)
  return { events: events.map(eventOf), more: page.more }
}

/** GET /api/v1/events: a page and the cursor of the next one (null on the last page). */
export async function listEvents(
  businessId: string,
  window: EventWindow,
  options: { size: number; cursor?: string },
) {
  if (window.since && window.until && window.since > window.until)
    throw new BadRequest('since must not be after until')
  const after = options.cursor ? decodeEventCursor(options.cursor) : undefined
  const page = await eventPage(businessId, window, { size: options.size, after, order: 'newest' })
  const last = page.events[page.events.length - 1]
  return {
    content: page.events,
    page: { size: options.size, next_cursor: page.more && last ? encodeEventCursor(last) : null },
  }
}

/** GET /api/v1/events/{id}: the business's own event in the caller's mode, else 404 (nothing revealed). */
export async function getEvent(businessId: string, eventId: string): Promise<IntegrationEvent> {
  const item = await readRecord<EventItem>(keys.event(eventId), { consistent: true })
  if (!item || item.business_id !== businessId) throw new NotFound(`No event ${eventId} for your business`)
  return eventOf(item as unknown as Record<string, unknown>)
}
