import { koboToNaira } from '#lib/platform/money.ts'
import { parseLagosLocal } from '#lib/platform/time.ts'
import { CODES, MESSAGES } from './codes.ts'
import type { Iso20022Case } from '#lib/platform/iso20022.ts'
import type {
  Account,
  BankRequestRecord,
  BankSessionRecord,
  Merchant,
  NotReceivedRecord,
  TransferRecord,
} from './repository.ts'

/**
 * The rules of Area B (CONTRACT section 6) as pure functions: what was read in, what the request comes
 * to out, with its response code. No I/O here: lib/ledger/service.ts reads, asks these, builds the
 * transaction's items (lib/ledger/transaction-items.ts) and commits; the transaction's conditions hold
 * the decision, and a failed condition means deciding again on fresh reads.
 */
export type Reply = Record<string, unknown>

/** A request answered without moving anything, as the HTTP status and response code it gets. */
export interface Refusal {
  outcome: 'refused'
  http: 400 | 404 | 409
  responseCode: string
  message: string
  /** The field at fault, for a 400. */
  path?: string
  /** Refines the ISO 20022 reason of the code (lib/platform/iso20022.ts). */
  iso20022Case?: Iso20022Case
}

/** The same requestId again: the first reply, or 409 (code 26) when it came with another request. */
export type Replay = { outcome: 'replay'; reply: Reply } | Refusal

export function replayOf(record: BankRequestRecord, kind: 'TRANSFER' | 'REVERSAL', bodyHash: string): Replay {
  if (record.kind === 'NOT_RECEIVED') return neverReceived(record)
  if (record.kind !== kind || record.bodyHash !== bodyHash) {
    return {
      outcome: 'refused',
      http: 409,
      responseCode: CODES.duplicateRecord,
      message: `requestId ${record.requestId} was already used for a different ${record.kind.toLowerCase()} request: every new request needs a new requestId`,
    }
  }
  return { outcome: 'replay', reply: record.reply }
}

/**
 * The final 25 of a requestId a status query found no record of (CONTRACT 24): the query's answer,
 * and the answer to the original should it arrive afterwards.
 */
export const neverReceived = (
  record: Pick<NotReceivedRecord, 'queriedAt'> & ({ requestId: string } | { sessionId: string }),
): Refusal => {
  const [field, id] =
    'requestId' in record ? ['requestId', record.requestId] : ['sessionId', record.sessionId]
  return {
    outcome: 'refused',
    http: 404,
    responseCode: CODES.originalNotFound,
    message: `No transfer or reversal with ${field} ${id} was received before the status query of ${record.queriedAt}: that answer is final, nothing was or will be debited under this ${field}`,
  }
}

/**
 * A session id names one transfer or reversal (CONTRACT 24): carried by another requestId it is 26
 * (RJCT AM05, a duplicate); queried before it was received, the query's final 25. Undefined when the
 * request may carry it (no record yet, or the record is this request's own).
 */
export function sessionRefusal(
  session: BankSessionRecord | undefined,
  requestId: string,
): Refusal | undefined {
  if (!session) return undefined
  if (session.kind === 'NOT_RECEIVED') return neverReceived(session)
  if (session.requestId === requestId) return undefined
  return {
    outcome: 'refused',
    http: 409,
    responseCode: CODES.duplicateRecord,
    message: `sessionId ${session.sessionId} was already used by requestId ${session.requestId}: every transfer or reversal needs its own sessionId`,
  }
}

export interface Verdict {
  outcome: 'approved' | 'declined'
  status: 'SUCCESSFUL' | 'FAILED'
  responseCode: string
  responseMessage: string
  responseStatus: 'SUCCESS' | 'FAILED'
}

export type TransferDecision = Replay | Verdict

/**
 * A transfer: the same requestId replays; a session id of another request is 26; an unknown or inactive merchant is 03, an unknown account
 * 14, a dormant one 06; otherwise approved (00) when the balance covers the amount (balance >= amount), declined (51)
 * when it does not. A decline is recorded too: it answers the same way when the requestId returns.
 */
export function decideTransfer(
  read: { existing?: BankRequestRecord; session?: BankSessionRecord; merchant?: Merchant; account?: Account },
  request: {
    requestId: string
    merchantId: string
    accountNumber: string
    amountKobo: number
    bodyHash: string
  },
): TransferDecision {
  if (read.existing) return replayOf(read.existing, 'TRANSFER', request.bodyHash)
  const sessionRefused = sessionRefusal(read.session, request.requestId)
  if (sessionRefused) return sessionRefused
  if (!read.merchant?.active) {
    return {
      outcome: 'refused',
      http: 404,
      responseCode: CODES.invalidMerchant,
      message: `No active merchant has the id ${request.merchantId}`,
    }
  }
  if (!read.account) return unknownAccount(request.accountNumber)
  if (read.account.status === 'DORMANT') return dormantAccount(request.accountNumber)
  return read.account.balanceKobo >= request.amountKobo
    ? {
        outcome: 'approved',
        status: 'SUCCESSFUL',
        responseCode: CODES.approved,
        responseMessage: MESSAGES.approved,
        responseStatus: 'SUCCESS',
      }
    : {
        outcome: 'declined',
        status: 'FAILED',
        responseCode: CODES.insufficientFunds,
        responseMessage: MESSAGES.insufficientFunds,
        responseStatus: 'FAILED',
      }
}

export const unknownAccount = (accountNumber: string): Refusal => ({
  outcome: 'refused',
  http: 404,
  responseCode: CODES.unknownAccount,
  message: `No account has the number ${accountNumber}`,
})

/** A dormant account takes no postings and a name enquiry does not name its holder (06, RJCT AC06). */
export const dormantAccount = (accountNumber: string): Refusal => ({
  outcome: 'refused',
  http: 409,
  responseCode: CODES.dormantAccount,
  message: `Account ${accountNumber} is dormant: it takes no postings until its holder reactivates it`,
})

export type ReversalDecision =
  | Replay
  | { outcome: 'reverse'; original: TransferRecord }
  | { outcome: 'read-again' }

/**
 * A reversal of an earlier transfer of the same switch client: 25 when there is no such transfer
 * (a reversal cannot be reversed), 12 when it was declined (it moved no money), already reversed (no
 * second credit) or is past the reversal window (TM01); 13 when it names an amount other than the
 * transfer's full amount; otherwise it is credited back.
 */
export function decideReversal(
  read: { existing?: BankRequestRecord; session?: BankSessionRecord; original?: BankRequestRecord },
  request: {
    requestId: string
    originalRequestId: string
    bodyHash: string
    mayReadAgain: boolean
    /** The amount the reversal names, kobo: when given, it must be the transfer's full amount. */
    amountKobo?: number | undefined
    /** When the reversal is decided, epoch ms, and how many days after its transfer it may be. */
    atMs: number
    windowDays: number
  },
): ReversalDecision {
  if (read.existing) return replayOf(read.existing, 'REVERSAL', request.bodyHash)
  const sessionRefused = sessionRefusal(read.session, request.requestId)
  if (sessionRefused) return sessionRefused
  // Reversed by this very request, whose record is not in the read: a copy of it committed between
  // the two items' reads (BatchGetItem reads items one by one, not as one snapshot). The record was
  // written in the same transaction as the mark, so a second read finds it and replays its reply.
  if (
    request.mayReadAgain &&
    read.original?.kind === 'TRANSFER' &&
    read.original.reversedBy === request.requestId
  ) {
    return { outcome: 'read-again' }
  }
  const { original } = read
  if (original?.kind !== 'TRANSFER') {
    return {
      outcome: 'refused',
      http: 404,
      responseCode: CODES.originalNotFound,
      message: `No transfer with requestId ${request.originalRequestId} was found to reverse`,
    }
  }
  const refusal = reversalRefusal(original, request)
  if (refusal) return refusal
  return { outcome: 'reverse', original }
}

/** Why a transfer that exists may not be reversed by this request: declined, reversed, too old, or part of it. */
function reversalRefusal(
  original: TransferRecord,
  request: { originalRequestId: string; amountKobo?: number | undefined; atMs: number; windowDays: number },
): Refusal | undefined {
  if (original.status === 'FAILED') {
    return {
      outcome: 'refused',
      http: 409,
      responseCode: CODES.invalidTransaction,
      message: `Transfer ${request.originalRequestId} was declined (code ${original.responseCode}) and moved no money: there is nothing to reverse`,
    }
  }
  if (original.status === 'REVERSED') {
    return {
      outcome: 'refused',
      http: 409,
      responseCode: CODES.invalidTransaction,
      iso20022Case: 'already-reversed',
      message: `Transfer ${request.originalRequestId} was already reversed by request ${original.reversedBy} at ${original.reversedAt}: no second credit is made`,
    }
  }
  const transferMs = parseLagosLocal(original.createdAt)?.getTime() ?? 0
  if (request.atMs - transferMs > request.windowDays * DAY_MS) {
    return {
      outcome: 'refused',
      http: 409,
      responseCode: CODES.invalidTransaction,
      iso20022Case: 'too-late',
      message: `Transfer ${request.originalRequestId} of ${original.createdAt} (Lagos) is past its ${request.windowDays}-day reversal window: it can no longer be reversed here`,
    }
  }
  // A partial reversal is an invalid amount (13, AM12): a reversal returns the whole transfer or nothing.
  if (request.amountKobo !== undefined && request.amountKobo !== original.amountKobo) {
    return {
      outcome: 'refused',
      http: 400,
      responseCode: CODES.invalidAmount,
      path: 'amount',
      message: `amount must be the transfer's full amount, ${koboToNaira(original.amountKobo)} naira: a reversal returns all of it, never part`,
    }
  }
  return undefined
}

const DAY_MS = 86_400_000
