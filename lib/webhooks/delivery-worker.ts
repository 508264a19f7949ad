import { type QueueName, sendMessage } from '#lib/platform/async/queue.ts'
import { tableName } from '#lib/platform/db/client.ts'
import { transact } from '#lib/platform/db/transact.ts'
import type { IntegrationEvent } from '#lib/events/event.ts'
import { NotFound } from '#lib/platform/errors.ts'
import { logger } from '#lib/platform/log.ts'
import { currentMode } from '#lib/platform/mode.ts'
import { clockOffsetMs } from '#lib/platform/test-clock.ts'
import { adminNoticeItem } from '#lib/notifications/outbox.ts'
import { guardedRequest, outcomeOf } from '#lib/platform/net/request.ts'
import {
  type HostLease,
  hostOf,
  type LineEntry,
  moveLineQuietly,
  releaseHostSlot,
  takeHostSlot,
  waitForSlot,
} from './host-slots.ts'
import {
  type AttemptLog,
  claimAttempt,
  createDelivery,
  type Delivery,
  type Outcome,
  outcomeUpdate,
  readDelivery,
  recordOutcome,
  restartDelivery,
} from './delivery-records.ts'
import { disabledAfterFailure } from './health.ts'
import { nextWaitMs } from './schedule.ts'
import { signWebhook } from './signature.ts'
import {
  failSubscriptionItem,
  getSubscription,
  needsReactivation,
  ownSubscription,
  reactivate,
  type Subscription,
  signingSecretOf,
  subscriptionPage,
  takesDeliveries,
} from './subscriptions.ts'

/**
 * Webhook delivery (CONTRACT section 11), at least once, with the same webhook-id on every attempt.
 *
 * fanOut: an event (from the table's stream) -> one delivery per subscription that existed when it
 * happened and wants its type, each created once, and its first attempt queued. One call handles one
 * page of FAN_OUT_PAGE subscriptions and queues the next page as a message of its own, so the
 * stream's work per event is bounded whatever the count, and another business's events behind it
 * never wait on it (CONTRACT section 14).
 * attempt: one queued attempt -> a signed POST with a 5 s limit; a 2xx is DELIVERED; anything else
 * is retried on the schedule (lib/webhooks/schedule.ts) through the queue's delay, and once the
 * schedule is used up the delivery is FAILED, the subscription FAILED and the admin list told, in one
 * transaction (so the notice is sent once).
 */
export const DELIVERY_TIMEOUT_MS = 5000

/**
 * The queue of the work's mode (CONTRACT 18): test-mode attempts and fan-out pages have a queue and a
 * consumer of their own (webhook-deliver-test, with its own concurrency share, lib/service/consumers.ts),
 * so a sandbox burst never waits in front of live deliveries; their host slots are their own too
 * (lib/webhooks/host-slots.ts).
 */
export const deliveryQueue = (): QueueName =>
  currentMode() === 'test' ? 'webhook-test-deliveries' : 'webhook-deliveries'

export interface AttemptMessage {
  subscriptionId: string
  eventId: string
  /** The attempt count this message is for: a message whose count the delivery has passed is stale. */
  attempt: number
  /**
   * The delivery's business, in test mode: its test clock is then read beside the delivery, not
   * after it. Absent from live messages, and from test ones queued before it was added (then read after).
   */
  businessId?: string
  /**
   * Its place in the destination host's waiting line (lib/webhooks/host-slots.ts), once it has
   * waited there: written again (the slot it was handed taken by another), it keeps its place.
   */
  place?: string
  /** The host whose line queued it: a message that does not use its turn hands it on. */
  host?: string
  /** The slot a release handed it (lib/webhooks/host-slots.ts): it is this attempt's, not taken again. */
  lease?: HostLease
}

/** The attempt message of a delivery (the business rides along in test mode only). */
export const attemptMessage = (
  d: { subscriptionId: string; eventId: string; businessId: string },
  attempt: number,
): AttemptMessage => ({
  subscriptionId: d.subscriptionId,
  eventId: d.eventId,
  attempt,
  ...(currentMode() === 'test' ? { businessId: d.businessId } : {}),
})

/** Queues an attempt message now, or after `delaySeconds` (SQS hops of at most 15 minutes). */
export const queueAttempt = (message: AttemptMessage, delaySeconds = 0) =>
  sendMessage(deliveryQueue(), message, delaySeconds)

/** The next page of an event's fan-out: the subscriptions after `after` (a subscription's sort key). */
export interface FanOutMessage {
  kind: 'fan-out'
  event: IntegrationEvent
  after: string
}

/** What the delivery queue carries. */
export type DeliveryMessage = AttemptMessage | FanOutMessage

/** Subscriptions read per unit of fan-out work. */
export const FAN_OUT_PAGE = 10

/** Routes a delivery-queue message to its work. */
export const handleDeliveryMessage = (message: DeliveryMessage) =>
  'kind' in message ? fanOut(message.event, message.after) : attempt(message)

export async function fanOut(event: IntegrationEvent, after?: string): Promise<number> {
  const page = await subscriptionPage(event.business_id, FAN_OUT_PAGE, after)
  const subscriptions = page.subscriptions.filter(
    (s) => takesDeliveries(s) && s.createdAt <= event.created_at && s.events.includes(event.type),
  )
  for (const subscription of subscriptions) {
    const created = await createDelivery(subscription, event)
    // A repeated stream record finds the delivery made: it queues the first attempt again only if
    // that attempt has not happened (the earlier run may have stopped before queueing it).
    const delivery = created ? undefined : await readDelivery(subscription.id, event.id)
    if (created || (delivery?.status === 'PENDING' && delivery.attempts === 0)) {
      await queueAttempt(
        attemptMessage(
          { subscriptionId: subscription.id, eventId: event.id, businessId: event.business_id },
          0,
        ),
      )
    }
  }
  // After this page's deliveries: a retry of this page (idempotent) then queues the next page once.
  if (page.next)
    await sendMessage(deliveryQueue(), { kind: 'fan-out', event, after: page.next } satisfies FanOutMessage)
  return subscriptions.length
}

/**
 * Signed POST of the stored body under the destination policy (lib/platform/net/request.ts: the address
 * connected to is checked); only a 2xx within the limit counts. The log entry keeps the HTTP status or
 * the outcome class of a failure, never a network error code or a timing: with those a tenant could
 * map hosts it cannot reach itself.
 */
async function post(
  url: string,
  secret: string,
  d: Delivery,
  clock: DeliveryClock,
): Promise<{ ok: boolean; entry: AttemptLog }> {
  // The signature carries the real time (the receiver checks it against its own clock); the log, the
  // delivery's time (test time in test mode), as its nextAttemptAt is.
  const signedAt = new Date()
  const at = new Date(signedAt.getTime() + clock.offsetMs)
  const headers = signWebhook(secret, d.eventId, Math.floor(signedAt.getTime() / 1000), d.body)
  try {
    const res = await guardedRequest(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'einvoicing-webhooks/1', ...headers },
      body: d.body,
      timeoutMs: DELIVERY_TIMEOUT_MS,
    })
    const ok = res.status >= 200 && res.status < 300
    return {
      ok,
      entry: { at: at.toISOString(), status: res.status, ...(ok ? {} : { error: `HTTP ${res.status}` }) },
    }
  } catch (error) {
    return { ok: false, entry: { at: at.toISOString(), status: null, error: outcomeOf(error) } }
  }
}

/**
 * A URL as text for the operator's e-mail, never as a link (CONTRACT section 14): the scheme and dots
 * defanged (`hxxps://hooks[.]example[.]com/...`) so no mail client turns it into one, without its
 * query (which may carry the receiver's token), control characters dropped, 200 characters at most.
 */
export function asData(url: string): string {
  let text = url
  try {
    const u = new URL(url)
    text = `${u.protocol}//${u.host}${u.pathname}`
  } catch {}
  return text
    .replace(/\p{Cc}/gu, '')
    .slice(0, 200)
    .replace(/^http/i, 'hxxp')
    .replace(/:\/\//, '[://]')
    .replaceAll('.', '[.]')
}

const dayOf = (iso: string) => iso.slice(0, 10)

/**
 * The operator's notice of failing subscriptions: one per business per day (outbox reference
 * `WEBHOOKS-FAILED-<business>-<day>`), whatever the count of subscriptions that fail that day, so a
 * tenant cannot fill the admin list's mailboxes. Written as an update that creates the item only
 * once (if_not_exists on every attribute): its creation is the stream INSERT the outbox sender
 * sends; the day's later failures only add their subscription id to `subscriptionIds`, for
 * `npm run cli -- webhooks list`.
 */
function failureNoticeUpdate(subscription: Subscription, d: Delivery, outcome: Outcome) {
  const at = outcome.entry.at
  const notice = adminNoticeItem({
    reference: failureNoticeReference(subscription.businessId, at),
    createdAt: at,
    subject: `Webhook subscriptions of business ${subscription.businessId} FAILED on ${dayOf(at)}`,
    body: [
      `A webhook subscription of business ${subscription.businessId} is FAILED: ${subscription.id}.`,
      `Its destination, shown as data and not as a link: ${asData(subscription.url)}`,
      `Event ${d.eventId} (${d.eventType}) was tried ${d.attempts + 1} times over the whole retry schedule; the last attempt at ${at} got ${outcome.entry.error ?? 'no answer'}.`,
      'This is the one notice for this business today: other subscriptions of it that fail today are listed by `npm run cli -- webhooks list --business ' +
        subscription.businessId +
        '` (status FAILED).',
      'New events are still attempted and a successful delivery makes a subscription ACTIVE again. Failed deliveries can be sent again with POST /api/v1/webhooks/{id}/deliveries/{eventId}/redeliver or `npm run cli -- webhooks redeliver`.',
    ].join('\n'),
  })
  const { pk, sk, ...fields } = notice
  const names: Record<string, string> = { '#ids': 'subscriptionIds' }
  const values: Record<string, unknown> = { ':id': new Set([subscription.id]) }
  const sets = Object.entries(fields).map(([name, value], i) => {
    names[`#f${i}`] = name
    values[`:f${i}`] = value
    return `#f${i} = if_not_exists(#f${i}, :f${i})`
  })
  return {
    TableName: tableName(),
    Key: { pk, sk },
    UpdateExpression: `SET ${sets.join(', ')} ADD #ids :id`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  }
}

/** The outbox reference of a business's failure notice for the day of `at`. */
export const failureNoticeReference = (businessId: string, at: string) =>
  `WEBHOOKS-FAILED-${businessId}-${dayOf(at)}`

/**
 * The last failure of a round: the delivery FAILED and, if the subscription was ACTIVE, the
 * subscription FAILED with the admin notice, all in one transaction. A subscription already FAILED
 * (its admins were told) only gets the delivery marked.
 */
async function recordFailure(d: Delivery, subscription: Subscription, outcome: Outcome): Promise<void> {
  const outcomeOf = await transact({
    delivery: { Update: outcomeUpdate(d, outcome) },
    subscription: failSubscriptionItem(subscription, outcome.entry.at),
    notice: { Update: failureNoticeUpdate(subscription, d, outcome) },
  })
  if (outcomeOf.ok) {
    logger.warn('webhook subscription failed: admin list notified (once per business per day)', {
      subscriptionId: subscription.id,
      eventId: d.eventId,
    })
    return
  }
  // The delivery itself had moved on (another worker recorded this attempt): nothing to do.
  if (outcomeOf.failed.includes('delivery')) return
  // The subscription was not ACTIVE: record the delivery alone.
  if (outcomeOf.failed.includes('subscription')) {
    await recordOutcome(d, outcome)
    return
  }
  throw outcomeOf.error
}

export type AttemptResult = 'delivered' | 'retrying' | 'failed' | 'stale' | 'waiting'

/** A delivery whose subscription is gone (or DISABLED): its claimed attempt recorded FAILED, nothing sent. */
async function failDeleted(
  d: Delivery,
  clock: DeliveryClock,
  realNow: number,
  disabled = false,
): Promise<AttemptResult> {
  if (!(await claimAttempt(d, realNow))) return 'stale'
  const entry = {
    at: new Date(Date.now() + clock.offsetMs).toISOString(),
    status: null,
    error: disabled ? 'subscription disabled' : 'subscription deleted',
  }
  await recordOutcome(d, { status: 'FAILED', entry })
  return 'failed'
}

/**
 * The time a delivery's schedule runs on: the real time in live mode; in test mode its business's
 * test clock (lib/platform/test-clock.ts), `offsetMs` ahead. Claims stay in real time: they guard workers,
 * which run in real time.
 */
interface DeliveryClock {
  offsetMs: number
}

/** The delivery a message names and its clock: in test mode the clock is read too, beside it when the message says whose. */
async function readWithClock(
  message: AttemptMessage,
): Promise<{ d: Delivery | undefined; clock: DeliveryClock }> {
  if (currentMode() !== 'test')
    return { d: await readDelivery(message.subscriptionId, message.eventId), clock: { offsetMs: 0 } }
  const [d, known] = await Promise.all([
    readDelivery(message.subscriptionId, message.eventId),
    message.businessId ? clockOffsetMs({ business: message.businessId }) : undefined,
  ])
  const offsetMs = known ?? (d ? await clockOffsetMs({ business: d.businessId }) : 0)
  return { d, clock: { offsetMs } }
}

/** Runs the attempt a queue message names, if it is still due and still this worker's to make. */
export async function attempt(message: AttemptMessage, realNow = Date.now()): Promise<AttemptResult> {
  const slot = { handedOn: false }
  try {
    return await attemptHanded(message, realNow, slot)
  } finally {
    // Queued from the host's line and not using its turn (stale, not due, claimed by another run,
    // its subscription gone): the slot it was handed is released (and so handed on), or the line
    // moved, or the slot would idle.
    if (!slot.handedOn) await passTurnOn(message)
  }
}

async function passTurnOn(message: AttemptMessage): Promise<void> {
  try {
    if (message.lease) await releaseHostSlot(message.lease)
    else if (message.host) await moveLineQuietly(message.host, 1)
  } catch (error) {
    logger.warn('webhook host slot not released', { error: (error as Error).message })
  }
}

/** A handed lease this attempt may use: the host's, with time left for a whole attempt and its writes. */
const usableLease = (lease: HostLease | undefined, host: string): HostLease | undefined =>
  lease && lease.host === host && (lease.until ?? 0) - Date.now() > DELIVERY_TIMEOUT_MS + 10_000
    ? lease
    : undefined

/** The attempt itself; `slot.handedOn` once a host slot taken here (its release moves the line) or a place in the line makes it so. */
async function attemptHanded(
  message: AttemptMessage,
  realNow: number,
  slot: { handedOn: boolean },
): Promise<AttemptResult> {
  const { d, clock } = await readWithClock(message)
  if (d?.status !== 'PENDING' || d.attempts !== message.attempt) return 'stale'
  const now = realNow + clock.offsetMs
  const due = Date.parse(d.nextAttemptAt)
  if (due - now > 250) {
    // Not due yet: SQS delays at most 15 minutes, so longer waits are several hops.
    await sendMessage(deliveryQueue(), message, (due - now) / 1000)
    return 'waiting'
  }
  if (d.claimedUntil !== undefined && d.claimedUntil > realNow) {
    // Another run holds this attempt. If it records the attempt, this message is stale when it comes
    // back; if it died (or DynamoDB failed under it), the claim lapses and this message makes the
    // attempt. Dropping the message here would lose the delivery.
    await sendMessage(deliveryQueue(), message, (d.claimedUntil - realNow) / 1000)
    return 'waiting'
  }
  const subscription = await getSubscription(d.businessId, d.subscriptionId)
  if (!subscription || !takesDeliveries(subscription))
    return failDeleted(d, clock, realNow, subscription?.status === 'DISABLED')
  // One of the destination host's slots first: with all of them held, the attempt waits in the
  // host's line until a release hands it a slot, and its count does not move.
  const host = hostOf(subscription.url)
  const handed = usableLease(message.lease, host)
  // A handed slot too near its end (a message that waited long) is let go, and handed on.
  if (message.lease && !handed) await passTurnOn(message)
  slot.handedOn = true
  const lease = handed ?? (await takeHostSlot(host, realNow))
  if (!lease) {
    await waitInLine(host, message, realNow)
    return 'waiting'
  }
  let result: { ok: boolean; entry: AttemptLog }
  try {
    if (!(await claimAttempt(d, realNow))) return 'stale'
    result = await post(subscription.url, await signingSecretOf(subscription), d, clock)
  } finally {
    await releaseHostSlot(lease)
  }
  return afterAttempt(d, subscription, result, clock)
}

/** What an attempt made leads to: delivered, failed for good (or the subscription disabled), or the next attempt queued. */
async function afterAttempt(
  d: Delivery,
  subscription: Subscription,
  result: { ok: boolean; entry: AttemptLog },
  clock: Awaited<ReturnType<typeof readWithClock>>['clock'],
): Promise<AttemptResult> {
  const { ok, entry } = result
  if (ok) {
    await recordOutcome(d, { status: 'DELIVERED', entry })
    if (needsReactivation(subscription)) await reactivate(subscription)
    return 'delivered'
  }
  // Failing for the whole health window: disabled, this attempt recorded FAILED (lib/webhooks/health.ts).
  if (await disabledAfterFailure(subscription, d, entry)) return 'failed'
  const failedInRound = d.attempts + 1 - d.roundStart
  if (currentMode() === 'test') return retryInTestTime(d, subscription, entry, failedInRound, clock)
  const wait = nextWaitMs(failedInRound)
  if (wait === undefined) {
    await recordFailure(d, subscription, { status: 'FAILED', entry })
    return 'failed'
  }
  // This attempt is recorded before the next one is queued: a message queued first could arrive
  // before the record and be dropped as stale, and the delivery would stay PENDING for good (issue
  // 33). Should the queueing fail after the record, the overdue sweep
  // (lib/webhooks/overdue-sweep.ts) queues the attempt again. A record lost to another worker queues nothing: that worker queues.
  const nextAttemptAt = new Date(Date.now() + wait).toISOString()
  if (await recordOutcome(d, { status: 'PENDING', entry, nextAttemptAt }))
    await sendMessage(deliveryQueue(), attemptMessage(d, d.attempts + 1), wait / 1000)
  return 'retrying'
}

/** An attempt's place in its host's line: its first wait's time, then the delivery (unique per attempt). */
const placeOf = (message: AttemptMessage, realNow: number) =>
  message.place ??
  `${new Date(realNow).toISOString()}#${message.subscriptionId}#${message.eventId}#${message.attempt}`

/** An attempt as an entry of its host's line (`place` and `host` set): it takes a slot when queued. */
export const lineEntry = (message: AttemptMessage & { place: string; host: string }): LineEntry => ({
  place: message.place,
  queue: deliveryQueue(),
  body: message,
  fills: true,
})

/** Writes an attempt into its host's waiting line (lib/webhooks/host-slots.ts), queued again when a slot frees. */
export function waitInLine(host: string, message: AttemptMessage, realNow = Date.now()): Promise<void> {
  const place = placeOf(message, realNow)
  const { lease: _handed, ...rest } = message
  return waitForSlot(host, lineEntry({ ...rest, place, host }), realNow)
}

/**
 * A failed test-mode attempt's next step, on the business's test clock. The schedule is kept as it
 * would have run had the time passed: each retry's slot is the previous slot plus its wait (the first
 * attempt of a round counts from when it ran), without jitter, so an integrator can tell when each
 * attempt comes. After a clock advance the slots the jump passed are due at once: each attempt queues
 * the next with no delay, until the schedule is used up and the delivery FAILS, through the same
 * queue and this same worker as in AWS.
 *
 * A retry is recorded before it is queued (a queued-first message would race the record and find
 * itself stale); should the queueing fail after the record, the business's next clock advance
 * queues every due delivery (lib/webhooks/due-sweep.ts), and the overdue sweep
 * (lib/webhooks/overdue-sweep.ts) any delivery left overdue.
 */
async function retryInTestTime(
  d: Delivery,
  subscription: Subscription,
  entry: AttemptLog,
  failedInRound: number,
  clock: DeliveryClock,
): Promise<AttemptResult> {
  const wait = nextWaitMs(failedInRound, undefined, () => 0.5)
  if (wait === undefined) {
    await recordFailure(d, subscription, { status: 'FAILED', entry })
    return 'failed'
  }
  const from = d.attempts === d.roundStart ? Date.parse(entry.at) : Date.parse(d.nextAttemptAt)
  const next = from + wait
  const delayMs = next - (Date.now() + clock.offsetMs)
  const message = attemptMessage(d, d.attempts + 1)
  const nextAttemptAt = new Date(next).toISOString()
  if (await recordOutcome(d, { status: 'PENDING', entry, nextAttemptAt }))
    await sendMessage(deliveryQueue(), message, Math.max(0, delayMs) / 1000)
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
  await queueAttempt(attemptMessage({ subscriptionId, eventId, businessId }, attemptNumber))
  return true
}
