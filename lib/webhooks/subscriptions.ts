import { createHash, randomUUID } from 'node:crypto'
import { GetCommand } from '@aws-sdk/lib-dynamodb'
import { appendAudit } from '#lib/platform/audit/trail.ts'
import { decryptField, encryptField } from '#lib/platform/crypto/fields.ts'
import { db, tableName } from '#lib/platform/db/client.ts'
import { queryAll, queryPage } from '#lib/platform/db/query.ts'
import { AGAIN, withRetries } from '#lib/platform/db/retry.ts'
import {
  type Cancelled,
  type NamedItems,
  type TransactItem,
  type Transacted,
  transact,
} from '#lib/platform/db/transact.ts'
import { writeIf } from '#lib/platform/db/write.ts'
import { readRecord, recordOf } from '#lib/platform/db/items.ts'
import { keys } from '#lib/platform/db/keys.ts'
import type { EventType } from '#lib/events/event.ts'
import { Conflict, DependencyDown, NotFound } from '#lib/platform/errors.ts'
import { checkDestination } from '#lib/platform/net/destination.ts'
import { newWebhookSecret } from './signature.ts'

/**
 * A business's webhook subscriptions (CONTRACT section 11): one item each in the business's
 * partition. The signing secret is shown once, at creation, and stored encrypted (lib/platform/crypto/fields.ts)
 * with its record and field as context. A subscription whose delivery used up the retry schedule is
 * FAILED (the admin list is told, lib/webhooks/delivery-worker.ts) but still receives new events; its next
 * successful delivery makes it ACTIVE again. DELETE marks it DELETED: no new deliveries, and pending
 * ones stop at their next attempt. Its item moves out of the live ones' sort key prefix (CONTRACT 18),
 * so churn never adds to what the fan-out and the due sweep read: a record DELETED in place is one
 * deleted before that, which every reader still skips.
 */
export type SubscriptionStatus = 'ACTIVE' | 'FAILED' | 'DISABLED' | 'DELETED'

export interface Subscription {
  id: string
  businessId: string
  url: string
  events: EventType[]
  status: SubscriptionStatus
  /** enc:v1:... (never in a reply after creation, never logged). */
  secret: string
  createdAt: string
  failedAt?: string
  deletedAt?: string
  /**
   * The time (its delivery clock's) of the first failed attempt since the last success (CONTRACT 21):
   * failing for the health window from then disables the subscription (lib/webhooks/health.ts).
   */
  failingSince?: string
  /** DISABLED since (no deliveries until POST .../enable). */
  disabledAt?: string
  /** The recovery running for it (lib/webhooks/recovery.ts): one at a time; the hold lapses if it stalls. */
  recoveryTaskId?: string
  recoveryHeldUntil?: number
  /** Made with its count and destination guards (every subscription since CONTRACT section 14). */
  counted?: boolean
  /** Made before the count, and counted in it since (`countEarlierSubscriptions`); it has no guards. */
  inCount?: boolean
}

/** What GET /webhooks lists: everything but the secret. */
export interface SubscriptionView {
  id: string
  url: string
  events: EventType[]
  status: SubscriptionStatus
  created_at: string
  failed_at?: string
  failing_since?: string
  disabled_at?: string
}

export const viewOf = (s: Subscription): SubscriptionView => ({
  id: s.id,
  url: s.url,
  events: s.events,
  status: s.status,
  created_at: s.createdAt,
  ...(s.failedAt ? { failed_at: s.failedAt } : {}),
  ...(s.failingSince ? { failing_since: s.failingSince } : {}),
  ...(s.disabledAt ? { disabled_at: s.disabledAt } : {}),
})

const secretContext = (id: string) => ({ record: 'webhook-subscription', id, field: 'secret' })

/** CONTRACT section 14: a 17th subscription of one business is refused. */
export const MAX_SUBSCRIPTIONS = 16

/**
 * The destination policy (lib/platform/net/destination.ts): `https://` to public addresses only (names
 * resolved now, and again at each delivery); plain `http://` only to this machine, and only outside
 * AWS (stage `local`), so tests and `npm start` can deliver to a receiver on 127.0.0.1. A 400 saying
 * what is wrong otherwise.
 */
export const checkUrl = (url: string, stage?: string): Promise<string> => checkDestination(url, stage)

/**
 * A transaction on the business's count item: two made at once may cancel each other
 * (TransactionConflict, which the SDK does not retry), so it is tried again a few times after a short
 * random wait; still conflicting, it is a 503 to try again (nothing was written). A failed condition
 * is the caller's to read, by item name.
 */
async function transactOnCount<I extends NamedItems>(items: I): Promise<Transacted<keyof I & string>> {
  return withRetries(
    async () => {
      const outcome = await transact(items)
      return !outcome.ok && outcome.conflict ? AGAIN : outcome
    },
    {
      attempts: 5,
      baseMs: 20,
      capMs: 400,
      exhausted: () => {
        throw new DependencyDown(
          'Other changes to your webhook subscriptions were being made at the same moment: nothing changed, try again',
        )
      },
    },
  )
}

/** The destination guards' key part: the URL as given, hashed (a URL may be up to 2,048 characters). */
const urlHash = (url: string) => createHash('sha256').update(url).digest('base64url')

/** What refused a create: the count (17th subscription) or a guard (the URL already takes one of the events). */
async function refusalOf(
  refused: Cancelled<'count' | 'subscription' | 'guards'>,
  businessId: string,
  url: string,
  events: EventType[],
): Promise<Error | undefined> {
  if (refused.failed.includes('count'))
    return new Conflict(
      `Your business has ${MAX_SUBSCRIPTIONS} webhook subscriptions, the most it may have: delete one (DELETE /api/v1/webhooks/{id}) before adding another`,
    )
  const taken = events.filter((_, i) => refused.positions.guards?.includes(i))
  if (taken.length) {
    const guard = await readRecord<{ subscriptionId: string }>(
      keys.webhookDestinationGuard(businessId, urlHash(url), taken[0]!),
      { consistent: true },
    )
    return new Conflict(
      `This URL already receives ${taken.join(', ')} through webhook subscription ${guard?.subscriptionId ?? '(another)'}: one subscription per URL and event, so no event is delivered twice`,
    )
  }
  return undefined
}

/**
 * A new subscription, in one transaction with what bounds it: the business's count goes up by one
 * only while it is below MAX_SUBSCRIPTIONS (a conditional write on one counter item, not a query
 * that two concurrent creates could both pass), and one guard per event type claims (URL, event)
 * for this subscription.
 */
export async function createSubscription(
  businessId: string,
  input: { url: string; events: EventType[] },
  actor: string,
): Promise<SubscriptionView & { secret: string }> {
  await checkUrl(input.url)
  const id = `wh_${randomUUID().replaceAll('-', '')}`
  const secret = newWebhookSecret()
  const events = [...new Set(input.events)]
  const subscription: Subscription = {
    id,
    businessId,
    url: input.url,
    events,
    status: 'ACTIVE',
    secret: await encryptField(secret, secretContext(id)),
    createdAt: new Date().toISOString(),
    counted: true,
  }
  const create = () => transactOnCount(creationItems(subscription, urlHash(input.url)))
  await withRetries(
    async () => {
      const outcome = await create()
      if (outcome.ok) return true
      // Refused by the count: full, or not including earlier subscriptions yet (the business's first
      // create since, or its first at all: count them, then try again), or made so by a concurrent
      // create just now (try again). Anything else refused it.
      const count = outcome.failed.includes('count') ? await readCount(businessId) : undefined
      if (!count || (count.includesEarlier && count.subscriptions >= MAX_SUBSCRIPTIONS))
        throw (await refusalOf(outcome, businessId, input.url, events)) ?? outcome.error
      if (!count.includesEarlier) await countEarlierSubscriptions(businessId)
      return AGAIN
    },
    {
      attempts: 5,
      baseMs: 0,
      exhausted: () => {
        throw new DependencyDown(
          'Your webhook subscriptions were being counted by another request at the same moment: nothing changed, try again',
        )
      },
    },
  )
  await appendAudit({
    type: 'WEBHOOK_SUBSCRIBED',
    actor,
    subject: { kind: 'WEBHOOK', id },
    businessId,
    after: 'ACTIVE',
    detail: { url: input.url, events: subscription.events.join(',') },
  })
  return { ...viewOf(subscription), secret }
}

/**
 * A new subscription's items: the count's conditional increment, the subscription, and one guard per
 * event claiming (URL, event) for it.
 */
function creationItems(subscription: Subscription, hash: string) {
  const { businessId, id } = subscription
  return {
    count: {
      Update: {
        TableName: tableName(),
        Key: keys.webhookSubscriptionCount(businessId),
        UpdateExpression: 'ADD subscriptions :one',
        // Only a count that includes the subscriptions made before it existed is a bound.
        ConditionExpression: 'includesEarlier = :yes AND subscriptions < :max',
        ExpressionAttributeValues: { ':one': 1, ':max': MAX_SUBSCRIPTIONS, ':yes': true },
      },
    },
    subscription: {
      Put: {
        TableName: tableName(),
        Item: {
          ...keys.webhookSubscription(businessId, id),
          entity: 'WEBHOOK_SUBSCRIPTION',
          ...subscription,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    guards: subscription.events.map((event) => ({
      Put: {
        TableName: tableName(),
        Item: {
          ...keys.webhookDestinationGuard(businessId, hash, event),
          entity: 'WEBHOOK_DESTINATION_GUARD',
          subscriptionId: id,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    })),
  }
}

/** The business's count item as it is now. */
async function readCount(businessId: string): Promise<{ subscriptions: number; includesEarlier: boolean }> {
  const out = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.webhookSubscriptionCount(businessId),
      ConsistentRead: true,
    }),
  )
  const subscriptions = out.Item?.subscriptions
  return {
    subscriptions: typeof subscriptions === 'number' ? subscriptions : 0,
    includesEarlier: out.Item?.includesEarlier === true,
  }
}

/**
 * Makes the business's count include the subscriptions made before the count existed (CONTRACT 14
 * came after them; they have neither `counted` nor guards): once per business, at its first create
 * since, in transactions that mark each such live subscription `inCount` (conditional on it still
 * being live and unmarked, so a concurrent delete is either before, and it is not counted, or after,
 * and the delete takes it off the count) and ADD them to the count, the last one setting
 * `includesEarlier`. It reads every subscription item of the business once; from then on creates
 * read nothing. A concurrent create doing the same makes this one's conditions fail: that is fine,
 * the count is made.
 */
async function countEarlierSubscriptions(businessId: string): Promise<void> {
  const earlier = (await subscriptionsOf(businessId)).filter(
    (s) => s.status !== 'DELETED' && !s.counted && !s.inCount,
  )
  // DynamoDB's 100 actions per transaction, less the count's own.
  const CHUNK = 99
  for (let i = 0; i === 0 || i < earlier.length; i += CHUNK) {
    const chunk = earlier.slice(i, i + CHUNK)
    const last = i + CHUNK >= earlier.length
    const outcome = await transactOnCount({
      inCount: chunk.map((s) => ({
        Update: {
          TableName: tableName(),
          Key: keys.webhookSubscription(businessId, s.id),
          UpdateExpression: 'SET inCount = :yes',
          ConditionExpression:
            '#status <> :deleted AND attribute_not_exists(inCount) AND attribute_not_exists(counted)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':yes': true, ':deleted': 'DELETED' },
        },
      })),
      count: {
        Update: {
          TableName: tableName(),
          Key: keys.webhookSubscriptionCount(businessId),
          UpdateExpression: `ADD subscriptions :n${last ? ' SET includesEarlier = :yes' : ''}`,
          ConditionExpression: 'attribute_not_exists(includesEarlier)',
          ExpressionAttributeValues: { ':n': chunk.length, ...(last ? { ':yes': true } : {}) },
        },
      },
    })
    // A failed condition: a concurrent create counted them first, and the count is made.
    if (!outcome.ok) return
  }
}

/** Every subscription of a business (and those deleted before they moved out, which the caller filters). */
export async function subscriptionsOf(businessId: string): Promise<Subscription[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sub)',
    ExpressionAttributeValues: {
      ':pk': keys.webhookSubscriptionPartition(businessId),
      ':sub': keys.webhookSubscriptionSkPrefix,
    },
  })
  return items
    .map((item) => recordOf<Subscription>(item))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
}

/**
 * One page of a business's subscriptions in sort-key order (the fan-out's unit of work): at most
 * `limit` of them, and the sort key to continue after, when there may be more.
 */
export async function subscriptionPage(
  businessId: string,
  limit: number,
  after?: string,
): Promise<{ subscriptions: Subscription[]; next?: string }> {
  const pk = keys.webhookSubscriptionPartition(businessId)
  const page = await queryPage(
    {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sub)',
      ExpressionAttributeValues: { ':pk': pk, ':sub': keys.webhookSubscriptionSkPrefix },
      ...(after ? { ExclusiveStartKey: { pk, sk: after } } : {}),
    },
    limit,
  )
  const next = page.more ? page.items[page.items.length - 1]?.sk : undefined
  return {
    subscriptions: page.items.map((item) => recordOf<Subscription>(item)),
    ...(typeof next === 'string' ? { next } : {}),
  }
}

export const getSubscription = (businessId: string, id: string) =>
  readRecord<Subscription>(keys.webhookSubscription(businessId, id), { consistent: true })

/** The business's own, not deleted, subscription; 404 otherwise (another business's id included). */
export async function ownSubscription(businessId: string, id: string): Promise<Subscription> {
  const found = await getSubscription(businessId, id)
  if (!found || found.status === 'DELETED')
    throw new NotFound(`No webhook subscription ${id} for your business`)
  return found
}

/**
 * DELETED, with the subscription's count and destination guards released in the same transaction
 * (a subscription made before the bounds existed has neither: `counted` says which; one counted
 * since, `inCount`, has the count only).
 */
export async function deleteSubscription(businessId: string, id: string, actor: string): Promise<void> {
  await withRetries(
    async () => {
      const found = await getSubscription(businessId, id)
      if (!found || found.status === 'DELETED')
        throw new NotFound(`No webhook subscription ${id} for your business`)
      const outcome = await transactOnCount(deleteItems(businessId, found))
      if (outcome.ok) return true
      // Counted meanwhile (countEarlierSubscriptions): read it again and take it off the count. Else
      // deleted meanwhile by a concurrent request: the same outcome as the second DELETE.
      if (outcome.failed.includes('subscription')) return AGAIN
      throw outcome.error
    },
    {
      attempts: 3,
      baseMs: 0,
      exhausted: () => {
        throw new NotFound(`No webhook subscription ${id} for your business`)
      },
    },
  )
  await appendAudit({
    type: 'WEBHOOK_UNSUBSCRIBED',
    actor,
    subject: { kind: 'WEBHOOK', id },
    businessId,
    after: 'DELETED',
  })
}

function deleteItems(businessId: string, found: Subscription) {
  const hash = urlHash(found.url)
  const counted = found.counted || found.inCount
  return {
    subscription: {
      Delete: {
        TableName: tableName(),
        Key: keys.webhookSubscription(businessId, found.id),
        // One not in the count must still not be: its count is what a concurrent first create makes.
        ConditionExpression: `attribute_exists(pk) AND #status <> :deleted${counted ? '' : ' AND attribute_not_exists(inCount)'}`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':deleted': 'DELETED' },
      },
    },
    tombstone: {
      Put: {
        TableName: tableName(),
        Item: {
          ...found,
          ...keys.webhookDeletedSubscription(businessId, found.id),
          status: 'DELETED',
          deletedAt: new Date().toISOString(),
        },
      },
    },
    count: counted
      ? [
          {
            Update: {
              TableName: tableName(),
              Key: keys.webhookSubscriptionCount(businessId),
              UpdateExpression: 'ADD subscriptions :minus',
              ConditionExpression: 'subscriptions > :zero',
              ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
            },
          },
        ]
      : [],
    guards: found.counted
      ? found.events.map((event) => ({
          Delete: {
            TableName: tableName(),
            Key: keys.webhookDestinationGuard(businessId, hash, event),
            ConditionExpression: 'subscriptionId = :id',
            ExpressionAttributeValues: { ':id': found.id },
          },
        }))
      : [],
  }
}

/** The plaintext signing secret, for a delivery (cached per container like client secrets). */
export const signingSecretOf = (s: Subscription) =>
  decryptField(s.secret, secretContext(s.id), { cache: true })

/**
 * A successful delivery makes a FAILED subscription ACTIVE again and ends a failing one's failure
 * window (best effort). A DISABLED one stays so: only POST .../enable turns it back on.
 */
export async function reactivate(s: Pick<Subscription, 'businessId' | 'id'>): Promise<void> {
  await writeIf({
    Update: {
      Key: keys.webhookSubscription(s.businessId, s.id),
      UpdateExpression: 'SET #status = :active REMOVE failedAt, failingSince',
      ConditionExpression: '#status IN (:failed, :active)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':active': 'ACTIVE', ':failed': 'FAILED' },
    },
  })
}

/** Whether new deliveries are made and attempted for it (not DELETED, not DISABLED). */
export const takesDeliveries = (s: Subscription) => s.status !== 'DELETED' && s.status !== 'DISABLED'

/** Whether a delivered attempt has anything to clear on its subscription (reactivate). */
export const needsReactivation = (s: Subscription) => s.status === 'FAILED' || s.failingSince !== undefined

/** A failed attempt opens the subscription's failure window, unless one is open (best effort). */
export async function markFailing(s: Pick<Subscription, 'businessId' | 'id'>, at: string): Promise<void> {
  await writeIf({
    Update: {
      Key: keys.webhookSubscription(s.businessId, s.id),
      UpdateExpression: 'SET failingSince = :at',
      ConditionExpression: 'attribute_not_exists(failingSince) AND #status IN (:active, :failed)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':at': at, ':active': 'ACTIVE', ':failed': 'FAILED' },
    },
  })
}

/**
 * The update that disables a subscription failing since `failingSince` (lib/webhooks/health.ts), for
 * the transaction that records the attempt and writes the notice: only while that window is still open.
 */
export function disableSubscriptionItem(
  s: Pick<Subscription, 'businessId' | 'id'>,
  failingSince: string,
  at: string,
): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.webhookSubscription(s.businessId, s.id),
      UpdateExpression: 'SET #status = :disabled, disabledAt = :at',
      ConditionExpression: '#status IN (:active, :failed) AND failingSince = :since',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':disabled': 'DISABLED',
        ':active': 'ACTIVE',
        ':failed': 'FAILED',
        ':since': failingSince,
        ':at': at,
      },
    },
  }
}

/**
 * POST /api/v1/webhooks/{id}/enable: a DISABLED subscription ACTIVE again, its failure window closed
 * (deliveries start with the next event; a recovery sends what it missed). Already enabled: as it is.
 */
export async function enableSubscription(
  businessId: string,
  id: string,
  actor: string,
): Promise<{ subscription: SubscriptionView; changed: boolean }> {
  const found = await ownSubscription(businessId, id)
  if (found.status !== 'DISABLED') return { subscription: viewOf(found), changed: false }
  const enabled = await writeIf({
    Update: {
      Key: keys.webhookSubscription(businessId, id),
      UpdateExpression: 'SET #status = :active REMOVE disabledAt, failingSince, failedAt',
      ConditionExpression: '#status = :disabled',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':active': 'ACTIVE', ':disabled': 'DISABLED' },
    },
  })
  const now = await ownSubscription(businessId, id)
  if (enabled.written) {
    await appendAudit({
      type: 'WEBHOOK_ENABLED',
      actor,
      subject: { kind: 'WEBHOOK', id },
      businessId,
      before: 'DISABLED',
      after: 'ACTIVE',
    })
  }
  return { subscription: viewOf(now), changed: enabled.written }
}

/**
 * Takes the subscription's recovery slot for `taskId` (for the transaction that stores the task): only
 * while no other recovery holds it, or its hold has lapsed (a recovery that stopped moving).
 */
export function claimRecoveryItem(
  s: Pick<Subscription, 'businessId' | 'id'>,
  taskId: string,
  now: number,
  holdUntil: number,
): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.webhookSubscription(s.businessId, s.id),
      UpdateExpression: 'SET recoveryTaskId = :task, recoveryHeldUntil = :until',
      ConditionExpression:
        '#status IN (:active, :failed) AND (attribute_not_exists(recoveryTaskId) OR recoveryHeldUntil < :now)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':task': taskId,
        ':until': holdUntil,
        ':now': now,
        ':active': 'ACTIVE',
        ':failed': 'FAILED',
      },
    },
  }
}

/** The recovery's hold moved on (`holdUntil`) or, without it, released; only by the task holding it. */
export function recoveryHoldItem(
  s: Pick<Subscription, 'businessId' | 'id'>,
  taskId: string,
  holdUntil?: number,
): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.webhookSubscription(s.businessId, s.id),
      UpdateExpression:
        holdUntil === undefined
          ? 'REMOVE recoveryTaskId, recoveryHeldUntil'
          : 'SET recoveryHeldUntil = :until',
      ConditionExpression: 'recoveryTaskId = :task',
      ExpressionAttributeValues: {
        ':task': taskId,
        ...(holdUntil === undefined ? {} : { ':until': holdUntil }),
      },
    },
  }
}

/**
 * The update that marks an ACTIVE subscription FAILED, for the transaction of the delivery that used
 * up its schedule (lib/webhooks/delivery-worker.ts): this module stays the subscription's only writer.
 */
export function failSubscriptionItem(s: Pick<Subscription, 'businessId' | 'id'>, at: string): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.webhookSubscription(s.businessId, s.id),
      UpdateExpression: 'SET #status = :failed, failedAt = :at',
      ConditionExpression: '#status = :active',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':failed': 'FAILED', ':active': 'ACTIVE', ':at': at },
    },
  }
}
