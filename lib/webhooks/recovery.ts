import { randomBytes } from 'node:crypto'
import { appendAudit } from '#lib/platform/audit/trail.ts'
import { sendMessage } from '#lib/platform/async/queue.ts'
import { tableName } from '#lib/platform/db/client.ts'
import { readRecord } from '#lib/platform/db/items.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { transact } from '#lib/platform/db/transact.ts'
import { writeIf } from '#lib/platform/db/write.ts'
import { BadRequest, Conflict, NotFound } from '#lib/platform/errors.ts'
import { logger } from '#lib/platform/log.ts'
import type { IntegrationEvent } from '#lib/events/event.ts'
import { eventPage } from '#lib/events/queries.ts'
import { createDelivery, readDelivery, resumeDelivery } from './delivery-records.ts'
import { type AttemptMessage, attemptMessage, lineEntry } from './delivery-worker.ts'
import { heldSlots, hostOf, LEASE_MS, type LineEntry, waitForSlots } from './host-slots.ts'
import {
  claimRecoveryItem,
  getSubscription,
  ownSubscription,
  recoveryHoldItem,
  type Subscription,
  takesDeliveries,
} from './subscriptions.ts'

/**
 * Bulk recovery (CONTRACT 21): POST /api/v1/webhooks/{id}/recover {since, until?} stores a task and
 * queues its first page; the `webhook-recover` consumer (lib/service/consumers.ts) reads the business's
 * events of the window oldest first, RECOVERY_PAGE at a time (lib/events/queries.ts), and for each one
 * the subscription takes (its type, made after the subscription) that did not reach it:
 *   - no delivery (the subscription was DISABLED, or the fan-out skipped it): the delivery is made now;
 *   - a FAILED delivery: a new round of its schedule;
 * each with its first attempt put in the destination host's waiting line (lib/webhooks/host-slots.ts),
 * from which the delivery worker (lib/webhooks/delivery-worker.ts) is handed it as a slot frees, so it goes
 * out with its original body and webhook-id, under the same per-host limits and retries. DELIVERED and
 * PENDING deliveries are left as they are: a receiver deduplicating by webhook-id gets nothing twice.
 * The task counts what it did; it holds the subscription's recovery slot, so one runs at a time per
 * subscription (a hold lapses after RECOVERY_HOLD_MS without progress, so a lost task does not block).
 *
 * Paced by the receiver (issue 46): the next page is not queued at once but is itself an entry of the
 * host's line, a quarter of the way into the page's attempts, so it is read when the slots have
 * drained that far: the line holds about a page ahead, whatever the window's size, and a recovery of
 * 10,000 events goes at the pace the receiver answers. A watch message (WATCH_SECONDS later, again
 * while the page waits) reads the next page itself if no slot of the host is held: the line has
 * stopped (its entries' holders died, or the next page's entry was lost), and nothing else would move it.
 */
export const RECOVERY_QUEUE = 'webhook-recoveries'
/** Events read per unit of recovery work (one queue message). */
export const RECOVERY_PAGE = 100
const RECOVERY_HOLD_MS = 15 * 60_000

export type RecoveryState = 'RUNNING' | 'COMPLETED' | 'STOPPED'

interface RecoveryTask {
  id: string
  businessId: string
  subscriptionId: string
  since: string
  until?: string
  state: RecoveryState
  /** The sort key of the last event handled (`<created_at>#<id>`); absent before the first page. */
  position?: string
  scanned: number
  queued: number
  delivered: number
  pending: number
  createdAt: string
  completedAt?: string
  stoppedBecause?: string
}

export interface RecoveryMessage {
  businessId: string
  subscriptionId: string
  taskId: string
  /** The task's position this message is for (absent: the first page); another position's is stale. */
  position?: string
  /** A watch (see above): it reads the page only if the host's line has stopped. */
  watch?: boolean
}

/** How long a watch waits before it looks at the host's line: a lease's length (a dead holder's slot is free by then). */
const WATCH_SECONDS = LEASE_MS / 1000
/** Where in a page's attempts the next page's entry goes: a quarter in, so it is read while 3/4 still wait. */
const NEXT_PAGE_AT = RECOVERY_PAGE / 4

export const recoveryView = (t: RecoveryTask) => ({
  id: t.id,
  subscription_id: t.subscriptionId,
  state: t.state,
  since: t.since,
  until: t.until ?? null,
  events_scanned: t.scanned,
  queued: t.queued,
  already_delivered: t.delivered,
  already_pending: t.pending,
  created_at: t.createdAt,
  completed_at: t.completedAt ?? null,
  ...(t.stoppedBecause ? { stopped_because: t.stoppedBecause } : {}),
})

const readTask = (businessId: string, subscriptionId: string, taskId: string) =>
  readRecord<RecoveryTask>(keys.webhookRecoveryTask(businessId, subscriptionId, taskId), {
    consistent: true,
  })

/** POST .../recover: the task, stored with the subscription's recovery slot, and its first page queued. */
export async function startRecovery(
  businessId: string,
  subscriptionId: string,
  window: { since: string; until?: string },
  actor: string,
) {
  if (window.until && window.since > window.until) throw new BadRequest('since must not be after until')
  const subscription = await ownSubscription(businessId, subscriptionId)
  if (subscription.status === 'DISABLED')
    throw new Conflict(
      `Webhook subscription ${subscriptionId} is DISABLED: enable it first (POST /api/v1/webhooks/${subscriptionId}/enable), then recover`,
    )
  const now = Date.now()
  const task: RecoveryTask = {
    id: `rcv_${randomBytes(16).toString('hex')}`,
    businessId,
    subscriptionId,
    since: window.since,
    ...(window.until ? { until: window.until } : {}),
    state: 'RUNNING',
    scanned: 0,
    queued: 0,
    delivered: 0,
    pending: 0,
    createdAt: new Date(now).toISOString(),
  }
  const outcome = await transact({
    slot: claimRecoveryItem(subscription, task.id, now, now + RECOVERY_HOLD_MS),
    task: {
      Put: {
        TableName: tableName(),
        Item: {
          ...keys.webhookRecoveryTask(businessId, subscriptionId, task.id),
          entity: 'WEBHOOK_RECOVERY',
          ...task,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  })
  if (!outcome.ok) {
    if (!outcome.failed.includes('slot')) throw outcome.error
    const held = await getSubscription(businessId, subscriptionId)
    throw new Conflict(
      held?.recoveryTaskId
        ? `A recovery of webhook subscription ${subscriptionId} is already running (task ${held.recoveryTaskId}): one at a time; see GET /api/v1/webhooks/${subscriptionId}/recover/${held.recoveryTaskId}`
        : `Webhook subscription ${subscriptionId} changed meanwhile: try again`,
    )
  }
  await sendMessage(RECOVERY_QUEUE, { businessId, subscriptionId, taskId: task.id } satisfies RecoveryMessage)
  await appendAudit({
    type: 'WEBHOOK_RECOVERY_STARTED',
    actor,
    subject: { kind: 'WEBHOOK', id: subscriptionId },
    businessId,
    detail: { task: task.id, since: task.since, until: task.until ?? '' },
  })
  return recoveryView(task)
}

/** GET .../recover/{task}: the task of this business's subscription, else 404. */
export async function recoveryStatus(businessId: string, subscriptionId: string, taskId: string) {
  await ownSubscription(businessId, subscriptionId)
  const task = await readTask(businessId, subscriptionId, taskId)
  if (!task) throw new NotFound(`No recovery task ${taskId} of webhook subscription ${subscriptionId}`)
  return recoveryView(task)
}

type Handled = 'queued' | 'delivered' | 'pending'

/** One event of the window, for the subscription: its delivery made or restarted (its attempt to queue), or left. */
async function recoverOne(
  subscription: Subscription,
  event: IntegrationEvent,
): Promise<{ handled: Handled; attempt?: AttemptMessage }> {
  const d = { subscriptionId: subscription.id, eventId: event.id, businessId: subscription.businessId }
  if (await createDelivery(subscription, event)) return { handled: 'queued', attempt: attemptMessage(d, 0) }
  const delivery = await readDelivery(subscription.id, event.id)
  if (!delivery || delivery.status === 'DELIVERED') return { handled: 'delivered' }
  if (delivery.status === 'PENDING') return { handled: 'pending' }
  if (!(await resumeDelivery(delivery))) return { handled: 'pending' }
  return { handled: 'queued', attempt: attemptMessage(d, delivery.attempts) }
}

/**
 * A page's attempts, in event order, as entries of the host's line, with the next page's entry (when
 * there is one) a quarter of the way in: it fills no slot, it only waits its turn.
 */
function lineEntries(
  host: string,
  attempts: AttemptMessage[],
  next: RecoveryMessage | undefined,
  now: number,
): LineEntry[] {
  const at = new Date(now).toISOString()
  const entries: LineEntry[] = attempts.map((a, i) => {
    const place = `${at}#${String(i).padStart(4, '0')}#${a.subscriptionId}#${a.eventId}#${a.attempt}`
    return lineEntry({ ...a, place, host })
  })
  if (next) {
    // '~' sorts after '#': just behind the attempt at NEXT_PAGE_AT (or the last, on a short page).
    const behind = String(Math.min(NEXT_PAGE_AT, attempts.length - 1)).padStart(4, '0')
    entries.push({ place: `${at}#${behind}~${next.taskId}`, queue: RECOVERY_QUEUE, body: next, fills: false })
  }
  return entries
}

const wanted = (subscription: Subscription) => (event: IntegrationEvent) =>
  subscription.events.includes(event.type) && subscription.createdAt <= event.created_at

/** The update that records one page of a task: only from the position it started at, while RUNNING. */
function progressUpdate(
  task: RecoveryTask,
  counts: Record<Handled | 'scanned', number>,
  position: string | undefined,
  done: { state: RecoveryState; at: string; because?: string } | undefined,
) {
  const sets = ['scanned = scanned + :scanned', 'queued = queued + :queued']
  sets.push('delivered = delivered + :delivered', '#pending = #pending + :pending')
  const values: Record<string, unknown> = {
    ':scanned': counts.scanned,
    ':queued': counts.queued,
    ':delivered': counts.delivered,
    ':pending': counts.pending,
    ':running': 'RUNNING',
  }
  if (position) {
    sets.push('#position = :position')
    values[':position'] = position
  }
  if (done) {
    sets.push('#state = :state', 'completedAt = :at')
    values[':state'] = done.state
    values[':at'] = done.at
    if (done.because) {
      sets.push('stoppedBecause = :because')
      values[':because'] = done.because
    }
  }
  if (task.position) values[':seen'] = task.position
  return {
    TableName: tableName(),
    Key: keys.webhookRecoveryTask(task.businessId, task.subscriptionId, task.id),
    UpdateExpression: `SET ${sets.join(', ')}`,
    ConditionExpression: `#state = :running AND ${task.position ? '#position = :seen' : 'attribute_not_exists(#position)'}`,
    ExpressionAttributeNames: { '#state': 'state', '#position': 'position', '#pending': 'pending' },
    ExpressionAttributeValues: values,
  }
}

/** Ends a task (its last counts with it) and releases the subscription's slot, if it still holds it. */
async function finish(
  task: RecoveryTask,
  counts: Record<Handled | 'scanned', number>,
  position: string | undefined,
  done: { state: RecoveryState; at: string; because?: string },
): Promise<void> {
  const update = progressUpdate(task, counts, position, done)
  const outcome = await transact({
    task: { Update: update },
    slot: recoveryHoldItem({ businessId: task.businessId, id: task.subscriptionId }, task.id),
  })
  if (outcome.ok || outcome.failed.includes('task')) return
  // The slot lapsed and another recovery took it: the task ends alone.
  await writeIf({ Update: update })
}

/**
 * One unit of a recovery (a queue message): the next page of the window handled, the task's counts
 * and position moved with the slot's hold in one transaction, then the page's attempts and the next
 * page's entry put in the host's line; the last page completes the task. A message for another
 * position than the task's (a repeat, a watch or an entry of a page already read) does nothing (the
 * deliveries a repeat would make or restart are found made, never sent twice).
 */
export async function recoverPage(message: RecoveryMessage): Promise<void> {
  const task = await readTask(message.businessId, message.subscriptionId, message.taskId)
  if (task?.state !== 'RUNNING' || task.position !== message.position) return
  const zero = { scanned: 0, queued: 0, delivered: 0, pending: 0 }
  const subscription = await getSubscription(task.businessId, task.subscriptionId)
  if (!subscription || !takesDeliveries(subscription)) {
    const because = `the subscription is ${subscription?.status ?? 'DELETED'}`
    await finish(task, zero, undefined, { state: 'STOPPED', at: new Date().toISOString(), because })
    return
  }
  const host = hostOf(subscription.url)
  if (message.watch && (await heldSlots(host, Date.now(), true)).size > 0) {
    // The line is moving: its releases bring the next page's entry. Look again later.
    await sendMessage(RECOVERY_QUEUE, message, WATCH_SECONDS)
    return
  }
  const after = task.position ? parsePosition(task.position) : undefined
  const page = await eventPage(
    task.businessId,
    { since: task.since, ...(task.until ? { until: task.until } : {}) },
    { size: RECOVERY_PAGE, order: 'oldest', ...(after ? { after } : {}) },
  )
  const results = await Promise.all(
    page.events.filter(wanted(subscription)).map((e) => recoverOne(subscription, e)),
  )
  const counts = { ...zero, scanned: page.events.length }
  for (const r of results) counts[r.handled] += 1
  const attempts = results.flatMap((r) => (r.attempt ? [r.attempt] : []))
  const last = page.events[page.events.length - 1]
  const position = last ? `${last.created_at}#${last.id}` : undefined
  if (!page.more) {
    await finish(task, counts, position, { state: 'COMPLETED', at: new Date().toISOString() })
    if (attempts.length) await waitForSlots(host, lineEntries(host, attempts, undefined, Date.now()))
    logger.info('webhook recovery completed', { taskId: task.id, subscriptionId: task.subscriptionId })
    return
  }
  const next: RecoveryMessage = {
    businessId: task.businessId,
    subscriptionId: task.subscriptionId,
    taskId: task.id,
    ...(position ? { position } : {}),
  }
  // The watch is queued before the task moves: should this run stop after the move, the watch
  // finds the line stopped and reads the next page (the deliveries left PENDING go to the overdue sweep).
  if (attempts.length) await sendMessage(RECOVERY_QUEUE, { ...next, watch: true }, WATCH_SECONDS)
  const moved = await transact({
    task: { Update: progressUpdate(task, counts, position, undefined) },
    slot: recoveryHoldItem(subscription, task.id, Date.now() + RECOVERY_HOLD_MS),
  })
  if (!moved.ok && moved.failed.includes('task')) return
  if (!moved.ok && !moved.failed.includes('slot')) throw moved.error
  // Nothing of this page to deliver: nothing to wait behind, the next page at once.
  if (!attempts.length) await sendMessage(RECOVERY_QUEUE, next)
  else await waitForSlots(host, lineEntries(host, attempts, next, Date.now()))
}

const parsePosition = (position: string) => {
  const hash = position.lastIndexOf('#')
  return { created_at: position.slice(0, hash), id: position.slice(hash + 1) }
}
