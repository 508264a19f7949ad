import type { ApiClientCaller } from '#lib/platform/auth/caller.ts'
import { refusedBy } from '#lib/platform/db/transact.ts'
import { DependencyDown, DomainError, type Problem } from '#lib/platform/errors.ts'
import { handleInvoice, type InvoiceSigner } from '#lib/invoice/service.ts'
import type { SearchSpaces } from '#lib/invoice/search-index.ts'
import { CALLER_ITEMS } from '#lib/invoice/sign-items.ts'
import type { ChainFork, ChainLink } from './chain.ts'
import type { ParsedReceipt } from './receipt-shape.ts'
import {
  claimants,
  claimWithoutInvoice,
  prevGuardPut,
  readFork,
  slotPut,
  storeFork,
} from './receipt-store.ts'
import { type ReceiptRecord, type ReceiptResult, resultOf } from './records.ts'
import type { ReceiptNumbers } from './search-numbers.ts'

/**
 * What becomes of one authentic receipt (its device's, signature verified), decided by the table's
 * conditional writes (./receipt-store.ts): DUPLICATE, FORK, REPORTED (an invoice signed as sign signs
 * one, with the receipt's counter and link claimed in its transaction) or REJECTED keeping its counter.
 */

/** How far ahead of the server a receipt's issued_at may be (the clocks of tills drift). */
export const FUTURE_TOLERANCE_MS = 5 * 60 * 1000

export interface Candidate {
  index: number
  receipt: ParsedReceipt
  record: Omit<ReceiptRecord, 'status'>
}

export interface Outcome {
  result: ReceiptResult
  /** The link it holds in its device's chain (REPORTED, REJECTED keeping its counter, a DUPLICATE's first). */
  link?: ChainLink
  fork?: ChainFork
  /** A FORK at its counter naming the same prev_hash as the holder: the next counter may link to it. */
  sibling?: { counter: number; hash: string }
}

/** What a decision needs from its request. */
export interface DecisionContext {
  caller: ApiClientCaller
  sign: InvoiceSigner
  nowMs: number
  /** The request's search numbers, taken for its receipts at once (./search-numbers.ts). */
  numbers?: ReceiptNumbers
}

export const problem = (path: string, code: string, message: string): Problem => ({ path, code, message })

export const linkOf = (r: Omit<ReceiptRecord, 'status'>): ChainLink => ({
  counter: r.counter,
  hash: r.hash,
  prevHash: r.prevHash,
  issuedAt: r.issuedAt,
  late: r.late,
  receivedAt: r.receivedAt,
})

/**
 * Decides one receipt. `held`: what its counter held when the request began (null: nothing), or
 * undefined when it must be read (a receipt that met another of the same request).
 */
export async function decide(
  context: DecisionContext,
  c: Candidate,
  held: ReceiptRecord | null | undefined,
): Promise<Outcome> {
  if (held === undefined) return (await settled(c)) ?? submit(context, c)
  if (held === null) return submit(context, c)
  return held.hash === c.record.hash ? duplicate(c, held) : fork(c, held.hash, held.prevHash)
}

function duplicate(c: Candidate, first: ReceiptRecord): Outcome {
  return {
    result: {
      hash: c.record.hash,
      status: 'DUPLICATE',
      irn: first.irn,
      duplicate_of: first.hash,
      first: resultOf(first),
    },
    // Merged again: a chain update lost after the first report (a timeout) is repaired by its resend.
    ...(first.status !== 'FORK' ? { link: linkOf(first) } : {}),
  }
}

/** `holderPrev`: the prev_hash of the receipt holding the counter, when that is what it forks. */
async function fork(c: Candidate, of: string, holderPrev?: string): Promise<Outcome> {
  const record: ReceiptRecord = { ...c.record, status: 'FORK', forkOf: of }
  const { deviceId, counter, hash, prevHash } = c.record
  const first = (await storeFork(record)) ? undefined : await readFork(deviceId, counter, hash)
  // A resent FORK merges again, as a resent REPORTED receipt merges its link: a report cut after
  // storing the FORK and before its chain update is repaired by the resend (merging is idempotent).
  const merges = {
    fork: { counter, hashes: [first?.forkOf ?? of, hash] },
    ...(holderPrev === prevHash ? { sibling: { counter, hash } } : {}),
  }
  return first ? { ...duplicate(c, first), ...merges } : { result: resultOf(record), ...merges }
}

/** The DUPLICATE or FORK this receipt is, from what holds its counter and link; undefined: neither is held. */
async function settled(c: Candidate): Promise<Outcome | undefined> {
  const { slot, guard } = await claimants(c.record)
  if (slot?.hash === c.record.hash) return duplicate(c, slot)
  if (slot) return fork(c, slot.hash, slot.prevHash)
  if (guard && guard.hash !== c.record.hash) return fork(c, guard.hash)
  return undefined
}

/**
 * Why a claim failed: the counter or the link is another receipt's. `fallback`: neither is, so what
 * refused it was its IRN (another invoice's).
 */
async function resolve(c: Candidate, fallback?: Problem[]): Promise<Outcome> {
  const found = await settled(c)
  if (found) return found
  if (fallback) return keepRejected(c, fallback)
  throw new DependencyDown('Receipts of this device were being stored at the same moment: report them again')
}

async function keepRejected(c: Candidate, errors: Problem[]): Promise<Outcome> {
  const record: ReceiptRecord = { ...c.record, status: 'REJECTED', errors }
  if (!(await claimWithoutInvoice(record))) return resolve(c)
  return { result: resultOf(record), link: linkOf(record) }
}

/** The receipt's own refusals before its invoice is judged: an issued_at ahead, a kind other than B2C. */
function contentRefusal(context: DecisionContext, c: Candidate): Problem | undefined {
  if (Date.parse(c.record.issuedAt) > context.nowMs + FUTURE_TOLERANCE_MS)
    return problem(
      'device/issued_at',
      'RECEIPT_FUTURE',
      `issued_at is more than 5 minutes ahead of the server's time (${new Date(context.nowMs).toISOString()}): set the device's clock right and issue a correction`,
    )
  if (c.receipt.invoice.invoice_kind !== 'B2C')
    return problem(
      'invoice_kind',
      'RECEIPT_NOT_B2C',
      'A receipt is a B2C invoice: invoice_kind must be "B2C"',
    )
  return undefined
}

async function submit(context: DecisionContext, c: Candidate): Promise<Outcome> {
  const refused = contentRefusal(context, c)
  if (refused) return keepRejected(c, [refused])
  const reported: ReceiptRecord = { ...c.record, status: 'REPORTED' }
  let offered: string | undefined
  try {
    const reply = await handleInvoice(
      {
        action: 'sign',
        sign: context.sign,
        version: 'v2',
        caller: context.caller,
        body: c.receipt.invoice,
        modeHeader: undefined,
        ...(context.numbers
          ? { numbersFor: (spaces: SearchSpaces) => context.numbers!.take(c.index, spaces) }
          : {}),
      },
      (would) => {
        offered = would.signed_at
        return [slotPut(reported), prevGuardPut(reported)]
      },
    )
    // A reply not of this write (the IRN's record was there, the same invoice signed before) wrote nothing.
    if (offered !== undefined && reply.signed_at === offered)
      return { result: resultOf(reported), link: linkOf(reported) }
    return resolve(c, [irnUsed(c.record.irn)])
  } catch (error) {
    if (refusedBy(error, CALLER_ITEMS)) return resolve(c)
    if (!(error instanceof DomainError) || error.kind === 'unavailable') throw error
    if (error.kind === 'conflict') return keepRejected(c, [irnUsed(c.record.irn)])
    return keepRejected(
      c,
      error.problems.length ? error.problems : [problem('', 'RECEIPT_INVOICE', error.message)],
    )
  }
}

const irnUsed = (irn: string) =>
  problem(
    'irn',
    'RECEIPT_IRN_USED',
    `IRN ${irn} is already used by another invoice or receipt: a receipt needs an IRN of its own (issue a correction with a new one)`,
  )
