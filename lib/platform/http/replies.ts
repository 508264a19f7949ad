import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda'
import type { Profile, ReplyKind, Route } from '#lib/platform/http/route.ts'
import { listedProblems } from '#lib/platform/reply-bounds.ts'
import { lagosDateTime } from '#lib/platform/time.ts'
import type { PlatformCode } from '#lib/platform/error-codes.ts'
import type { ApiError } from './errors.ts'
import { statusLine } from './status.ts'
import { type Iso20022, iso20022Of } from '#lib/platform/iso20022.ts'

/** What a handler returns: the data, and optionally a status, message and headers. */
export interface Reply {
  status?: number
  message?: string
  data?: unknown
  headers?: Record<string, string>
  /**
   * A body sent as it is instead of the area's JSON record (the CSV history export, the UBL XML);
   * bytes (the invoice PDF) go to API Gateway base64-encoded, as payload 2.0 requires for binary.
   */
  raw?: { contentType: string; body: string | Uint8Array }
}

/** Per-request values every record may need. */
export interface ReplyContext {
  traceId: string
  requestId: string
  startedAt: number
}

/**
 * What a reply is written as: the route's record kind, the API it is served as, and whether it carries
 * the authority's `code` member (CONTRACT 17).
 */
export interface ReplyShape {
  kind: ReplyKind
  profile: Profile
  /** Area A's JSON records carry `code`, the HTTP status, on both profiles: the authority's clients branch on it. */
  withCode: boolean
  /** The function that answered: the authority's error record names it (`error.handler`). */
  handler?: string
}

/**
 * The shape of a route's replies. Area A's records carry `code`, except the public documents in a
 * standard's own format (the JWKS, the OpenAPI document, the docs page), which no authority client
 * reads and whose formats have no such member.
 */
export const replyShapeOf = (
  route: Pick<Route, 'reply' | 'profile' | 'auth' | 'functionId'>,
): ReplyShape => ({
  kind: route.reply,
  profile: route.profile,
  withCode: (route.reply === 'envelope' || route.reply === 'record') && route.auth !== 'none',
  handler: route.functionId,
})

/** The shape of a reply to a request no route took (the catch-all): the seed's, by the path's area. */
export const unroutedShape = (kind: ReplyKind): ReplyShape => ({
  kind,
  profile: 'seed',
  withCode: kind === 'envelope' || kind === 'record',
})

const execTime = (ctx: ReplyContext) => `${Math.max(0, Math.round(performance.now() - ctx.startedAt))}ms`

/** The problems `details` spells out: it reads the first few, `errors` holds them all. */
const DETAILED = 10

/** The code of a refusal whose place gave none: its status's generic one (lib/platform/error-codes.ts). */
const GENERIC: Record<number, PlatformCode> = {
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  503: 'UNAVAILABLE',
}
const codeOf = (error: ApiError): string =>
  error.code ?? GENERIC[error.status] ?? (error.status >= 500 ? 'INTERNAL_ERROR' : 'INVALID_REQUEST')

/**
 * Every error reply carries a stable code (CONTRACT 20): the problems found, or, for a refusal of the
 * request as a whole (auth, role, unknown record, conflict), one problem with the error's code.
 */
const problemsOf = (error: ApiError) =>
  error.problems.length ? error.problems : [{ path: '', code: codeOf(error), message: error.message }]

/**
 * The error's problem lists within the reply bounds (CONTRACT 18): at most 100 errors and 100
 * warnings, and `truncated` with the counts left out.
 */
const listedOf = (error: ApiError) => listedProblems(problemsOf(error), error.warnings, error.notListed)

/** A 403's roles that would be allowed (CONTRACT 20). */
const rolesOf = (error: ApiError) => (error.requiredRoles ? { required_roles: error.requiredRoles } : {})

/**
 * `details`, A.9's readable string: the first ten problems, then how many more `errors` lists (it
 * used to repeat every problem, doubling a reply that lists thousands).
 */
function detailsOf(error: ApiError, listed: ReturnType<typeof listedOf>): string {
  if (!error.problems.length) return error.message
  const text = listed.errors
    .slice(0, DETAILED)
    .map((p) => `${p.path || '(body)'}: ${p.message}`)
    .join('; ')
  const more = error.problems.length + (error.notListed.errors ?? 0) - DETAILED
  if (more <= 0) return text
  // Validation stops looking past the bound, so a truncated count is a floor.
  return `${text}; and ${listed.truncated?.errors ? 'at least ' : ''}${more} more (see errors)`
}

/** `warnings` and `truncated`, each only when it has something to say. */
const extrasOf = (listed: ReturnType<typeof listedOf>) => ({
  ...(listed.warnings.length ? { warnings: listed.warnings } : {}),
  ...(listed.truncated ? { truncated: listed.truncated } : {}),
})

/** A refused invoice's EN 16931 findings (CONTRACT 22), when its validate endpoint judged them. */
const en16931Of = (error: ApiError) => (error.en16931 ? { en16931: error.en16931 } : {})

/** The FirsErrorDetails record (A.9) with the contract's `errors` list. */
export function firsErrorDetails(error: ApiError) {
  const listed = listedOf(error)
  return {
    timestamp: new Date().toISOString(),
    message: error.message,
    details: detailsOf(error, listed),
    status: statusLine(error.status),
    errors: listed.errors,
    ...rolesOf(error),
    ...extrasOf(listed),
    ...en16931Of(error),
  }
}

/**
 * Response codes for Areas B and C where the error does not carry its own, in the ISO 8583 style the
 * switch already speaks: 30 format error, 63 security violation, 25 record not found, 12 invalid
 * transaction, 65 exceeds frequency limit (a client over its rate limit), 96 system malfunction.
 */
function defaultResponseCode(status: number): string {
  if (status === 401 || status === 403) return '63'
  if (status === 404) return '25'
  if (status === 405 || status === 409) return '12'
  if (status === 429) return '65'
  if (status >= 500) return '96'
  return '30'
}

/** `code` first, then the record: a JSON object gains it, anything else (a list) is sent as it is. */
function withCode(body: unknown, status: number): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body
  return { code: status, ...body }
}

function successBody(kind: ReplyKind, reply: Reply, ctx: ReplyContext, status: number): unknown {
  switch (kind) {
    case 'envelope':
      return {
        status: 'SUCCESS',
        message: reply.message ?? 'Success',
        data: reply.data ?? null,
        execTime: execTime(ctx),
        error: null,
      }
    case 'record':
      return reply.data
    case 'bank': {
      // A business decline (e.g. 51 insufficient funds) is a completed request, not an error: the
      // handler puts its own responseCode/responseMessage/responseStatus in data to override these.
      // Its ISO 20022 pair follows the code (lib/platform/iso20022.ts), unless the data brings its own
      // (a status query answers the first reply as it was sent, iso20022 included).
      const data = (reply.data ?? {}) as Record<string, unknown>
      const responseCode = typeof data.responseCode === 'string' ? data.responseCode : '00'
      // A stored reply comes back from DynamoDB with its map's keys in DynamoDB's order: the pair is
      // written in one order, so a replay is byte for byte the first reply.
      const { status, reason } = (data.iso20022 as Iso20022 | undefined) ?? iso20022Of(responseCode)
      return {
        responseCode: '00',
        responseMessage: reply.message ?? 'Approved',
        responseStatus: 'SUCCESS',
        ...data,
        iso20022: { status, reason },
        traceId: ctx.traceId,
        timestamp: new Date().toISOString(),
      }
    }
    case 'merchant':
      return {
        responseStatus: 'SUCCESS',
        responseMessage: reply.message ?? 'Successful',
        responseCode: '00',
        traceId: ctx.traceId,
        data: reply.data ?? null,
        timestamp: lagosDateTime(),
      }
    case 'notification':
      return {
        status,
        message: reply.message ?? 'Success',
        ...(reply.data === undefined ? {} : { data: reply.data }),
      }
  }
}

/**
 * The authority's error record (CONTRACT 17), on its paths: `{code, message, data: null, error: {id,
 * handler, details, public_message}, errors}`, with `errors` (and `warnings`) as the seed's records.
 */
function authorityErrorBody(error: ApiError, ctx: ReplyContext, handler: string | undefined) {
  const details = firsErrorDetails(error)
  const listed = listedOf(error)
  return {
    code: error.status,
    message: error.message,
    data: null,
    error: {
      id: ctx.requestId,
      handler: handler ?? 'unrouted',
      details: details.details,
      public_message: error.message,
    },
    errors: listed.errors,
    ...rolesOf(error),
    ...extrasOf(listed),
    ...en16931Of(error),
  }
}

/**
 * Areas B and C list `errors` only when there are some (their code is `responseCode`); Area D always
 * (`errors` carries its code); bounded as Area A's are.
 */
function errorsOf(error: ApiError, always = false) {
  if (!always && !error.problems.length) return {}
  const listed = listedOf(error)
  return { errors: listed.errors, ...(listed.truncated ? { truncated: listed.truncated } : {}) }
}

function errorBody(kind: ReplyKind, error: ApiError, ctx: ReplyContext): unknown {
  switch (kind) {
    case 'envelope':
      return {
        status: 'FAILED',
        message: error.message,
        data: null,
        execTime: execTime(ctx),
        error: firsErrorDetails(error),
      }
    case 'record':
      return firsErrorDetails(error)
    case 'bank': {
      const responseCode = error.responseCode ?? defaultResponseCode(error.status)
      return {
        responseCode,
        responseMessage: error.message,
        responseStatus: 'FAILED',
        iso20022: iso20022Of(responseCode, error.iso20022Case),
        traceId: ctx.traceId,
        ...errorsOf(error),
        timestamp: new Date().toISOString(),
      }
    }
    case 'merchant':
      return {
        responseCode: error.responseCode ?? defaultResponseCode(error.status),
        responseMessage: error.message,
        responseStatus: 'FAILED',
        traceId: ctx.traceId,
        ...errorsOf(error),
        timestamp: lagosDateTime(),
      }
    case 'notification':
      return {
        status: error.status,
        message: error.message,
        ...errorsOf(error, true),
      }
  }
}

function response(status: number, body: unknown, ctx: ReplyContext, headers: Record<string, string> = {}) {
  return {
    statusCode: status,
    headers: {
      'content-type': 'application/json',
      'x-request-id': ctx.requestId,
      'x-trace-id': ctx.traceId,
      ...headers,
    },
    body: body === undefined ? '' : JSON.stringify(body),
  } satisfies APIGatewayProxyStructuredResultV2
}

export function successResponse(shape: ReplyShape, reply: Reply, ctx: ReplyContext) {
  const status = reply.status ?? 200
  // 304 Not Modified and 204 No Content carry no body, whatever the area.
  if (status === 304 || status === 204)
    return { ...response(status, undefined, ctx, reply.headers), body: '' }
  if (reply.raw) {
    const base = response(status, undefined, ctx, { 'content-type': reply.raw.contentType, ...reply.headers })
    const { body } = reply.raw
    if (typeof body === 'string') return { ...base, body }
    return { ...base, body: Buffer.from(body).toString('base64'), isBase64Encoded: true }
  }
  const body = successBody(shape.kind, reply, ctx, status)
  return response(status, shape.withCode ? withCode(body, status) : body, ctx, reply.headers)
}

export function errorResponse(shape: ReplyShape, error: ApiError, ctx: ReplyContext) {
  if (shape.profile === 'authority') {
    return response(error.status, authorityErrorBody(error, ctx, shape.handler), ctx, error.headers)
  }
  const body = errorBody(shape.kind, error, ctx)
  return response(error.status, shape.withCode ? withCode(body, error.status) : body, ctx, error.headers)
}
