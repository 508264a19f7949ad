import * as z from 'zod'
import { En16931Findings } from '#lib/platform/http/en16931-findings.ts'
import { Truncated } from '#lib/platform/http/truncated.ts'
import type { ReplyShape } from '#lib/platform/http/replies.ts'
import { iso20022Table } from '#lib/platform/iso20022.ts'

/**
 * The reply records of the four areas as lib/platform/http/replies.ts writes them, in zod: the OpenAPI
 * document wraps each endpoint's declared data in its route's record, and gives every error status
 * its area's error record. Only the document generator reads these; no function bundles them.
 */

/** `{path, code, message}`: one problem found in a request (CONTRACT section 3). */
export const Problem = z
  .object({
    path: z.string().meta({ description: 'JSON-pointer-like path, e.g. invoice_line/3/price/price_amount' }),
    code: z.string().meta({ description: 'A stable code of the error catalogue (docs/errors.md)' }),
    message: z.string().meta({ description: 'What is wrong and what to do about it' }),
  })
  .meta({ description: 'One problem found in a request.' })

/** A 403 of Area A: the roles that may call the route (CONTRACT 20). */
const RequiredRoles = z
  .array(z.enum(['SI', 'APP', 'ADMIN']))
  .optional()
  .meta({ description: 'A 403: the roles that may call this route; the message names them too' })

/** A.9, with the contract's `errors` list. */
export const FirsErrorDetails = z
  .object({
    timestamp: z.iso.datetime({ offset: true }).meta({ description: 'When the error happened' }),
    message: z.string().meta({ description: 'What went wrong, for a person' }),
    details: z
      .string()
      .meta({ description: 'The first 10 errors as one readable string, and how many more `errors` holds' }),
    status: z
      .string()
      .regex(/^\d{3} [A-Z0-9_]+$/)
      .meta({ description: 'The HTTP status and its name, e.g. `400 BAD_REQUEST`' }),
    errors: z.array(Problem).min(1).max(100).meta({
      description:
        'Every problem found, one each, at most 100; a refusal of the request as a whole is one item with an empty path and its code',
    }),
    required_roles: RequiredRoles,
    warnings: z.array(Problem).max(100).optional().meta({
      description: 'An invoice refused with 400: the unknown keys it ignored (NG-UK-01), at most 20',
    }),
    truncated: Truncated().optional(),
    en16931: En16931Findings().optional(),
  })
  .meta({ description: 'Area A error record (A.9) with every problem found.' })

const execTime = z.string().meta({ description: 'Handler time, e.g. "12ms"' })

/** A.1's Envelope around a success's data. */
export const envelopeOf = (data: z.ZodType) =>
  z.object({
    status: z.literal('SUCCESS').meta({ description: 'Outcome indicator' }),
    message: z.string().meta({ description: 'Human-readable message' }),
    data,
    execTime,
    error: z.null().meta({ description: 'Always null on success' }),
  })

/** A.1's Envelope around a failure. */
export const FailedEnvelope = z
  .object({
    status: z.literal('FAILED').meta({ description: 'Outcome indicator' }),
    message: z.string().meta({ description: 'Human-readable message' }),
    data: z.null(),
    execTime,
    error: FirsErrorDetails,
  })
  .meta({ description: 'Area A Envelope of a failure (A.1).' })

const traceId = z.uuid().meta({ description: 'Identifies this request in the service logs' })

/** Area B's ISO 20022 pair beside responseCode (CONTRACT 24). */
const Iso20022Pair = z
  .object({
    status: z.enum(['ACSC', 'RJCT']).meta({
      description: 'ExternalPaymentTransactionStatus1Code: ACSC settled (responseCode 00), RJCT rejected',
    }),
    reason: z
      .string()
      .nullable()
      .meta({ description: 'ExternalStatusReason1Code of a rejection; null when settled' }),
  })
  .meta({
    description: `The reply as an ISO 20022 status report (pacs.002) would give it. Every code with its pair:\n\n${iso20022Table()}`,
  })

/** Area B success: the handler's record inside these fields (CONTRACT section 6). */
export const bankRecordOf = (data: z.ZodType) =>
  z.intersection(
    z.object({
      responseCode: z.string().meta({ description: '"00" approved; other codes decline (e.g. "51")' }),
      responseMessage: z.string(),
      responseStatus: z.enum(['SUCCESS', 'FAILED']),
      iso20022: Iso20022Pair,
      traceId,
      timestamp: z.iso.datetime().meta({ description: 'UTC time of the reply' }),
    }),
    data,
  )

/** Areas B and C failure: 91-95 for signature failures (B), other non-00 codes otherwise. */
export const ResponseCodeError = z
  .object({
    responseCode: z
      .string()
      .meta({ description: 'Non-"00": 91-95 signature failures, 30 format error, ...' }),
    responseMessage: z.string().meta({ description: 'What went wrong, for a person' }),
    responseStatus: z.literal('FAILED'),
    traceId,
    errors: z
      .array(Problem)
      .max(100)
      .optional()
      .meta({ description: 'Every problem found in the request, at most 100' }),
    truncated: Truncated().optional(),
    timestamp: z.string().meta({ description: 'Time of the reply (Area C: Lagos local time)' }),
  })
  .meta({ description: 'Area B and C error record.' })

/** Area B's error record: Area C's with the ISO 20022 pair (CONTRACT 24). */
export const BankResponseCodeError = ResponseCodeError.extend({ iso20022: Iso20022Pair }).meta({
  description: 'Area B error record: responseCode with its ISO 20022 pair.',
})

/** Area C success envelope (C.1). */
export const merchantEnvelopeOf = (data: z.ZodType) =>
  z.object({
    responseStatus: z.literal('SUCCESS'),
    responseMessage: z.string(),
    responseCode: z.literal('00'),
    traceId,
    data,
    timestamp: z.string().meta({ description: 'YYYY-MM-DD HH:MM:SS, Lagos time' }),
  })

/** Area D: `{status, message, data?}` on success. */
export const notificationReplyOf = (data: z.ZodType | undefined) =>
  z.object({
    status: z.int().meta({ description: 'The HTTP status code' }),
    message: z.string().meta({ description: 'What was done' }),
    ...(data ? { data } : {}),
  })

export const NotificationError = z
  .object({
    status: z.int().meta({ description: 'The HTTP status code' }),
    message: z.string().meta({ description: 'What went wrong, for a person' }),
    errors: z.array(Problem).min(1).max(100).meta({
      description:
        'Every problem found in the request, at most 100; a refusal of the request as a whole is one item with an empty path and its code',
    }),
    truncated: Truncated().optional(),
  })
  .meta({ description: 'Area D error record.' })

/**
 * `code`: the HTTP status, on every Area A record (CONTRACT 17). Its real values, not z.int()'s
 * safe-integer range: the success reply's own status, or an error's 4xx or 5xx.
 */
const codeOf = (status: z.ZodType) =>
  z.object({
    code: status.meta({
      description: "The HTTP status, as the authority's API gives it: clients branch on it",
    }),
  })
/** An error status, 400 to 599. */
const ErrorStatus = () => z.int().min(400).max(599)
const ErrorCode = codeOf(ErrorStatus())

/**
 * The authority's error record, on its paths (CONTRACT 17): its own members, with the seed's `errors`
 * (and `warnings`) beside them.
 */
export const AuthorityError = z
  .object({
    code: ErrorStatus().meta({ description: 'The HTTP status' }),
    message: z.string().meta({ description: 'What went wrong, for a person' }),
    data: z.null(),
    error: z.object({
      id: z.string().meta({ description: 'The request id (x-request-id): quote it to support' }),
      handler: z.string().meta({ description: 'The function that answered' }),
      details: z.string().meta({ description: 'The errors as one readable string' }),
      public_message: z.string().meta({ description: 'The message, for the end user' }),
    }),
    errors: z.array(Problem).min(1).max(100).meta({
      description:
        'Every problem found, one each, at most 100; a refusal of the request as a whole is one item with an empty path and its code',
    }),
    required_roles: RequiredRoles,
    warnings: z.array(Problem).max(100).optional().meta({
      description: 'What was ignored or defaulted without failing the request, at most 100',
    }),
    truncated: Truncated().optional(),
    en16931: En16931Findings().optional(),
  })
  .meta({ description: "The authority's error record, on its paths (CONTRACT 17)." })

/** The record a route's success data is sent in. */
export function successRecord(shape: ReplyShape, data: z.ZodType | undefined, status: number): z.ZodType {
  const record = kindRecord(shape.kind, data)
  return shape.withCode ? z.intersection(codeOf(z.literal(status)), record) : record
}

function kindRecord(kind: ReplyShape['kind'], data: z.ZodType | undefined): z.ZodType {
  switch (kind) {
    case 'record':
      return data ?? z.object({})
    case 'envelope':
      return envelopeOf(data ?? z.null())
    case 'bank':
      return bankRecordOf(data ?? z.object({}))
    case 'merchant':
      return merchantEnvelopeOf(data ?? z.null())
    case 'notification':
      return notificationReplyOf(data)
  }
}

/** The error record of a route's replies. */
export function errorRecord(shape: ReplyShape): z.ZodType {
  if (shape.profile === 'authority') return AuthorityError
  if (shape.withCode && shape.kind === 'envelope') return FailedEnvelopeWithCode
  if (shape.withCode && shape.kind === 'record') return FirsErrorWithCode
  switch (shape.kind) {
    case 'envelope':
      return FailedEnvelope
    case 'record':
      return FirsErrorDetails
    case 'bank':
      return BankResponseCodeError
    case 'merchant':
      return ResponseCodeError
    case 'notification':
      return NotificationError
  }
}

/** Area A's error records as sent, `code` first (CONTRACT 17). */
const FailedEnvelopeWithCode = z
  .intersection(ErrorCode, FailedEnvelope)
  .meta({ description: 'Area A Envelope of a failure, with code' })
const FirsErrorWithCode = z
  .intersection(ErrorCode, FirsErrorDetails)
  .meta({ description: 'Area A error record, with code' })

/** The named records of the document's components. */
export const recordComponents = (): Record<string, z.ZodType> => ({
  Problem,
  FirsErrorDetails,
  FailedEnvelope,
  FailedEnvelopeWithCode,
  FirsErrorWithCode,
  AuthorityError,
  ResponseCodeError,
  BankResponseCodeError,
  Iso20022: Iso20022Pair,
  NotificationError,
})
