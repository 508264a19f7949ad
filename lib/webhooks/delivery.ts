import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb'
import { sendMessage } from '#lib/async/queue.ts'
import { db, tableName } from '#lib/db/client.ts'
import { transactionCancellationCodes } from '#lib/db/errors.ts'
import { keys } from '#lib/db/keys.ts'
import type { IntegrationEvent } from '#lib/events/event.ts'
import { NotFound } from '#lib/errors.ts'
import { logger } from '#lib/log.ts'
import { adminNoticeItem } from '#lib/notifications/outbox.ts'
import {
  claimAttempt,
  createDelivery,
  type Delivery,
  type Outcome,
  outcomeUpdate,
  readDelivery,
  recordOutcome,
  restartDelivery,
} from './deliveries.ts'
import { failureReason } from './probe.ts'
import { nextWaitMs } from './schedule.ts'
import { signWebhook } from './signature.ts'
import {
  getSubscription,
  ownSubscription,
  reactivate,
  type Subscription,
  signingSecretOf,
  subscriptionsOf,
} from './subscriptions.ts'

/**
 * Webhook delivery (CONTRACT section 11), at least once, with the same webhook-id on every attempt.
 *
 * fanOut: an event (from the table's stream) -> one delivery per subscription that existed when it
 * happened and wants its type, each created once, and its first attempt queued.
 * attempt: one queued attempt -> a signed POST with a 5 s limit; a 2xx is DELIVERED; anything else
 * is retried on the schedule (lib/webhooks/schedule.ts) through the queue's delay, and once the
 * schedule is used up the delivery is FAILED, the subscription FAILED and the admin list told, in one
 * transaction (so the notice is sent once).
 */
export const DELIVERY_TIMEOUT_MS = 5000
const QUEUE = 'webhook-deliveries'

export interface AttemptMessage {
  subscriptionId: string
  eventId: string
  /** The attempt count this message is for: a message whose count the delivery has passed is stale. */
  attempt: number
}

export async function fanOut(event: IntegrationEvent): Promise<number> {
  const subscriptions = (await subscriptionsOf(event.business_id)).filter(
    (s) => s.status !== 'DELETED' && s.createdAt <= event.created_at && s.events.includes(event.type),
  )
  for (const subscription of subscriptions) {
    const created = await createDelivery(subscription, event)
    // A repeated stream record finds the delivery made: it queues the first attempt again only if
    // that attempt has not happened (the earlier run may have stopped before queueing it).
    const delivery = created ? undefined : await readDelivery(subscription.id, event.id)
    if (created || (delivery?.status === 'PENDING' && delivery.attempts === 0)) {
      await sendMessage(QUEUE, { subscriptionId: subscription.id, eventId: event.id, attempt: 0 })
    }
  }
  return subscriptions.length
}

/** Signed POST of the stored body; only a 2xx within the limit counts. */
async function post(url: string, secret: string, d: Delivery) {
  const started = performance.now()
  const at = new Date()
  const headers = signWebhook(secret, d.eventId, Math.floor(at.getTime() / 1000), d.body)
  const entry = (status: number | null, error?: string) => ({
    at: at.toISOString(),
    status,
    ms: Math.round(performance.now() - started),
    ...(error ? { error } : {}),
  })
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'einvoicing-webhooks/1', ...headers },
      body: d.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    })
    await res.body?.cancel()
    const ok = res.status >= 200 && res.status < 300
    return { ok, entry: entry(res.status, ok ? undefined : `HTTP ${res.status}`) }
  } catch (error) {
    return { ok: false, entry: entry(null, failureReason(error, DELIVERY_TIMEOUT_MS)) }
  }
}

/** Where a URL points, without its query (which may carry the receiver's own token). */
const shown = (url: string) => {
  const u = new URL(url)
  return `${u.origin}${u.pathname}`
}

/**
 * The last failure of a round: the delivery FAILED and, if the subscription was ACTIVE, the
 * subscription FAILED with the admin notice, all in one transaction. A subscription already FAILED
 * (its admins were told) only gets the delivery marked.
 */
async function recordFailure(d: Delivery, subscription: Subscription, outcome: Outcome): Promise<void> {
  const deliveryWrite = { Update: outcomeUpdate(d, outcome) }
  const at = outcome.entry.at
  const notice = adminNoticeItem({
    reference: `WEBHOOK-${subscription.id}-${d.eventId}`,
    createdAt: at,
    subject: `Webhook subscription ${subscription.id} FAILED (business ${subscription.businessId})`,
    body: [
      `The webhook subscription ${subscription.id} of business ${subscription.businessId}, delivering to ${shown(subscription.url)}, is FAILED.`,
      `Event ${d.eventId} (${d.eventType}) was tried ${d.attempts + 1} times over the whole retry schedule; the last attempt at ${at} got ${outcome.entry.error ?? 'no answer'}.`,
      'New events are still attempted and a successful delivery makes the subscription ACTIVE again. Failed deliveries can be sent again with POST /api/v1/webhooks/{id}/deliveries/{eventId}/redeliver or `npm run cli -- webhooks redeliver`.',
    ].join('\n'),
  })
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          deliveryWrite,
          {
            Update: {
              TableName: tableName(),
              Key: keys.webhookSubscription(subscription.businessId, subscription.id),
              UpdateExpression: 'SET #status = :failed, failedAt = :at',
              ConditionExpression: '#status = :active',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':failed': 'FAILED', ':active': 'ACTIVE', ':at': at },
            },
          },
          { Put: { TableName: tableName(), Item: notice, ConditionExpression: 'attribute_not_exists(pk)' } },
        ],
      }),
    )
    logger.warn('webhook subscription failed: admin list notified', {
      subscriptionId: subscription.id,
      eventId: d.eventId,
    })
  } catch (error) {
    const codes = transactionCancellationCodes(error)
    // The subscription was not ACTIVE: record the delivery alone.
    if (codes && codes[0] === 'None' && codes[1] === 'ConditionalCheckFailed') {
      await recordOutcome(d, outcome)
      return
    }
    // The delivery itself had moved on (another worker recorded this attempt): nothing to do.
    if (codes?.[0] === 'ConditionalCheckFailed') return
    throw error
  }
}

export type AttemptResult = 'delivered' | 'retrying' | 'failed' | 'stale' | 'waiting'

/** Runs the attempt a queue message names, if it is still due and still this worker's to make. */
export async function attempt(message: AttemptMessage, now = Date.now()): Promise<AttemptResult> {
  const d = await readDelivery(message.subscriptionId, message.eventId)
  if (d?.status !== 'PENDING' || d.attempts !== message.attempt) return 'stale'
  const due = Date.parse(d.nextAttemptAt)
  if (due - now > 250) {
    // Not due yet: SQS delays at most 15 minutes, so longer waits are several hops.
    await sendMessage(QUEUE, message, (due - now) / 1000)
    return 'waiting'
  }
  if (d.claimedUntil !== undefined && d.claimedUntil > now) {
    // Another run holds this attempt. If it records the attempt, this message is stale when it comes
    // back; if it died (or DynamoDB failed under it), the claim lapses and this message makes the
    // attempt. Dropping the message here would lose the delivery.
    await sendMessage(QUEUE, message, (d.claimedUntil - now) / 1000)
    return 'waiting'
  }
  if (!(await claimAttempt(d, now))) return 'stale'
  const subscription = await getSubscription(d.businessId, d.subscriptionId)
  if (!subscription || subscription.status === 'DELETED') {
    const entry = { at: new Date().toISOString(), status: null, ms: 0, error: 'subscription deleted' }
    await recordOutcome(d, { status: 'FAILED', entry })
    return 'failed'
  }
  const { ok, entry } = await post(subscription.url, await signingSecretOf(subscription), d)
  if (ok) {
    await recordOutcome(d, { status: 'DELIVERED', entry })
    if (subscription.status === 'FAILED') await reactivate(subscription)
    return 'delivered'
  }
  const wait = nextWaitMs(d.attempts + 1 - d.roundStart)
  if (wait === undefined) {
    await recordFailure(d, subscription, { status: 'FAILED', entry })
    return 'failed'
  }
  // The next attempt is queued before this one is recorded: if queueing fails, this message is
  // retried and the attempt made again (at least once); the other order could lose the chain.
  await sendMessage(QUEUE, { ...message, attempt: d.attempts + 1 }, wait / 1000)
  const nextAttemptAt = new Date(Date.now() + wait).toISOString()
  await recordOutcome(d, { status: 'PENDING', entry, nextAttemptAt })
  return 'retrying'
}

/**
 * A new round of the schedule for one event's delivery (same webhook-id). True when an attempt was
 * queued; false when the delivery was already pending (its attempt is on its way).
 */
export async function redeliver(
  businessId: string,
  subscriptionId: string,
  eventId: string,
): Promise<boolean> {
  const subscription = await ownSubscription(businessId, subscriptionId)
  const d = await readDelivery(subscription.id, eventId)
  if (!d) throw new NotFound(`No delivery of event ${eventId} to webhook subscription ${subscriptionId}`)
  const attemptNumber = await restartDelivery(d)
  if (attemptNumber === undefined) return false
  await sendMessage(QUEUE, { subscriptionId, eventId, attempt: attemptNumber } satisfies AttemptMessage)
  return true
}
