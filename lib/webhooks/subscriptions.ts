import { randomUUID } from 'node:crypto'
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { appendAudit } from '#lib/audit/trail.ts'
import { decryptField, encryptField } from '#lib/crypto/fields.ts'
import { db, tableName } from '#lib/db/client.ts'
import { queryAll } from '#lib/db/query.ts'
import { isConditionFailed } from '#lib/db/errors.ts'
import { readRecord, recordOf } from '#lib/db/items.ts'
import { keys } from '#lib/db/keys.ts'
import type { EventType } from '#lib/events/event.ts'
import { BadRequest, NotFound } from '#lib/errors.ts'
import { newWebhookSecret } from './signature.ts'

/**
 * A business's webhook subscriptions (CONTRACT section 11): one item each in the business's
 * partition. The signing secret is shown once, at creation, and stored encrypted (lib/crypto/fields.ts)
 * with its record and field as context. A subscription whose delivery used up the retry schedule is
 * FAILED (the admin list is told, lib/webhooks/delivery.ts) but still receives new events; its next
 * successful delivery makes it ACTIVE again. DELETE marks it DELETED: no new deliveries, and pending
 * ones stop at their next attempt.
 */
export type SubscriptionStatus = 'ACTIVE' | 'FAILED' | 'DELETED'

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
}

/** What GET /webhooks lists: everything but the secret. */
export interface SubscriptionView {
  id: string
  url: string
  events: EventType[]
  status: SubscriptionStatus
  created_at: string
  failed_at?: string
}

export const viewOf = (s: Subscription): SubscriptionView => ({
  id: s.id,
  url: s.url,
  events: s.events,
  status: s.status,
  created_at: s.createdAt,
  ...(s.failedAt ? { failed_at: s.failedAt } : {}),
})

const secretContext = (id: string) => ({ record: 'webhook-subscription', id, field: 'secret' })

/**
 * `https://` always; plain `http://` only to this machine, and only outside AWS (stage `local`), so
 * tests and `npm start` can deliver to a receiver on 127.0.0.1.
 */
export function checkUrl(url: string, stage = process.env.STAGE ?? 'local'): void {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new BadRequest(`url is not a URL: "${url}"`)
  }
  if (parsed.protocol === 'https:') return
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname)
  if (parsed.protocol === 'http:' && loopback && stage === 'local') return
  throw new BadRequest(
    stage === 'local'
      ? 'url must be https://, or http:// to 127.0.0.1 or localhost'
      : 'url must be https:// (http:// is accepted only by a local server)',
  )
}

export async function createSubscription(
  businessId: string,
  input: { url: string; events: EventType[] },
  actor: string,
): Promise<SubscriptionView & { secret: string }> {
  checkUrl(input.url)
  const id = `wh_${randomUUID().replaceAll('-', '')}`
  const secret = newWebhookSecret()
  const subscription: Subscription = {
    id,
    businessId,
    url: input.url,
    events: [...new Set(input.events)],
    status: 'ACTIVE',
    secret: await encryptField(secret, secretContext(id)),
    createdAt: new Date().toISOString(),
  }
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.webhookSubscription(businessId, id), entity: 'WEBHOOK_SUBSCRIPTION', ...subscription },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
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

/** Every subscription of a business, deleted ones included (the caller filters). */
export async function subscriptionsOf(businessId: string): Promise<Subscription[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.webhookSubscriptionPartition(businessId) },
  })
  return items
    .map((item) => recordOf<Subscription>(item))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
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

export async function deleteSubscription(businessId: string, id: string, actor: string): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.webhookSubscription(businessId, id),
        UpdateExpression: 'SET #status = :deleted, deletedAt = :at',
        ConditionExpression: 'attribute_exists(pk) AND #status <> :deleted',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':deleted': 'DELETED', ':at': new Date().toISOString() },
      }),
    )
  } catch (error) {
    if (isConditionFailed(error)) throw new NotFound(`No webhook subscription ${id} for your business`)
    throw error
  }
  await appendAudit({
    type: 'WEBHOOK_UNSUBSCRIBED',
    actor,
    subject: { kind: 'WEBHOOK', id },
    businessId,
    after: 'DELETED',
  })
}

/** The plaintext signing secret, for a delivery (cached per container like client secrets). */
export const signingSecretOf = (s: Subscription) =>
  decryptField(s.secret, secretContext(s.id), { cache: true })

/** A successful delivery to a FAILED subscription makes it ACTIVE again (best effort). */
export async function reactivate(s: Pick<Subscription, 'businessId' | 'id'>): Promise<void> {
  await db()
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.webhookSubscription(s.businessId, s.id),
        UpdateExpression: 'SET #status = :active REMOVE failedAt',
        ConditionExpression: '#status = :failed',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':active': 'ACTIVE', ':failed': 'FAILED' },
      }),
    )
    .catch((error: unknown) => {
      if (!isConditionFailed(error)) throw error
    })
}
