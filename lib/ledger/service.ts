import { createHash, randomInt } from 'node:crypto'
import canonicalize from 'canonicalize'
import { keys } from '#lib/platform/db/keys.ts'
import { BadRequest, Conflict, DependencyDown, NotFound } from '#lib/platform/errors.ts'
import { currentMode } from '#lib/platform/mode.ts'
import { clockKey, offsetOf } from '#lib/platform/test-clock.ts'
import { commitsThenTimesOut, magicAccount, sandboxRefusal } from '#lib/sandbox/magic.ts'
import { toTemplateItem } from '#lib/notifications/templates.ts'
import { lagosLocalIso } from '#lib/platform/time.ts'
import {
  decideReversal,
  decideTransfer,
  type Refusal,
  dormantAccount,
  type Replay,
  type Reply,
  replayOf,
  unknownAccount,
  type Verdict,
} from './decisions.ts'
import { koboToNaira } from '#lib/platform/money.ts'
import { reversalWindowDays } from './reversal-window.ts'
import { AREA_B_RETRY_BUDGET_MS } from './final-within.ts'
import {
  type Account,
  type BankRequestRecord,
  type BankSessionRecord,
  getAccount,
  getBankRequest,
  type Merchant,
  openAccount,
} from './repository.ts'
import { itemAt, readMany } from '#lib/platform/db/batch.ts'
import { type TransactItem, transact } from '#lib/platform/db/transact.ts'
import { AGAIN, oneAtATime, withRetries } from '#lib/platform/db/retry.ts'
import type {
  BalanceEnquiryRequest,
  NameEnquiryRequest,
  ReversalRequest,
  TransferRequest,
} from './schemas.ts'
import {
  accountItem,
  creditItem,
  markReversedItem,
  outboxItemOf,
  providerReferencePointerItem,
  requestRecordItem,
  reversalRecord,
  reversalReply,
  sessionItem,
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
export function refused(refusal: Refusal): Error {
  const options = {
    responseCode: refusal.responseCode,
    ...(refusal.iso20022Case ? { iso20022Case: refusal.iso20022Case } : {}),
  }
  if (refusal.http === 400)
    return new BadRequest(refusal.message, {
      ...options,
      problems: [{ path: refusal.path ?? '', code: 'FIELD_VALUE', message: refusal.message }],
    })
  return refusal.http === 404
    ? new NotFound(refusal.message, options)
    : new Conflict(refusal.message, options)
}

/** The session id's record key, read with the request's items, when the request carries one. */
const sessionKeyOf = (switchClientId: string, sessionId: string | undefined) =>
  sessionId === undefined ? [] : [keys.bankSession(switchClientId, sessionId)]

/** The first reply of a request already recorded, or the refusal when the requestId was reused. */
function replayed(replay: Replay): Reply {
  if (replay.outcome === 'refused') throw refused(replay)
  return replay.reply
}

/**
 * Commits a decided transfer or reversal, whose `request` item is its request (idempotency) record.
 * If that record's condition failed, the same requestId committed concurrently (or an earlier attempt
 * of ours did, its reply lost): the winner's reply is replayed. Any other failed condition or a
 * conflict means the state moved under the decision (a balance crossed the line, the merchant's head
 * moved on, another reversal got there first, the session id was taken or queried): decide again on fresh
 * reads.
 */
async function commitOrReplay(
  items: { request: TransactItem } & Record<string, TransactItem | TransactItem[]>,
  reply: Reply,
  request: { switchClientId: string; requestId: string; kind: 'TRANSFER' | 'REVERSAL'; bodyHash: string },
): Promise<Reply | typeof AGAIN> {
  const outcome = await transact(items)
  if (outcome.ok) return reply
  if (outcome.failed.includes('request')) {
    const winner = await getBankRequest(request.switchClientId, request.requestId)
    return winner ? replayed(replayOf(winner, request.kind, request.bodyHash)) : AGAIN
  }
  return AGAIN
}

/**
 * A magic account of test mode (lib/sandbox/magic.ts) that does not exist yet is opened on its first
 * use, so every stack has them in test mode without an operator's step; undefined when the number is
 * not magic here. An account that exists is left as it is.
 */
async function openMagicAccount(accountNumber: string): Promise<Account | undefined> {
  const magic = magicAccount(accountNumber)
  return magic ? (await openAccount(magic)).account : undefined
}

const unopenedMagicAccount = (accountNumber: string) => {
  const magic = magicAccount(accountNumber)
  return magic && { ...magic, currency: 'NGN' as const }
}

/**
 * The magic accounts that answer before anything is read (lib/sandbox/magic.ts sandboxRefusal):
 * 91 and 96 with nothing debited and nothing recorded (so a retry answers the same), 14 as for an
 * account that does not exist.
 */
function refuseAsSandbox(accountNumber: string): void {
  switch (sandboxRefusal(accountNumber)) {
    case 'issuer-unavailable':
      throw new DependencyDown(
        `The issuer of account ${accountNumber} is unavailable: nothing was debited (sandbox account, always 91)`,
        { responseCode: ISSUER_UNAVAILABLE },
      )
    case 'system-malfunction':
      throw new DependencyDown(
        `The bank's system is unavailable: nothing was debited, retry with the same requestId (sandbox account ${accountNumber}, always 96)`,
        { retryAfterSeconds: 1 },
      )
    case 'unknown-account':
      throw refused(unknownAccount(accountNumber))
    default:
  }
}
/** ISO 8583's "issuer or switch inoperative" (a signature failure's 91 comes with a 401, this with a 503). */
const ISSUER_UNAVAILABLE = '91'

/** How long the sandbox holds a reply after its commit: past API Gateway's 29 s and any client's timeout. */
const SANDBOX_HELD_REPLY_MS = 30_000

/**
 * The sandbox account that commits then times out (lib/sandbox/magic.ts): the reply of a transfer
 * just committed is held. In AWS, Lambda ends the invocation at its timeout (6 s) and the gateway
 * answers with an error of its own; locally the connection stays silent for 30 s. Either way the
 * switch has no bank reply, and learns the outcome from the status query.
 */
async function holdIfSandboxTimesOut(accountNumber: string): Promise<void> {
  if (commitsThenTimesOut(accountNumber))
    // Unref'd: a held reply never keeps a process (a test run, the simulation) alive on its own.
    await new Promise((resolve) => setTimeout(resolve, SANDBOX_HELD_REPLY_MS).unref())
}

/** Transfers and reversals retry a busy account for less than their function's timeout. */
const RETRIES = { budgetMs: AREA_B_RETRY_BUDGET_MS }

/**
 * The sandbox bank's test clock (lib/platform/test-clock.ts), read in the request's own BatchGetItem in
 * test mode only: test transfers and reversals are stamped with test time, so statement days follow it.
 */
const bankClock = () => (currentMode() === 'test' ? [clockKey('bank')] : [])
const stampOf = (found: Map<string, Record<string, unknown>>) =>
  Date.now() + (currentMode() === 'test' ? offsetOf(itemAt(found, clockKey('bank'))) : 0)

export async function balanceEnquiry(body: BalanceEnquiryRequest): Promise<Reply> {
  refuseAsSandbox(body.accountNumber)
  // A magic account not opened yet has its opening balance: the enquiry reads, it never writes.
  const account = (await getAccount(body.accountNumber)) ?? unopenedMagicAccount(body.accountNumber)
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

/**
 * A name enquiry (CONTRACT 24): the holder's name, the currency and the status of an account, so a
 * switch can show the payer whom it debits before the transfer. A read, like the balance enquiry:
 * nothing is recorded. Unknown is 14 (RJCT AC02); dormant is 06 (RJCT AC06), without the name.
 */
export async function nameEnquiry(body: NameEnquiryRequest): Promise<Reply> {
  refuseAsSandbox(body.accountNumber)
  const account = (await getAccount(body.accountNumber)) ?? unopenedMagicAccount(body.accountNumber)
  if (!account) throw refused(unknownAccount(body.accountNumber))
  if (account.status === 'DORMANT') throw refused(dormantAccount(body.accountNumber))
  return {
    requestId: body.requestId,
    accountNumber: account.accountNumber,
    accountName: account.name,
    currency: account.currency,
    accountStatus: 'ACTIVE',
  }
}

/** The product's notification templates, for an approved (0) and a declined (1) transfer. */
const transferTemplateKeys = (body: TransferRequest) =>
  [keys.notificationTemplate(body.productCode, 0), keys.notificationTemplate(body.productCode, 1)] as const

export async function transfer(switchClientId: string, body: TransferRequest): Promise<Reply> {
  refuseAsSandbox(body.accountNumber)
  const bodyHash = hashOf(body)
  const requestKey = keys.bankRequest(switchClientId, body.requestId)
  const sessionKeys = sessionKeyOf(switchClientId, body.sessionId)
  const accountKey = keys.account(body.accountNumber)
  const merchantKey = keys.merchant(body.merchantId)
  const templateKeys = transferTemplateKeys(body)

  // Only the account is contended (the merchant's history is recorded afterwards, by the indexer):
  // in one process, attempts on one account queue instead of failing each other's conditions.
  let committed = false
  const reply = await withRetries(
    () =>
      oneAtATime(`account:${body.accountNumber}`, async () => {
        const found = await readMany([
          requestKey,
          ...sessionKeys,
          accountKey,
          merchantKey,
          ...templateKeys,
          ...bankClock(),
        ])
        if (!itemAt(found, accountKey) && (await openMagicAccount(body.accountNumber))) return AGAIN
        const verdict = decideTransfer(
          {
            existing: itemAt<BankRequestRecord>(found, requestKey),
            session: sessionKeys[0] && itemAt<BankSessionRecord>(found, sessionKeys[0]),
            merchant: itemAt<Merchant>(found, merchantKey),
            account: itemAt<Account>(found, accountKey),
          },
          {
            requestId: body.requestId,
            merchantId: body.merchantId,
            accountNumber: body.accountNumber,
            amountKobo: body.amount,
            bodyHash,
          },
        )
        if (verdict.outcome === 'replay' || verdict.outcome === 'refused') return replayed(verdict)

        const outcome = await commitTransfer(switchClientId, body, bodyHash, verdict, found)
        committed = outcome !== AGAIN
        return outcome
      }),
    RETRIES,
  )
  // Held outside the account's queue: only this reply is late, not the account's next transfers.
  if (committed) await holdIfSandboxTimesOut(body.accountNumber)
  return reply
}

/** An approved or declined transfer written: its record, the account, the pointer, the session, the outbox. */
async function commitTransfer(
  switchClientId: string,
  body: TransferRequest,
  bodyHash: string,
  verdict: Verdict,
  found: Map<string, Record<string, unknown>>,
): Promise<Reply | typeof AGAIN> {
  const templateKeys = transferTemplateKeys(body)
  const atMs = stampOf(found)
  const facts: TransferFacts = {
    verdict,
    providerReference: newProviderReference(atMs),
    createdAt: lagosLocalIso(new Date(atMs)),
    atMs,
  }
  const record = transferRecord(switchClientId, body, bodyHash, facts)
  const stored = itemAt<Record<string, unknown>>(found, templateKeys[verdict.outcome === 'approved' ? 0 : 1])
  const template = stored ? toTemplateItem(stored) : undefined
  const items = {
    account: accountItem(body.accountNumber, body.amount, facts),
    request: requestRecordItem(record),
    pointer: providerReferencePointerItem(switchClientId, body, facts),
    session: sessionItem(switchClientId, body, record.reply),
    outbox: template ? [outboxItemOf(template, body, facts)] : [],
  }
  return commitOrReplay(items, record.reply, {
    switchClientId,
    requestId: body.requestId,
    kind: 'TRANSFER',
    bodyHash,
  })
}

export async function reversal(switchClientId: string, body: ReversalRequest): Promise<Reply> {
  const bodyHash = hashOf(body)
  const ownKey = keys.bankRequest(switchClientId, body.requestId)
  const originalKey = keys.bankRequest(switchClientId, body.originalRequestId)
  const sessionKeys = sessionKeyOf(switchClientId, body.sessionId)

  return withRetries(async (attempt) => {
    const found = await readMany([ownKey, ...sessionKeys, originalKey, ...bankClock()])
    const atMs = stampOf(found)
    const decision = decideReversal(
      {
        existing: itemAt<BankRequestRecord>(found, ownKey),
        session: sessionKeys[0] && itemAt<BankSessionRecord>(found, sessionKeys[0]),
        original: itemAt<BankRequestRecord>(found, originalKey),
      },
      // A few reads again at most: should the record ever be missing, the reply is the plain 409.
      {
        requestId: body.requestId,
        originalRequestId: body.originalRequestId,
        bodyHash,
        mayReadAgain: attempt < 3,
        amountKobo: body.amount,
        atMs,
        windowDays: reversalWindowDays(),
      },
    )
    if (decision.outcome === 'read-again') return AGAIN
    if (decision.outcome !== 'reverse') return replayed(decision)
    const { original } = decision
    const reversedAt = lagosLocalIso(new Date(atMs))
    const reply = reversalReply(body, original, reversedAt)
    const items = {
      original: markReversedItem(originalKey, body.requestId, reversedAt),
      request: requestRecordItem(reversalRecord(switchClientId, body, bodyHash, reply, reversedAt)),
      credit: creditItem(original.accountNumber, original.amountKobo, atMs),
      session: sessionItem(switchClientId, body, reply),
    }
    return commitOrReplay(items, reply, {
      switchClientId,
      requestId: body.requestId,
      kind: 'REVERSAL',
      bodyHash,
    })
  }, RETRIES)
}
