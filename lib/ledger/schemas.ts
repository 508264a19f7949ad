import * as z from 'zod'
import { BadRequest, type Problem } from '#lib/platform/errors.ts'
import { CODES } from './codes.ts'
import { type AmountProblem, MAX_AMOUNT_NAIRA, toKobo } from '#lib/platform/money.ts'

/**
 * Area B bodies (CONTRACT section 6). An amount problem answers with code 13 (invalid amount) and
 * any other problem with 30 (format error), each listing every problem found (bankBodyError).
 */
const RequestId = z
  .string()
  .regex(
    /^[A-Za-z0-9._:-]{1,64}$/,
    'requestId must be 1 to 64 characters of letters, digits, ".", "_", ":" and "-"',
  )
const Common = {
  requestId: RequestId,
  stan: z.string().regex(/^\d{6}$/, 'stan must be exactly 6 digits'),
  processingCode: z.string().regex(/^\d{6}$/, 'processingCode must be exactly 6 digits (ISO 8583 style)'),
}
/**
 * A NIP session id (CONTRACT 24): 30 digits, the sending institution's 6-digit code, the time
 * `yyMMddHHmmss` and a 12-digit serial. The time must be a real one (month 01-12, a day the month has,
 * 00-23 h, 00-59 min and s): a switch that builds it from a wrong clock or field order is told so
 * rather than having a malformed id stored as its key.
 */
const SessionId = z
  .string()
  .regex(/^\d{30}$/, 'sessionId must be 30 digits: institution code (6), yyMMddHHmmss (12), serial (12)')
  // Checked only on 30 digits, so a malformed id gets one problem, the regex's.
  .refine((id) => !/^\d{30}$/.test(id) || isRealStamp(id.slice(6, 18)), {
    message: 'sessionId digits 7-18 must be a real date and time, yyMMddHHmmss',
  })

/** Whether `yyMMddHHmmss` names a moment of the 2000s that exists (31 February does not). */
export function isRealStamp(stamp: string): boolean {
  const [yy, mm, dd, hh, mi, ss] = (stamp.match(/\d\d/g) ?? []).map(Number)
  if (yy === undefined || ss === undefined) return false
  const date = new Date(Date.UTC(2000 + yy, mm! - 1, dd, hh, mi, ss))
  return (
    date.getUTCMonth() === mm! - 1 &&
    date.getUTCDate() === dd &&
    date.getUTCHours() === hh &&
    date.getUTCMinutes() === mi &&
    date.getUTCSeconds() === ss
  )
}

const AccountNumber = z.string().regex(/^\d{10}$/, 'accountNumber must be a 10-digit account number (NUBAN)')

const AMOUNT_MESSAGES: Record<AmountProblem, string> = {
  'not-a-number': 'amount must be a JSON number in naira, e.g. 1500.50',
  'not-positive': 'amount must be greater than zero',
  'too-many-decimals': 'amount must have at most 2 decimal places (kobo)',
  'too-large': `amount must not exceed ${MAX_AMOUNT_NAIRA} naira`,
}

/** The amount as integer kobo; the issue's message says exactly what is wrong with it. */
const Amount = z.unknown().transform((value, ctx) => {
  const result = toKobo(value)
  if ('kobo' in result) return result.kobo
  ctx.addIssue({ code: 'custom', message: AMOUNT_MESSAGES[result.problem], params: { amount: true } })
  return z.NEVER
})

export const BalanceEnquiryRequest = z.object({ ...Common, accountNumber: AccountNumber })
export type BalanceEnquiryRequest = z.output<typeof BalanceEnquiryRequest>

/** A name enquiry (CONTRACT 24): who holds the account, before a transfer names it. */
export const NameEnquiryRequest = z.object({ requestId: RequestId, accountNumber: AccountNumber })
export type NameEnquiryRequest = z.output<typeof NameEnquiryRequest>

export const TransferRequest = z.object({
  ...Common,
  merchantId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,32}$/, 'merchantId must be 1 to 32 letters, digits, "_" or "-"'),
  merchantReference: z
    .string()
    .regex(
      /^[\x21-\x7e]([\x20-\x7e]{0,62}[\x21-\x7e])?$/,
      'merchantReference must be 1 to 64 printable ASCII characters, without leading or trailing spaces',
    ),
  accountNumber: AccountNumber,
  /** Integer kobo after parsing. */
  amount: Amount,
  currency: z.literal('NGN', { error: 'currency must be "NGN"' }),
  productCode: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,50}$/, 'productCode must be 1 to 50 letters, digits, "_", "." or "-"'),
  narration: z.string().max(140, 'narration must be at most 140 characters').optional(),
  sessionId: SessionId.optional(),
})
export type TransferRequest = z.output<typeof TransferRequest>

/**
 * A reversal: `amount`, when sent, must be the transfer's full amount (CONTRACT 24: no partial
 * reversal; lib/ledger/decisions.ts refuses another with 13).
 */
export const ReversalRequest = z.object({
  ...Common,
  originalRequestId: RequestId,
  /** Integer kobo after parsing. */
  amount: Amount.optional(),
  sessionId: SessionId.optional(),
})
export type ReversalRequest = z.output<typeof ReversalRequest>

/**
 * A transaction status query (CONTRACT 24): the requestId or the sessionId of the transfer or
 * reversal asked about, exactly one of them.
 */
export const StatusQueryRequest = z
  .object({ requestId: RequestId.optional(), sessionId: SessionId.optional() })
  .superRefine((body, ctx) => {
    if (body.requestId === undefined && body.sessionId === undefined)
      ctx.addIssue({ code: 'custom', path: ['requestId'], message: 'requestId or sessionId is required' })
    if (body.requestId !== undefined && body.sessionId !== undefined)
      ctx.addIssue({ code: 'custom', path: ['sessionId'], message: 'send requestId or sessionId, not both' })
  })
export type StatusQueryRequest = z.output<typeof StatusQueryRequest>

/**
 * The error for an invalid Area B body (the declarations' `invalidBody`): a 400 with code 13 when the
 * amount is at fault and 30 (format error) otherwise, listing every problem found.
 */
export function bankBodyError(problems: Problem[]): BadRequest {
  const amountAtFault = problems.some((p) => p.path === 'amount')
  const count = problems.length
  return new BadRequest(`The request body is invalid: ${count} problem${count === 1 ? '' : 's'} found`, {
    problems,
    responseCode: amountAtFault ? CODES.invalidAmount : CODES.formatError,
  })
}
