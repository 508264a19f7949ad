import { createHash, randomBytes } from 'node:crypto'
import { userInfo } from 'node:os'
import { PutCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb'
import type { Caller } from '#lib/platform/auth/caller.ts'
import { db, tableName } from '#lib/platform/db/client.ts'
import { recordOf } from '#lib/platform/db/items.ts'
import { withAttributes } from '#lib/platform/db/index-reads.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { queryAll } from '#lib/platform/db/query.ts'
import { AGAIN, withRetries } from '#lib/platform/db/retry.ts'
import { writeIf, writeOf } from '#lib/platform/db/write.ts'
import { logger } from '#lib/platform/log.ts'
import {
  type Cancelled,
  type NamedItems,
  type TransactItem,
  TransactionRefused,
  transact,
} from '#lib/platform/db/transact.ts'

/**
 * The audit trail: one immutable item per state change of an invoice, credential or notification
 * template, in the one table. Items are written only with attribute_not_exists and the service has no
 * code path that updates or deletes them, so the trail is append-only.
 */

export type AuditSubjectKind = 'INVOICE' | 'CREDENTIAL' | 'TEMPLATE' | 'NOTIFY' | 'WEBHOOK'

export type AuditEventType =
  | 'INVOICE_GENERATED'
  | 'INVOICE_VALIDATED'
  | 'INVOICE_SIGNED'
  | 'INVOICE_TRANSMITTED'
  | 'INVOICE_RECEIPT_CONFIRMED'
  | 'PAYMENT_STATUS_CHANGED'
  | 'BUSINESS_CREATED'
  | 'CREDENTIAL_ISSUED'
  | 'CREDENTIAL_ROTATED'
  | 'CREDENTIAL_REVOKED'
  | 'WEBHOOK_SET'
  | 'WEBHOOK_SUBSCRIBED'
  | 'WEBHOOK_UNSUBSCRIBED'
  | 'WEBHOOK_ENABLED'
  | 'WEBHOOK_RECOVERY_STARTED'
  | 'VALIDATION_MODE_SET'
  | 'TEMPLATE_CREATED'
  | 'TEMPLATE_REPLACED'
  | 'NOTIFY_EMAILS_ADDED'
  | 'NOTIFY_EMAILS_REMOVED'

/** What a caller of appendAudit / auditPut describes. */
export interface AuditInput {
  type: AuditEventType
  actor: string
  subject: { kind: AuditSubjectKind; id: string }
  /** The business the subject belongs to, when there is one: indexes the event per business. */
  businessId?: string
  /** Status before and after, where the event is a status change. */
  before?: string
  after?: string
  /** Further non-secret facts (e.g. the credential kind, the e-mail count). */
  detail?: Record<string, string | number | boolean>
  /** When the change happened (ISO); defaults to now. */
  at?: string
}

export interface AuditEvent extends Omit<AuditInput, 'at'> {
  eventId: string
  at: string
}

/**
 * A non-reversible id of an Area A API key: enough to tell a business's keys apart in the trail and
 * to match a key one holds, never enough to use it.
 */
export function apiKeyActor(apiKey: string): string {
  const digest = createHash('sha256').update(apiKey, 'utf8').digest('hex').slice(0, 16)
  return `apikey:${apiKey.slice(0, 4)}:${digest}`
}

/** The actor of a request, from the handler's caller. */
export function actorOf(caller: Caller): string {
  switch (caller.scheme) {
    case 'api-signature':
      return apiKeyActor(caller.apiKeyId)
    case 'admin-bearer':
      return `admin:${caller.adminKeyId}`
    case 'switch-signature':
      return `switch:${caller.switchClientId}`
    case 'merchant-bearer':
      return `merchant:${caller.merchantId}`
    default:
      return caller.scheme
  }
}

/** The actor of a CLI action: the operating-system user who ran it. */
export function cliActor(): string {
  let user = process.env.USER ?? process.env.USERNAME
  try {
    user ??= userInfo().username
  } catch {
    // No passwd entry (some containers): the variable, or unknown.
  }
  return `cli:${user ?? 'unknown'}`
}

/** The item of one event; its sort key is its time then a random suffix, so events never collide. */
function auditItem(input: AuditInput): { item: Record<string, unknown>; event: AuditEvent } {
  const at = input.at ?? new Date().toISOString()
  const eventId = `${at}#${randomBytes(6).toString('hex')}`
  const { at: _at, ...rest } = input
  const event: AuditEvent = { ...rest, eventId, at }
  const item = {
    ...keys.auditEvent(input.subject.kind, input.subject.id, eventId),
    ...(input.businessId ? keys.auditByBusiness(input.businessId, eventId) : {}),
    ...event,
  }
  return { item, event }
}

/** The Put of one event, for a TransactWriteItems alongside the change it records. */
export function auditPut(input: AuditInput) {
  return {
    Put: {
      TableName: tableName(),
      Item: auditItem(input).item,
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  }
}

/**
 * Appends one event on its own, for changes that are not a single conditional write (they are
 * recorded right after they succeed).
 */
export async function appendAudit(input: AuditInput): Promise<AuditEvent> {
  const { item, event } = auditItem(input)
  await db().send(
    new PutCommand({ TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' }),
  )
  return event
}

const CONFLICT_ATTEMPTS = 5

/** What a change writes besides its own conditional write and its audit events (writeWithAudit). */
interface AlongsideItems {
  /**
   * Items that are stored with the change or not at all: its integration events (lib/events, the
   * outbox: CONTRACT 11, no change without its event), a credit note's change of its original, a
   * batch item's result, a signed invoice's search list item. They, the write and the audit events
   * are one transaction.
   */
  together?: NamedItems
  /**
   * Items that copy the change's state elsewhere and need no condition on it (an inbox item, a list
   * item's payment status), written once the transaction is: plain writes, at half a transaction's
   * units (DynamoDB bills every item of a transaction twice).
   */
  after?: NamedItems
}

/**
 * One conditional write (Put or Update), its audit events and the items `together` in one
 * transaction, so the change is never stored without its events; then the items `after`, side by
 * side, as plain writes. Each of those is idempotent (a Put of an item that is there already is
 * skipped, an Update SETs the change's values), and one DynamoDB still refuses after the SDK's
 * retries, or a function that dies before them, leaves the copy behind the change: logged as an
 * error naming the subject and the items, for the operator, while the change stands and its request
 * succeeds (it happened). Their owners put them again where a repeat can (lib/lifecycle/inbox.ts).
 * Returns false when the write's condition failed (the record was not in the state the change was
 * decided from): then nothing is written.
 *
 * A transaction conflict (another transaction on the same item at that moment, which a single write
 * would simply have queued behind) is retried after a short random pause. Any other cancellation is
 * a TransactionRefused naming the items that failed.
 */
export async function writeWithAudit(
  write: TransactItem,
  events: AuditInput[],
  { together = {}, after = {} }: AlongsideItems = {},
): Promise<boolean> {
  const inOne = { audit: events.map((e) => auditPut(e) as TransactItem), ...together }
  const written = itemsOf(inOne).length
    ? await transactWith(write, inOne)
    : (await writeIf(writeOf(write))).written
  if (written) await writeAfter(events[0]?.subject, after)
  return written
}

const itemsOf = (named: NamedItems): TransactItem[] =>
  Object.values(named).flatMap((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]))

/** The write and the items `together` as one transaction; false when the write's condition failed. */
function transactWith(write: TransactItem, together: NamedItems): Promise<boolean> {
  let conflicted: Cancelled<string> | undefined
  return withRetries(
    async () => {
      const outcome = await transact({ write, ...together })
      if (outcome.ok) return true
      if (outcome.failed.includes('write')) return false
      if (!outcome.conflict) throw new TransactionRefused(outcome)
      conflicted = outcome
      return AGAIN
    },
    // Still conflicting after these: refused (nothing was written).
    {
      attempts: CONFLICT_ATTEMPTS,
      baseMs: 10,
      capMs: 200,
      exhausted: () => Promise.reject(new TransactionRefused(conflicted!)),
    },
  )
}

/** The items `after`, side by side; what still fails is logged, not thrown. */
async function writeAfter(subject: AuditInput['subject'] | undefined, after: NamedItems): Promise<void> {
  const named = Object.entries(after).flatMap(([name, value]) =>
    itemsOf({ [name]: value }).map((item) => ({ name, item })),
  )
  const outcomes = await Promise.allSettled(named.map(({ item }) => writeIf(writeOf(item))))
  const failed = named.filter((_, i) => outcomes[i]!.status === 'rejected').map(({ name }) => name)
  if (!failed.length) return
  logger.error('a change was written and some of its copies were not', {
    subject: subject ? `${subject.kind}:${subject.id}` : 'unknown',
    failed,
    error: (outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult).reason?.name,
  })
}

/** A subject's events from the table, or a business's from its index, whose items are read after it (keys only there). */
async function eventsOf(input: Omit<QueryCommandInput, 'TableName'>): Promise<AuditEvent[]> {
  const found = await queryAll(input)
  const items = input.IndexName ? await withAttributes<Record<string, unknown>>('gsi3', 'item', found) : found
  return items.map((item) => recordOf<AuditEvent>(item))
}

/** Every event of one subject, oldest first. */
export function auditOfSubject(kind: AuditSubjectKind, id: string): Promise<AuditEvent[]> {
  return eventsOf({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.auditSubjectPartition(kind, id) },
    ConsistentRead: true,
  })
}

/** Every event of one invoice, oldest first. */
export const auditOfInvoice = (irn: string) => auditOfSubject('INVOICE', irn)

/** Every event concerning one business (its invoices and credentials), oldest first. */
export function auditOfBusiness(businessId: string): Promise<AuditEvent[]> {
  return eventsOf({
    IndexName: 'gsi3',
    KeyConditionExpression: 'gsi3pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.auditBusinessPartition(businessId) },
  })
}

/** An invoice's status-change event: every invoice write records one in its own transaction. */
export function invoiceEvent(
  type: Extract<AuditEventType, `INVOICE_${string}` | 'PAYMENT_STATUS_CHANGED'>,
  input: { irn: string; businessId: string; before?: string; after: string; actor: string; at: string },
): AuditInput {
  return {
    type,
    actor: input.actor,
    subject: { kind: 'INVOICE', id: input.irn },
    businessId: input.businessId,
    ...(input.before ? { before: input.before } : {}),
    after: input.after,
    at: input.at,
  }
}
