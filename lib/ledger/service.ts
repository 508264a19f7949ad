import { createHash, randomInt } from 'node:crypto'
import canonicalize from 'canonicalize'
import { transactionCancellationCodes } from '#lib/db/errors.ts'
import { keys } from '#lib/db/keys.ts'
import { Conflict, NotFound } from '#lib/errors.ts'
import {
  allocate,
  type HistoryFacts,
  headOf,
  historyItem,
  providerReferenceItem,
  reversalBlockOf,
  reversalCountAttribute,
} from '#lib/merchant-history/items.ts'
import { outboxItem } from '#lib/notifications/outbox.ts'
import { toTemplateItem } from '#lib/notifications/templates.ts'
import { lagosLocalIso } from '#lib/time.ts'
import { tableName } from '#lib/db/client.ts'
import { CODES, MESSAGES } from './codes.ts'
import { formatNaira, koboToNaira } from './money.ts'
import {
  type Account,
  type BankRequestRecord,
  getAccount,
  getBankRequest,
  itemAt,
  type Merchant,
  readMany,
  type ReversalRecord,
  type TransactItem,
  type TransferRecord,
  transact,
} from './repository.ts'
import { AGAIN, oneAtATime, withRetries } from './retry.ts'
import type { BalanceEnquiryRequest, ReversalRequest, TransferRequest } from './schemas.ts'

/**
 * Area B: balance enquiry, debit transfer and reversal (CONTRACT section 6). Each transfer or
 * reversal is ONE TransactWriteItems, so a failure at any point (DynamoDB unreachable included)
 * leaves either all of it or none of it, and a retry with the same requestId either finds the record
 * (and returns its first reply) or does the whole thing.
 */
type Reply = Record<string, unknown>

/** What identifies "the same request": its validated fields in canonical JSON (key order, spacing and unknown keys do not count). */
const hashOf = (body: object) =>
  createHash('sha256')
    .update(canonicalize(body) ?? '')
    .digest('hex')

/** `TNX` + Lagos yymmddHHMMSS + 8 random digits; unique by the conditional put of its pointer item. */
export function newProviderReference(atMs: number): string {
  const stamp = lagosLocalIso(new Date(atMs)).replace(/\D/g, '').slice(2, 14)
  return `TNX${stamp}${String(randomInt(0, 100_000_000)).padStart(8, '0')}`
}

/** The first reply again, or 409 when the requestId was used for something else. */
function replay(record: BankRequestRecord, kind: BankRequestRecord['kind'], bodyHash: string): Reply {
  if (record.kind !== kind || record.bodyHash !== bodyHash) {
    throw new Conflict(
      `requestId ${record.requestId} was already used for a different ${record.kind.toLowerCase()} request: every new request needs a new requestId`,
      { responseCode: CODES.duplicateRecord },
    )
  }
  return record.reply
}

/**
 * Commits a decided transfer or reversal, whose items[1] is always its request (idempotency) record.
 * If that record's condition failed, the same requestId committed concurrently (or an earlier attempt
 * of ours did, its reply lost): the winner's reply is replayed. Any other failed condition or a
 * conflict means the state moved under the decision (a balance crossed the line, the merchant's head
 * moved on, another reversal got there first): decide again on fresh reads.
 */
async function commitOrReplay(
  items: Parameters<typeof transact>[0],
  reply: Reply,
  request: { switchClientId: string; requestId: string; kind: BankRequestRecord['kind']; bodyHash: string },
): Promise<Reply | typeof AGAIN> {
  try {
    await transact(items)
    return reply
  } catch (error) {
    const codes = transactionCancellationCodes(error)
    if (!codes) throw error
    if (codes[1] === 'ConditionalCheckFailed') {
      const winner = await getBankRequest(request.switchClientId, request.requestId)
      return winner ? replay(winner, request.kind, request.bodyHash) : AGAIN
    }
    if (codes.some((c) => c === 'ConditionalCheckFailed' || c === 'TransactionConflict')) return AGAIN
    throw error
  }
}

const put = (Item: Record<string, unknown>): TransactItem => ({
  Put: { TableName: tableName(), Item, ConditionExpression: 'attribute_not_exists(pk)' },
})

export async function balanceEnquiry(body: BalanceEnquiryRequest): Promise<Reply> {
  const account = await getAccount(body.accountNumber)
  if (!account) throw unknownAccount(body.accountNumber)
  return {
    requestId: body.requestId,
    stan: body.stan,
    processingCode: body.processingCode,
    accountNumber: account.accountNumber,
    availableBalance: koboToNaira(account.balanceKobo),
    currency: account.currency,
  }
}

const unknownAccount = (accountNumber: string) =>
  new NotFound(`No account has the number ${accountNumber}`, { responseCode: CODES.unknownAccount })

export async function transfer(switchClientId: string, body: TransferRequest): Promise<Reply> {
  const bodyHash = hashOf(body)
  const requestKey = keys.bankRequest(switchClientId, body.requestId)
  const accountKey = keys.account(body.accountNumber)
  const merchantKey = keys.merchant(body.merchantId)
  const headKey = keys.historyHead(body.merchantId)
  const templateKeys = [
    keys.notificationTemplate(body.productCode, 0),
    keys.notificationTemplate(body.productCode, 1),
  ] as const

  return withRetries(() =>
    oneAtATime(`merchant:${body.merchantId}`, async () => {
      const found = await readMany([requestKey, accountKey, merchantKey, headKey, ...templateKeys])
      const existing = itemAt<BankRequestRecord>(found, requestKey)
      if (existing) return replay(existing, 'TRANSFER', bodyHash)
      const merchant = itemAt<Merchant>(found, merchantKey)
      if (!merchant?.active) {
        throw new NotFound(`No active merchant has the id ${body.merchantId}`, {
          responseCode: CODES.invalidMerchant,
        })
      }
      const account = itemAt<Account>(found, accountKey)
      if (!account) throw unknownAccount(body.accountNumber)

      // The decision is made on this read and enforced by the transaction's condition on the balance:
      // if another transfer changed the balance meanwhile, the condition fails and we decide again.
      const approve = account.balanceKobo >= body.amount
      const status = approve ? 'SUCCESSFUL' : 'FAILED'
      const headItem = itemAt<Record<string, unknown>>(found, headKey)
      const head = headOf(headItem)
      // createdAt never goes backwards along a merchant's sequence, even across servers' clocks.
      const atMs = Math.max(Date.now(), head.lastAtMs)
      const createdAt = lagosLocalIso(new Date(atMs))
      const providerReference = newProviderReference(atMs)
      const { next } = allocate(head, status)
      const responseCode = approve ? CODES.approved : CODES.insufficientFunds

      const reply: Reply = {
        responseCode,
        responseMessage: approve ? MESSAGES.approved : MESSAGES.insufficientFunds,
        responseStatus: approve ? 'SUCCESS' : 'FAILED',
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
        providerReference,
        status,
        completedAt: createdAt,
      }
      const facts: HistoryFacts = {
        merchantId: body.merchantId,
        amountKobo: body.amount,
        merchantReference: body.merchantReference,
        providerReference,
        accountNumber: body.accountNumber,
        status,
        responseCode,
        createdAt,
        productCode: body.productCode,
        switchClientId,
        requestId: body.requestId,
      }
      const record: TransferRecord = {
        kind: 'TRANSFER',
        switchClientId,
        requestId: body.requestId,
        bodyHash,
        reply,
        status,
        responseCode,
        amountKobo: body.amount,
        accountNumber: body.accountNumber,
        merchantId: body.merchantId,
        merchantReference: body.merchantReference,
        providerReference,
        productCode: body.productCode,
        seqAll: next.all,
        ...(approve ? { seqOk: next.ok } : {}),
        createdAt,
      }
      const storedTemplate = itemAt<Record<string, unknown>>(found, templateKeys[approve ? 0 : 1])
      const template = storedTemplate ? toTemplateItem(storedTemplate) : undefined

      const items: TransactItem[] = [
        approve
          ? {
              Update: {
                TableName: tableName(),
                Key: accountKey,
                UpdateExpression: 'SET balanceKobo = balanceKobo - :amount, updatedAt = :now',
                ConditionExpression: 'attribute_exists(pk) AND balanceKobo >= :amount',
                ExpressionAttributeValues: { ':amount': body.amount, ':now': new Date(atMs).toISOString() },
              },
            }
          : {
              ConditionCheck: {
                TableName: tableName(),
                Key: accountKey,
                ConditionExpression: 'attribute_exists(pk) AND balanceKobo < :amount',
                ExpressionAttributeValues: { ':amount': body.amount },
              },
            },
        put({ ...requestKey, entity: 'BANK_REQUEST', ...record }),
        {
          Update: {
            TableName: tableName(),
            Key: headKey,
            UpdateExpression:
              'SET #all = :all, ok = :ok, failed = :failed, lastAtMs = :at, reversed = if_not_exists(reversed, :zero), entity = :entity',
            // The numbers are dense only if nobody else took them since our read.
            ConditionExpression: headItem ? '#all = :previous' : 'attribute_not_exists(pk)',
            ExpressionAttributeNames: { '#all': 'all' },
            ExpressionAttributeValues: {
              ':all': next.all,
              ':ok': next.ok,
              ':failed': next.failed,
              ':at': atMs,
              ':zero': 0,
              ':entity': 'MERCHANT_HISTORY_HEAD',
              ...(headItem ? { ':previous': head.all } : {}),
            },
          },
        },
        put({ ...historyItem(facts, next) }),
        put(providerReferenceItem(facts, next.all)),
        ...(template
          ? [
              put({
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
                    providerReference,
                    status,
                    completedAt: createdAt,
                    productCode: body.productCode,
                    responseCode,
                  },
                }),
              }),
            ]
          : []),
      ]
      return commitOrReplay(items, reply, {
        switchClientId,
        requestId: body.requestId,
        kind: 'TRANSFER',
        bodyHash,
      })
    }),
  )
}

export async function reversal(switchClientId: string, body: ReversalRequest): Promise<Reply> {
  const bodyHash = hashOf(body)
  const ownKey = keys.bankRequest(switchClientId, body.requestId)
  const originalKey = keys.bankRequest(switchClientId, body.originalRequestId)

  return withRetries(async () => {
    const found = await readMany([ownKey, originalKey])
    const existing = itemAt<BankRequestRecord>(found, ownKey)
    if (existing) return replay(existing, 'REVERSAL', bodyHash)
    const original = itemAt<BankRequestRecord>(found, originalKey)
    if (original?.kind !== 'TRANSFER') {
      throw new NotFound(`No transfer with requestId ${body.originalRequestId} was found to reverse`, {
        responseCode: CODES.originalNotFound,
      })
    }
    if (original.status === 'FAILED') {
      throw new Conflict(
        `Transfer ${body.originalRequestId} was declined (code ${original.responseCode}) and moved no money: there is nothing to reverse`,
        { responseCode: CODES.invalidTransaction },
      )
    }
    if (original.status === 'REVERSED') {
      throw new Conflict(
        `Transfer ${body.originalRequestId} was already reversed by request ${original.reversedBy} at ${original.reversedAt}: no second credit is made`,
        { responseCode: CODES.invalidTransaction },
      )
    }
    const now = new Date()
    const at = lagosLocalIso(now)
    const reply: Reply = {
      responseCode: CODES.approved,
      responseMessage: MESSAGES.approved,
      responseStatus: 'SUCCESS',
      requestId: body.requestId,
      stan: body.stan,
      processingCode: body.processingCode,
      originalRequestId: body.originalRequestId,
      providerReference: original.providerReference,
      accountNumber: original.accountNumber,
      amount: koboToNaira(original.amountKobo),
      currency: 'NGN',
      status: 'REVERSED',
      reversedAt: at,
    }
    const record: ReversalRecord = {
      kind: 'REVERSAL',
      switchClientId,
      requestId: body.requestId,
      bodyHash,
      reply,
      originalRequestId: body.originalRequestId,
      createdAt: at,
    }
    const seqOk = original.seqOk!
    const items: TransactItem[] = [
      {
        // Exactly once: only one transaction can see the original still SUCCESSFUL.
        Update: {
          TableName: tableName(),
          Key: originalKey,
          UpdateExpression: 'SET #status = :reversed, reversedBy = :by, reversedAt = :at',
          ConditionExpression: '#status = :successful',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':reversed': 'REVERSED',
            ':successful': 'SUCCESSFUL',
            ':by': body.requestId,
            ':at': at,
          },
        },
      },
      put({ ...ownKey, entity: 'BANK_REQUEST', ...record }),
      {
        Update: {
          TableName: tableName(),
          Key: keys.account(original.accountNumber),
          UpdateExpression: 'SET balanceKobo = balanceKobo + :amount, updatedAt = :now',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':amount': original.amountKobo, ':now': now.toISOString() },
        },
      },
      {
        // The history item moves from the SUCCESSFUL to the REVERSED partition, keeping its number.
        Update: {
          TableName: tableName(),
          Key: keys.historyItem(original.merchantId, original.seqAll),
          UpdateExpression: 'SET #status = :reversed, gsi1pk = :partition, reversedAt = :at',
          ConditionExpression: '#status = :successful',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':reversed': 'REVERSED',
            ':successful': 'SUCCESSFUL',
            ':partition': keys.historyStatusPartition(original.merchantId, 'REVERSED'),
            ':at': at,
          },
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: keys.historyHead(original.merchantId),
          UpdateExpression: 'ADD reversed :one, #block :one',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#block': reversalCountAttribute(reversalBlockOf(seqOk)) },
          ExpressionAttributeValues: { ':one': 1 },
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: keys.historyReversalBlock(original.merchantId, reversalBlockOf(seqOk)),
          UpdateExpression: 'ADD seqs :seq, #count :one SET entity = :entity',
          ExpressionAttributeNames: { '#count': 'count' },
          ExpressionAttributeValues: {
            ':seq': new Set([seqOk]),
            ':one': 1,
            ':entity': 'MERCHANT_HISTORY_REVERSALS',
          },
        },
      },
    ]
    return commitOrReplay(items, reply, {
      switchClientId,
      requestId: body.requestId,
      kind: 'REVERSAL',
      bodyHash,
    })
  })
}
