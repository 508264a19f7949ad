import { tableName } from '#lib/platform/db/client.ts'
import { iso20022Of } from '#lib/platform/iso20022.ts'
import { type Key, keys } from '#lib/platform/db/keys.ts'
import { outboxItem } from '#lib/notifications/outbox.ts'
import type { toTemplateItem } from '#lib/notifications/templates.ts'
import type { Reply, Verdict } from './decisions.ts'
import { formatNaira, koboToNaira } from '#lib/platform/money.ts'
import type { TransactItem } from '#lib/platform/db/transact.ts'
import type { ReversalRecord, SessionRecord, TransferRecord } from './repository.ts'
import type { ReversalRequest, TransferRequest } from './schemas.ts'

/**
 * Builders of the replies, records and TransactWriteItems elements of a transfer and a reversal:
 * given a decision, each returns data and nothing else (no I/O). The order of a transaction's items is
 * part of its meaning: items[1] is always the request record (see commitOrReplay in service.ts).
 */

/** Puts a new item: it must not exist yet. */
export const putNew = (Item: Record<string, unknown>): TransactItem => ({
  Put: { TableName: tableName(), Item, ConditionExpression: 'attribute_not_exists(pk)' },
})

/** The sessionId member of a reply or record: there when the request carried one. */
const sessionOf = (body: { sessionId?: string | undefined }) =>
  body.sessionId === undefined ? {} : { sessionId: body.sessionId }

/** What a transfer's decision settled, beyond the request itself. */
export interface TransferFacts {
  verdict: Verdict
  providerReference: string
  /** Lagos local time of the decision: the reply's completedAt and the record's createdAt. */
  createdAt: string
  atMs: number
}

export function transferReply(body: TransferRequest, facts: TransferFacts): Reply {
  const { verdict } = facts
  return {
    responseCode: verdict.responseCode,
    responseMessage: verdict.responseMessage,
    responseStatus: verdict.responseStatus,
    iso20022: iso20022Of(verdict.responseCode),
    requestId: body.requestId,
    stan: body.stan,
    processingCode: body.processingCode,
    merchantId: body.merchantId,
    merchantReference: body.merchantReference,
    accountNumber: body.accountNumber,
    amount: koboToNaira(body.amount),
    currency: body.currency,
    productCode: body.productCode,
    ...(body.narration === undefined ? {} : { narration: body.narration }),
    ...sessionOf(body),
    providerReference: facts.providerReference,
    status: verdict.status,
    completedAt: facts.createdAt,
  }
}

export function transferRecord(
  switchClientId: string,
  body: TransferRequest,
  bodyHash: string,
  facts: TransferFacts,
): TransferRecord {
  return {
    kind: 'TRANSFER',
    switchClientId,
    requestId: body.requestId,
    bodyHash,
    reply: transferReply(body, facts),
    status: facts.verdict.status,
    responseCode: facts.verdict.responseCode,
    amountKobo: body.amount,
    accountNumber: body.accountNumber,
    merchantId: body.merchantId,
    merchantReference: body.merchantReference,
    providerReference: facts.providerReference,
    productCode: body.productCode,
    ...sessionOf(body),
    createdAt: facts.createdAt,
  }
}

/**
 * The session id's record (CONTRACT 24), in the transaction of the request that carries it: with
 * `attribute_not_exists`, the id is one request's only, and a final "not received" of a status query
 * stops the late original; the first reply is copied so a query by session id is one GetItem.
 */
export function sessionItem(
  switchClientId: string,
  body: { requestId: string; sessionId?: string | undefined },
  reply: Reply,
): TransactItem[] {
  if (body.sessionId === undefined) return []
  const record: SessionRecord = {
    kind: 'SESSION',
    switchClientId,
    sessionId: body.sessionId,
    requestId: body.requestId,
    reply,
  }
  return [putNew({ ...keys.bankSession(switchClientId, body.sessionId), entity: 'BANK_SESSION', ...record })]
}

/**
 * The account's part: an approval debits with the condition that the balance still covers the
 * amount; a decline only checks that it still does not. Either way the decision holds or the
 * transaction fails and the transfer is decided again.
 */
export function accountItem(accountNumber: string, amountKobo: number, facts: TransferFacts): TransactItem {
  const Key = keys.account(accountNumber)
  return facts.verdict.outcome === 'approved'
    ? {
        Update: {
          TableName: tableName(),
          Key,
          UpdateExpression: 'SET balanceKobo = balanceKobo - :amount, updatedAt = :now',
          ConditionExpression: 'attribute_exists(pk) AND balanceKobo >= :amount',
          ExpressionAttributeValues: { ':amount': amountKobo, ':now': new Date(facts.atMs).toISOString() },
        },
      }
    : {
        ConditionCheck: {
          TableName: tableName(),
          Key,
          ConditionExpression: 'attribute_exists(pk) AND balanceKobo < :amount',
          ExpressionAttributeValues: { ':amount': amountKobo },
        },
      }
}

/** The request record: the transaction record and, by `attribute_not_exists`, its idempotency record. */
export const requestRecordItem = (record: TransferRecord | ReversalRecord): TransactItem =>
  putNew({ ...keys.bankRequest(record.switchClientId, record.requestId), entity: 'BANK_REQUEST', ...record })

/**
 * The providerReference's pointer: written with `attribute_not_exists`, it makes the reference unique
 * across the bank. The history indexer adds the transfer's seqAll once it is in the merchant's history.
 */
export function providerReferencePointerItem(
  switchClientId: string,
  body: TransferRequest,
  facts: TransferFacts,
): TransactItem {
  return putNew({
    ...keys.providerReference(facts.providerReference),
    entity: 'PROVIDER_REFERENCE',
    merchantId: body.merchantId,
    switchClientId,
    requestId: body.requestId,
  })
}

/** The rendered outcome notification, when the product has a template for the outcome. */
export function outboxItemOf(
  template: ReturnType<typeof toTemplateItem>,
  body: TransferRequest,
  facts: TransferFacts,
): TransactItem {
  const { status, responseCode } = facts.verdict
  return putNew({
    ...outboxItem(template, {
      merchantId: body.merchantId,
      requestId: body.requestId,
      status,
      productCode: body.productCode,
      values: {
        amount: formatNaira(body.amount),
        currency: body.currency,
        merchantId: body.merchantId,
        merchantReference: body.merchantReference,
        providerReference: facts.providerReference,
        status,
        completedAt: facts.createdAt,
        productCode: body.productCode,
        responseCode,
      },
    }),
  })
}

export function reversalReply(body: ReversalRequest, original: TransferRecord, reversedAt: string): Reply {
  return {
    responseCode: '00',
    responseMessage: 'Approved',
    responseStatus: 'SUCCESS',
    iso20022: iso20022Of('00'),
    requestId: body.requestId,
    stan: body.stan,
    processingCode: body.processingCode,
    originalRequestId: body.originalRequestId,
    ...sessionOf(body),
    providerReference: original.providerReference,
    accountNumber: original.accountNumber,
    amount: koboToNaira(original.amountKobo),
    currency: 'NGN',
    status: 'REVERSED',
    reversedAt,
  }
}

export function reversalRecord(
  switchClientId: string,
  body: ReversalRequest,
  bodyHash: string,
  reply: Reply,
  reversedAt: string,
): ReversalRecord {
  return {
    kind: 'REVERSAL',
    switchClientId,
    requestId: body.requestId,
    bodyHash,
    reply,
    originalRequestId: body.originalRequestId,
    ...sessionOf(body),
    createdAt: reversedAt,
  }
}

/** Exactly once: only one transaction can see the original still SUCCESSFUL. */
export function markReversedItem(originalKey: Key, byRequestId: string, reversedAt: string): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: originalKey,
      UpdateExpression: 'SET #status = :reversed, reversedBy = :by, reversedAt = :at',
      ConditionExpression: '#status = :successful',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':reversed': 'REVERSED',
        ':successful': 'SUCCESSFUL',
        ':by': byRequestId,
        ':at': reversedAt,
      },
    },
  }
}

export function creditItem(accountNumber: string, amountKobo: number, atMs: number): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.account(accountNumber),
      UpdateExpression: 'SET balanceKobo = balanceKobo + :amount, updatedAt = :now',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':amount': amountKobo, ':now': new Date(atMs).toISOString() },
    },
  }
}
