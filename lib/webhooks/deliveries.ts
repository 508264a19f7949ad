import {
  PutCommand,
  QueryCommand,
  type QueryCommandInput,
  type QueryCommandOutput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb'
import { db, tableName } from '#lib/db/client.ts'
import { isConditionFailed } from '#lib/db/errors.ts'
import { readRecord, recordOf } from '#lib/db/items.ts'
import { keys } from '#lib/db/keys.ts'
import type { EventType, IntegrationEvent } from '#lib/events/event.ts'
import { TTL_ATTRIBUTE } from '#lib/db/table.ts'
import type { Subscription } from './subscriptions.ts'

/**
 * The delivery log: one item per (subscription, event), created once by the fan-out and moved by the
 * delivery worker (lib/webhooks/delivery.ts). `attempts` only grows; a message names the attempt it is
 * for, so a stale or duplicate message (an SQS redelivery, a fan-out repeated by the stream) finds
 * the count moved on and does nothing. `roundStart` is the attempt count when this round of the
 * retry schedule began (creation, or a redelivery).
 */
export type DeliveryStatus = 'PENDING' | 'DELIVERED' | 'FAILED'
export const DELIVERY_STATUSES: DeliveryStatus[] = ['PENDING', 'DELIVERED', 'FAILED']

export interface AttemptLog {
  at: string
  /** The receiver's HTTP status; null when there was no answer (refused, timed out). */
  status: number | null
  ms: number
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
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.webhookDelivery(subscription.id, event.id),
          ...statusKeys(delivery, 'PENDING'),
          entity: 'WEBHOOK_DELIVERY',
          ...delivery,
          [TTL_ATTRIBUTE]: Math.floor(Date.now() / 1000) + RETENTION_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    )
    return true
  } catch (error) {
    if (isConditionFailed(error)) return false
    throw error
  }
}

/** Takes attempt number `attempts` of a PENDING delivery; false when another worker has it or it moved on. */
export async function claimAttempt(d: Delivery, now = Date.now()): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
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
      }),
    )
    return true
  } catch (error) {
    if (isConditionFailed(error)) return false
    throw error
  }
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
    sets.push('nextAttemptAt = :nextAt')
    values[':nextAt'] = outcome.nextAttemptAt
  }
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
  try {
    await db().send(new UpdateCommand(outcomeUpdate(d, outcome)))
    return true
  } catch (error) {
    if (isConditionFailed(error)) return false
    throw error
  }
}

/**
 * Starts a new round of the schedule for a DELIVERED or FAILED delivery (same event, same
 * webhook-id). Returns the attempt number to queue, or undefined when it is already PENDING (its
 * next attempt is already on its way).
 */
export async function restartDelivery(d: Delivery): Promise<number | undefined> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.webhookDelivery(d.subscriptionId, d.eventId),
        UpdateExpression:
          'SET #status = :pending, roundStart = attempts, nextAttemptAt = :now, gsi1pk = :gsi1pk REMOVE failedAt, claimedUntil',
        ConditionExpression: '#status <> :pending AND attempts = :n',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':pending': 'PENDING',
          ':now': new Date().toISOString(),
          ':n': d.attempts,
          ':gsi1pk': statusKeys(d, 'PENDING').gsi1pk,
        },
      }),
    )
    return d.attempts
  } catch (error) {
    if (isConditionFailed(error)) return undefined
    throw error
  }
}

/** A delivery as GET .../deliveries shows it. */
export function deliveryView(d: Delivery) {
  return {
    event_id: d.eventId,
    event_type: d.eventType,
    status: d.status,
    attempts: d.attempts,
    last_http_status: d.lastStatus ?? null,
    ...(d.lastError ? { last_error: d.lastError } : {}),
    last_attempt_at: d.lastAttemptAt ?? null,
    next_attempt_at: d.status === 'PENDING' ? d.nextAttemptAt : null,
    created_at: d.createdAt,
    ...(d.deliveredAt ? { delivered_at: d.deliveredAt } : {}),
    log: d.log,
  }
}

/**
 * One page of a subscription's deliveries, newest first, optionally of one status (its own index
 * partition, so no filtering). Pages are 1-based in the request and the reply, as merchant history (issue 11);
 * reaching page n reads the n-1 pages before it and the total is a COUNT query, both bounded by the
 * 30-day retention of the log.
 */
export async function listDeliveries(
  subscriptionId: string,
  options: { status?: DeliveryStatus; page: number; size: number },
) {
  const base: QueryCommandInput = options.status
    ? {
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: {
          ':pk': keys.webhookDeliveryStatusPartition(subscriptionId, options.status),
        },
      }
    : {
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.webhookDeliveryPartition(subscriptionId) },
      }
  let total = 0
  let start: Record<string, unknown> | undefined
  do {
    const out = await db().send(new QueryCommand({ ...base, Select: 'COUNT', ExclusiveStartKey: start }))
    total += out.Count ?? 0
    start = out.LastEvaluatedKey
  } while (start)
  const skip = (options.page - 1) * options.size
  const items: Delivery[] = []
  let seen = 0
  start = undefined
  // Newest first: the base partition sorts by event id (time-ordered), the index by creation time.
  while (items.length < options.size && seen < skip + options.size) {
    const out: QueryCommandOutput = await db().send(
      new QueryCommand({
        ...base,
        ScanIndexForward: false,
        Limit: skip + options.size - seen,
        ExclusiveStartKey: start,
      }),
    )
    for (const item of out.Items ?? []) {
      if (seen++ >= skip) items.push(recordOf<Delivery>(item))
    }
    start = out.LastEvaluatedKey
    if (!start) break
  }
  return {
    content: items.map(deliveryView),
    page: {
      size: options.size,
      // 0-based, as merchant history replies it (CONTRACT section 7): request page 1 is number 0.
      number: options.page - 1,
      totalElements: total,
      totalPages: Math.ceil(total / options.size),
    },
  }
}
