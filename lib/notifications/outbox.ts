import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { db, tableName } from '#lib/platform/db/client.ts'
import { writeIf } from '#lib/platform/db/write.ts'
import { withAttributes } from '#lib/platform/db/index-reads.ts'
import { keys, OUTBOX_PREFIX } from '#lib/platform/db/keys.ts'
import { type PlaceholderName, render } from './render.ts'
import type { TemplateItem } from './templates.ts'

/**
 * The notification outbox: a transfer that ends SUCCESSFUL or FAILED writes, in its own transaction,
 * one rendered notification per transaction (keyed by its providerReference) when a template exists
 * for its product code and outcome. functions/notifications/outbox-sender.ts sends each one, exactly
 * once, from the table's stream.
 */
export type OutboxStatus = 'PENDING' | 'SENDING' | 'SENT' | 'SKIPPED'

export interface OutboxItem {
  pk: string
  sk: string
  gsi1pk: string
  gsi1sk: string
  entity: 'NOTIFICATION_OUTBOX'
  status: OutboxStatus
  providerReference: string
  merchantId: string
  requestId?: string
  transactionStatus: 'SUCCESSFUL' | 'FAILED'
  productCode: string
  messageType: number
  templateID: number
  templateVersion: number
  subject: string
  body: string
  /** Placeholders the template used that have no value: left visible in the body. */
  unknownPlaceholders: string[]
  /** Lagos local date-time. */
  createdAt: string
  /** While SENDING: until when (epoch ms) the claim holds; after that a redelivery may send it. */
  claimedUntil?: number
  sentAt?: string
  recipients?: string[]
  messageIds?: string[]
}

export interface OutcomeFields {
  merchantId: string
  requestId?: string
  status: 'SUCCESSFUL' | 'FAILED'
  values: Partial<Record<PlaceholderName, string>> & { providerReference: string; completedAt: string }
  productCode: string
}

export function outboxItem(template: TemplateItem, outcome: OutcomeFields): OutboxItem {
  const { text, unknownPlaceholders } = render(template.message, outcome.values)
  const ref = outcome.values.providerReference
  return {
    ...keys.outbox(ref),
    ...keys.outboxByMerchant(outcome.merchantId, outcome.values.completedAt, ref),
    entity: 'NOTIFICATION_OUTBOX',
    status: 'PENDING',
    providerReference: ref,
    merchantId: outcome.merchantId,
    ...(outcome.requestId ? { requestId: outcome.requestId } : {}),
    transactionStatus: outcome.status,
    productCode: outcome.productCode,
    messageType: template.messageType,
    templateID: template.templateID,
    templateVersion: template.version,
    subject: `Transaction ${outcome.status}: ${ref} (product ${outcome.productCode})`,
    body: text,
    unknownPlaceholders,
    createdAt: outcome.values.completedAt,
  }
}

/**
 * A notice to the admin e-mail list that is not a transaction outcome (a webhook subscription that
 * failed, lib/webhooks/delivery-worker.ts): the same outbox item, so the same sender sends it exactly once.
 * `reference` is unique per notice and takes the providerReference's place as its key.
 */
export function adminNoticeItem(notice: {
  reference: string
  subject: string
  body: string
  createdAt: string
}) {
  return {
    ...keys.outbox(notice.reference),
    entity: 'NOTIFICATION_OUTBOX' as const,
    kind: 'ADMIN_NOTICE',
    status: 'PENDING' as OutboxStatus,
    providerReference: notice.reference,
    subject: notice.subject,
    body: notice.body,
    createdAt: notice.createdAt,
  }
}

export const isOutboxItem = (item: Record<string, unknown>): boolean =>
  item.entity === 'NOTIFICATION_OUTBOX' && typeof item.pk === 'string' && item.pk.startsWith(OUTBOX_PREFIX)

export async function getOutboxItem(providerReference: string): Promise<OutboxItem | undefined> {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.outbox(providerReference), ConsistentRead: true }),
  )
  return out.Item as OutboxItem | undefined
}

/** A merchant's outbox items, newest first (operations and tests). */
export async function listOutbox(merchantId: string, limit = 100): Promise<OutboxItem[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.outboxMerchantPartition(merchantId) },
      ScanIndexForward: false,
      Limit: limit,
    }),
  )
  // The index holds an outbox item's keys only (an operator's listing): the items are read after it.
  return withAttributes<OutboxItem>('gsi1', 'item', out.Items ?? [])
}

/** How long a sender may hold an item before a redelivery may take it over (its own crash, say). */
export const CLAIM_MS = 5 * 60 * 1000

/**
 * Takes the item for sending: PENDING (or a claim that expired) becomes SENDING. Only one delivery
 * of the stream record can win this, so only one sends.
 */
export async function claim(providerReference: string, now = Date.now()): Promise<boolean> {
  const claimed = await writeIf({
    Update: {
      Key: keys.outbox(providerReference),
      UpdateExpression: 'SET #status = :sending, claimedUntil = :until',
      ConditionExpression: '#status = :pending OR (#status = :sending AND claimedUntil < :now)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':sending': 'SENDING',
        ':pending': 'PENDING',
        ':until': now + CLAIM_MS,
        ':now': now,
      },
    },
  })
  return claimed.written
}

/** SENDING -> SENT (or SKIPPED when there was nobody to send to), with what was done. */
export async function finish(
  providerReference: string,
  outcome: { status: 'SENT' | 'SKIPPED'; recipients: string[]; messageIds: string[]; sentAt: string },
): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.outbox(providerReference),
      UpdateExpression:
        'SET #status = :status, recipients = :recipients, messageIds = :ids, sentAt = :at REMOVE claimedUntil',
      ConditionExpression: '#status = :sending',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':status': outcome.status,
        ':recipients': outcome.recipients,
        ':ids': outcome.messageIds,
        ':at': outcome.sentAt,
        ':sending': 'SENDING',
      },
    }),
  )
}

/** Gives the item back (the send failed): the stream's retry will claim it again. */
export async function release(providerReference: string): Promise<void> {
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.outbox(providerReference),
      UpdateExpression: 'SET #status = :pending REMOVE claimedUntil',
      ConditionExpression: '#status = :sending',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':pending': 'PENDING', ':sending': 'SENDING' },
    }),
  )
}
