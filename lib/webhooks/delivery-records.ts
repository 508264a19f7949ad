import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb'
import { tableName } from '#lib/platform/db/client.ts'
import { queryPage } from '#lib/platform/db/query.ts'
import { writeIf } from '#lib/platform/db/write.ts'
import { readRecord, recordOf } from '#lib/platform/db/items.ts'
import { keys } from '#lib/platform/db/keys.ts'
import type { EventType, IntegrationEvent } from '#lib/events/event.ts'
import { withAttributes } from '#lib/platform/db/index-reads.ts'
import { LISTED, TTL_ATTRIBUTE } from '#lib/platform/db/table.ts'
import { BadRequest, Conflict } from '#lib/platform/errors.ts'
import type { Subscription } from './subscriptions.ts'

/**
 * The delivery log: one item per (subscription, event), created once by the fan-out and moved by the
 * delivery worker (lib/webhooks/delivery-worker.ts). `attempts` only grows; a message names the attempt it is
 * for, so a stale or duplicate message (an SQS redelivery, a fan-out repeated by the stream) finds
 * the count moved on and does nothing. `roundStart` is the attempt count when this round of the
 * retry schedule began (creation, or a redelivery).
 */
export type DeliveryStatus = 'PENDING' | 'DELIVERED' | 'FAILED'

export interface AttemptLog {
  at: string
  /** The receiver's HTTP status; null when there was no answer (refused, timed out). */
  status: number | null
  /**
   * `HTTP <status>` or the outcome class of a failure (lib/platform/net/request.ts: timeout, connection
   * refused, TLS failure, DNS failure, destination not allowed). No network error codes and no
   * timings: the log is the tenant's, and those would map hosts it cannot reach.
   */
  error?: string
}

export interface Delivery {
  subscriptionId: string
  businessId: string
  eventId: string
  eventType: EventType
  /** The exact bytes sent on every attempt (the signature covers them). */
  body: string
  status: DeliveryStatus
  attempts: number
  roundStart: number
  nextAttemptAt: string
  createdAt: string
  lastAttemptAt?: string
  lastStatus?: number | null
  lastError?: string
  deliveredAt?: string
  failedAt?: string
  /** While an attempt runs: until when (epoch ms) its claim holds. */
  claimedUntil?: number
  /** The UTC day of the last redelivery request, and how many were made that day. */
  redeliveryDay?: string
  redeliveriesToday?: number
  log: AttemptLog[]
}

/** Kept 30 days, then DynamoDB's TTL removes the log entry. */
const RETENTION_SECONDS = 30 * 24 * 3600
/** The attempt log keeps the latest entries only (the item stays small whatever the schedule). */
export const LOG_LIMIT = 20
/** Longer than one attempt (5 s) with its writes; shorter than the queue's visibility timeout. */
export const CLAIM_MS = 60_000

const statusKeys = (d: Pick<Delivery, 'subscriptionId' | 'createdAt' | 'eventId'>, status: DeliveryStatus) =>
  keys.webhookDeliveryByStatus(d.subscriptionId, status, d.createdAt, d.eventId)

/** The index stripes of PENDING deliveries by due time (keys.webhookDeliveryDue). */
export const DUE_STRIPES = 4
const dueKeys = (d: Pick<Delivery, 'subscriptionId' | 'eventId'>, nextAttemptAt: string) => {
  let hash = 0
  for (const c of d.eventId) hash = (hash * 31 + c.charCodeAt(0)) >>> 0
  return keys.webhookDeliveryDue(hash % DUE_STRIPES, nextAttemptAt, d.subscriptionId, d.eventId)
}

export const readDelivery = (subscriptionId: string, eventId: string) =>
  readRecord<Delivery>(keys.webhookDelivery(subscriptionId, eventId), { consistent: true })

/** The delivery of an event to a subscription; false when it already existed. */
export async function createDelivery(subscription: Subscription, event: IntegrationEvent): Promise<boolean> {
  const now = new Date().toISOString()
  const delivery: Delivery = {
    subscriptionId: subscription.id,
    businessId: subscription.businessId,
    eventId: event.id,
    eventType: event.type,
    body: JSON.stringify(event),
    status: 'PENDING',
    attempts: 0,
    roundStart: 0,
    nextAttemptAt: now,
    createdAt: now,
    log: [],
  }
  const created = await writeIf({
    Put: {
      Item: {
        ...keys.webhookDelivery(subscription.id, event.id),
        ...statusKeys(delivery, 'PENDING'),
        ...dueKeys(delivery, now),
        entity: 'WEBHOOK_DELIVERY',
        ...delivery,
        [TTL_ATTRIBUTE]: Math.floor(Date.now() / 1000) + RETENTION_SECONDS,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  })
  return created.written
}

/**
 * Takes attempt number `attempts` of a PENDING delivery, in one conditional update: false when
 * another worker holds it (its claim not lapsed) or the delivery moved on.
 */
export async function claimAttempt(d: Delivery, now = Date.now()): Promise<boolean> {
  const claimed = await writeIf({
    Update: {
      Key: keys.webhookDelivery(d.subscriptionId, d.eventId),
      UpdateExpression: 'SET claimedUntil = :until',
      ConditionExpression:
        '#status = :pending AND attempts = :n AND (attribute_not_exists(claimedUntil) OR claimedUntil < :now)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':pending': 'PENDING',
        ':n': d.attempts,
        ':until': now + CLAIM_MS,
        ':now': now,
      },
    },
  })
  return claimed.written
}

export interface Outcome {
  status: DeliveryStatus
  entry: AttemptLog
  nextAttemptAt?: string
}

/**
 * The update that records one attempt: attempts + 1, the log entry, the new status (moving the item
 * to that status's listing). Conditional on the attempt still being the one claimed.
 */
export function outcomeUpdate(d: Delivery, outcome: Outcome) {
  const log = [...d.log, outcome.entry].slice(-LOG_LIMIT)
  const values: Record<string, unknown> = {
    ':status': outcome.status,
    ':n': d.attempts,
    ':next': d.attempts + 1,
    ':pending': 'PENDING',
    ':at': outcome.entry.at,
    ':code': outcome.entry.status,
    ':log': log,
    ':gsi1pk': statusKeys(d, outcome.status).gsi1pk,
  }
  const sets = [
    '#status = :status',
    'attempts = :next',
    'lastAttemptAt = :at',
    'lastStatus = :code',
    '#log = :log',
    'gsi1pk = :gsi1pk',
  ]
  const removes = ['claimedUntil']
  if (outcome.entry.error) {
    sets.push('lastError = :error')
    values[':error'] = outcome.entry.error
  } else removes.push('lastError')
  if (outcome.status === 'PENDING') {
    const due = dueKeys(d, outcome.nextAttemptAt!)
    sets.push('nextAttemptAt = :nextAt', 'gsi2pk = :duePk', 'gsi2sk = :dueSk')
    values[':nextAt'] = outcome.nextAttemptAt
    values[':duePk'] = due.gsi2pk
    values[':dueSk'] = due.gsi2sk
  } else removes.push('gsi2pk', 'gsi2sk')
  if (outcome.status === 'DELIVERED') sets.push('deliveredAt = :at')
  if (outcome.status === 'FAILED') sets.push('failedAt = :at')
  return {
    TableName: tableName(),
    Key: keys.webhookDelivery(d.subscriptionId, d.eventId),
    UpdateExpression: `SET ${sets.join(', ')} REMOVE ${removes.join(', ')}`,
    ConditionExpression: '#status = :pending AND attempts = :n',
    ExpressionAttributeNames: { '#status': 'status', '#log': 'log' },
    ExpressionAttributeValues: values,
  }
}

/** Records an attempt; false when the claim was lost meanwhile (another worker recorded it). */
export async function recordOutcome(d: Delivery, outcome: Outcome): Promise<boolean> {
  return (await writeIf({ Update: outcomeUpdate(d, outcome) })).written
}

/** CONTRACT section 14: one event is sent again at most this many times a day (UTC). */
export const MAX_REDELIVERIES_PER_DAY = 10

/**
 * Starts a new round of the schedule for a DELIVERED or FAILED delivery (same event, same
 * webhook-id), counting it against the day's MAX_REDELIVERIES_PER_DAY in the same conditional update
 * (no read or write more than before). Returns the attempt number to queue, or undefined when it is
 * already PENDING (its next attempt is already on its way). Over the day's allowance: Conflict (409).
 */
export async function restartDelivery(d: Delivery, now = new Date()): Promise<number | undefined> {
  const today = now.toISOString().slice(0, 10)
  const used = d.redeliveryDay === today ? (d.redeliveriesToday ?? 0) : 0
  if (d.status !== 'PENDING' && used >= MAX_REDELIVERIES_PER_DAY) {
    throw new Conflict(
      `Event ${d.eventId} was already sent again ${used} times today, the most allowed (${MAX_REDELIVERIES_PER_DAY} a day, UTC): try again after midnight UTC`,
    )
  }
  // What was read must still hold: two requests racing cannot both count as the same one.
  const seen =
    d.redeliveryDay === undefined
      ? 'attribute_not_exists(redeliveryDay)'
      : 'redeliveryDay = :seenDay AND redeliveriesToday = :seenCount'
  const restarted = await writeIf({
    Update: {
      Key: keys.webhookDelivery(d.subscriptionId, d.eventId),
      UpdateExpression:
        'SET #status = :pending, roundStart = attempts, nextAttemptAt = :now, gsi1pk = :gsi1pk, gsi2pk = :duePk, gsi2sk = :dueSk, redeliveryDay = :today, redeliveriesToday = :count REMOVE failedAt, claimedUntil',
      ConditionExpression: `#status <> :pending AND attempts = :n AND ${seen}`,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':pending': 'PENDING',
        ':now': now.toISOString(),
        ':n': d.attempts,
        ':gsi1pk': statusKeys(d, 'PENDING').gsi1pk,
        ':duePk': dueKeys(d, now.toISOString()).gsi2pk,
        ':dueSk': dueKeys(d, now.toISOString()).gsi2sk,
        ':today': today,
        ':count': used + 1,
        ...(d.redeliveryDay === undefined
          ? {}
          : { ':seenDay': d.redeliveryDay, ':seenCount': d.redeliveriesToday ?? 0 }),
      },
    },
  })
  return restarted.written ? d.attempts : undefined
}

/**
 * A new round of the schedule for a FAILED delivery on behalf of a recovery (lib/webhooks/recovery.ts):
 * as restartDelivery, without counting against the day's redeliveries (the recovery is one request).
 * True when this call restarted it (the caller queues attempt number `d.attempts`).
 */
export async function resumeDelivery(d: Delivery, now = new Date()): Promise<boolean> {
  const resumed = await writeIf({
    Update: {
      Key: keys.webhookDelivery(d.subscriptionId, d.eventId),
      UpdateExpression:
        'SET #status = :pending, roundStart = attempts, nextAttemptAt = :now, gsi1pk = :gsi1pk REMOVE failedAt, claimedUntil',
      ConditionExpression: '#status = :failed AND attempts = :n',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':pending': 'PENDING',
        ':failed': 'FAILED',
        ':now': now.toISOString(),
        ':n': d.attempts,
        ':gsi1pk': statusKeys(d, 'PENDING').gsi1pk,
      },
    },
  })
  return resumed.written
}

const OUTCOME =
  /^(HTTP \d{3}|timeout|connection refused|TLS failure|DNS failure|destination not allowed|subscription deleted|subscription disabled)$/

/**
 * What a log entry may tell the tenant. Entries written before the outcome classes may hold a raw
 * network error code and a timing: those show as `connection refused`, without the time.
 */
const entryView = (e: AttemptLog) => ({
  at: e.at,
  status: e.status,
  ...(e.error ? { error: OUTCOME.test(e.error) ? e.error : 'connection refused' } : {}),
})

/** A delivery as GET .../deliveries shows it. */
export function deliveryView(d: Delivery) {
  const lastError = d.lastError ? entryView({ at: '', status: null, error: d.lastError }).error : undefined
  return {
    event_id: d.eventId,
    event_type: d.eventType,
    status: d.status,
    attempts: d.attempts,
    last_http_status: d.lastStatus ?? null,
    ...(lastError ? { last_error: lastError } : {}),
    last_attempt_at: d.lastAttemptAt ?? null,
    next_attempt_at: d.status === 'PENDING' ? d.nextAttemptAt : null,
    created_at: d.createdAt,
    ...(d.deliveredAt ? { delivered_at: d.deliveredAt } : {}),
    log: d.log.map(entryView),
  }
}

/** A page's cursor: the last item's creation time and event id, which place it in either listing. */
const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z)#(evt_[0-9a-z]{9}[0-9a-f]{20})$/

export const encodeCursor = (d: Pick<Delivery, 'createdAt' | 'eventId'>) =>
  Buffer.from(`${d.createdAt}#${d.eventId}`).toString('base64url')

/** The cursor's position, or a 400 when it is not one this service handed out. */
export function decodeCursor(cursor: string): { createdAt: string; eventId: string } {
  const match = CURSOR.exec(Buffer.from(cursor, 'base64url').toString('utf8'))
  if (!match)
    throw new BadRequest('cursor is not one this API gave: use page.next_cursor of the previous reply')
  return { createdAt: match[1]!, eventId: match[2]! }
}

/**
 * One page of a subscription's deliveries, newest first, optionally of one status (its own index
 * partition, so no filtering). A page reads `size + 1` items at most, whatever the log's length:
 * the extra one only says whether there is a next page, whose cursor (`page.next_cursor`, the page's
 * last item) the next request passes. No count of the partition and no skipping (CONTRACT
 * section 14): a deep page costs what the first does.
 */
export async function listDeliveries(
  subscriptionId: string,
  options: { status?: DeliveryStatus; size: number; cursor?: string },
) {
  const after = options.cursor ? decodeCursor(options.cursor) : undefined
  const base: QueryCommandInput = options.status
    ? {
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: {
          ':pk': keys.webhookDeliveryStatusPartition(subscriptionId, options.status),
        },
        ...(after
          ? {
              ExclusiveStartKey: {
                ...keys.webhookDelivery(subscriptionId, after.eventId),
                ...keys.webhookDeliveryByStatus(
                  subscriptionId,
                  options.status,
                  after.createdAt,
                  after.eventId,
                ),
              },
            }
          : {}),
      }
    : {
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.webhookDeliveryPartition(subscriptionId) },
        ...(after ? { ExclusiveStartKey: keys.webhookDelivery(subscriptionId, after.eventId) } : {}),
      }
  // Newest first: the base partition sorts by event id (time-ordered), the index by creation time.
  const page = await queryPage({ ...base, ScanIndexForward: false }, options.size)
  const listed = options.status
    ? await withAttributes<Record<string, unknown>>('gsi1', LISTED.delivery, page.items)
    : page.items
  const shown = listed.map((item) => recordOf<Delivery>(item))
  const more = page.more
  return {
    content: shown.map(deliveryView),
    page: {
      size: options.size,
      next_cursor: more ? encodeCursor(shown[shown.length - 1]!) : null,
    },
  }
}
