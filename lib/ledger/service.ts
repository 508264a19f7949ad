import { createHash, randomInt } from 'node:crypto'
import canonicalize from 'canonicalize'
import { transactionCancellationCodes } from '#lib/db/errors.ts'
import { keys } from '#lib/db/keys.ts'
import { Conflict, NotFound } from '#lib/errors.ts'
import { toTemplateItem } from '#lib/notifications/templates.ts'
import { lagosLocalIso } from '#lib/time.ts'
import {
  decideReversal,
  decideTransfer,
  type Refusal,
  type Replay,
  type Reply,
  replayOf,
  unknownAccount,
} from './decisions.ts'
import { koboToNaira } from './money.ts'
import {
  type Account,
  type BankRequestRecord,
  getAccount,
  getBankRequest,
  itemAt,
  type Merchant,
  readMany,
  type TransactItem,
  transact,
} from './repository.ts'
import { AGAIN, oneAtATime, withRetries } from './retry.ts'
import type { BalanceEnquiryRequest, ReversalRequest, TransferRequest } from './schemas.ts'
import {
  accountItem,
  creditItem,
  markReversedItem,
  outboxItemOf,
  providerReferencePointerItem,
  requestRecordItem,
  reversalRecord,
  reversalReply,
  type TransferFacts,
  transferRecord,
} from './transaction-items.ts'

/**
 * Area B: balance enquiry, debit transfer and reversal (CONTRACT section 6). Each transfer or
 * reversal is ONE TransactWriteItems, so a failure at any point (DynamoDB unreachable included)
 * leaves either all of it or none of it, and a retry with the same requestId either finds the record
 * (and returns its first reply) or does the whole thing. The rules are lib/ledger/decisions.ts, the
 * items lib/ledger/transaction-items.ts: this module reads, asks, builds and commits.
 */

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

/** A refusal as the error the factory answers with (HTTP status and responseCode). */
function refused(refusal: Refusal): Error {
  const options = { responseCode: refusal.responseCode }
  return refusal.http === 404
    ? new NotFound(refusal.message, options)
    : new Conflict(refusal.message, options)
}

/** The first reply of a request already recorded, or the refusal when the requestId was reused. */
function replayed(replay: Replay): Reply {
  if (replay.outcome === 'refused') throw refused(replay)
  return replay.reply
}

/**
 * Commits a decided transfer or reversal, whose items[1] is always its request (idempotency) record.
 * If that record's condition failed, the same requestId committed concurrently (or an earlier attempt
 * of ours did, its reply lost): the winner's reply is replayed. Any other failed condition or a
 * conflict means the state moved under the decision (a balance crossed the line, the merchant's head
 * moved on, another reversal got there first): decide again on fresh reads.
 */
async function commitOrReplay(
  items: TransactItem[],
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
      return winner ? replayed(replayOf(winner, request.kind, request.bodyHash)) : AGAIN
    }
    if (codes.some((c) => c === 'ConditionalCheckFailed' || c === 'TransactionConflict')) return AGAIN
    throw error
  }
}

export async function balanceEnquiry(body: BalanceEnquiryRequest): Promise<Reply> {
  const account = await getAccount(body.accountNumber)
  if (!account) throw refused(unknownAccount(body.accountNumber))
  return {
    requestId: body.requestId,
    stan: body.stan,
    processingCode: body.processingCode,
    accountNumber: account.accountNumber,
    availableBalance: koboToNaira(account.balanceKobo),
    currency: account.currency,
  }
}

export async function transfer(switchClientId: string, body: TransferRequest): Promise<Reply> {
  const bodyHash = hashOf(body)
  const requestKey = keys.bankRequest(switchClientId, body.requestId)
  const accountKey = keys.account(body.accountNumber)
  const merchantKey = keys.merchant(body.merchantId)
  const templateKeys = [
    keys.notificationTemplate(body.productCode, 0),
    keys.notificationTemplate(body.productCode, 1),
  ] as const

  // Only the account is contended (the merchant's history is recorded afterwards, by the indexer):
  // in one process, attempts on one account queue instead of failing each other's conditions.
  return withRetries(() =>
    oneAtATime(`account:${body.accountNumber}`, async () => {
      const found = await readMany([requestKey, accountKey, merchantKey, ...templateKeys])
      const verdict = decideTransfer(
        {
          existing: itemAt<BankRequestRecord>(found, requestKey),
          merchant: itemAt<Merchant>(found, merchantKey),
          account: itemAt<Account>(found, accountKey),
        },
        { merchantId: body.merchantId, accountNumber: body.accountNumber, amountKobo: body.amount, bodyHash },
      )
      if (verdict.outcome === 'replay' || verdict.outcome === 'refused') return replayed(verdict)

      const atMs = Date.now()
      const facts: TransferFacts = {
        verdict,
        providerReference: newProviderReference(atMs),
        createdAt: lagosLocalIso(new Date(atMs)),
        atMs,
      }
      const record = transferRecord(switchClientId, body, bodyHash, facts)
      const stored = itemAt<Record<string, unknown>>(
        found,
        templateKeys[verdict.outcome === 'approved' ? 0 : 1],
      )
      const template = stored ? toTemplateItem(stored) : undefined
      const items: TransactItem[] = [
        accountItem(body.accountNumber, body.amount, facts),
        requestRecordItem(record),
        providerReferencePointerItem(switchClientId, body, facts),
        ...(template ? [outboxItemOf(template, body, facts)] : []),
      ]
      return commitOrReplay(items, record.reply, {
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

  return withRetries(async (attempt) => {
    const found = await readMany([ownKey, originalKey])
    const decision = decideReversal(
      {
        existing: itemAt<BankRequestRecord>(found, ownKey),
        original: itemAt<BankRequestRecord>(found, originalKey),
      },
      // A few reads again at most: should the record ever be missing, the reply is the plain 409.
      {
        requestId: body.requestId,
        originalRequestId: body.originalRequestId,
        bodyHash,
        mayReadAgain: attempt < 3,
      },
    )
    if (decision.outcome === 'read-again') return AGAIN
    if (decision.outcome !== 'reverse') return replayed(decision)
    const { original } = decision
    const atMs = Date.now()
    const reversedAt = lagosLocalIso(new Date(atMs))
    const reply = reversalReply(body, original, reversedAt)
    const items: TransactItem[] = [
      markReversedItem(originalKey, body.requestId, reversedAt),
      requestRecordItem(reversalRecord(switchClientId, body, bodyHash, reply, reversedAt)),
      creditItem(original.accountNumber, original.amountKobo, atMs),
    ]
    return commitOrReplay(items, reply, {
      switchClientId,
      requestId: body.requestId,
      kind: 'REVERSAL',
      bodyHash,
    })
  })
}
