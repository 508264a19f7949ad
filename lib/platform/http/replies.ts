import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda'
import type { ReplyKind } from '#lib/platform/http/route.ts'
import { lagosDateTime } from '#lib/platform/time.ts'
import type { ApiError } from './errors.ts'
import { statusLine } from './status.ts'

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

const execTime = (ctx: ReplyContext) => `${Math.max(0, Math.round(performance.now() - ctx.startedAt))}ms`

/** The FirsErrorDetails record (A.9) with the contract's `errors` list. */
export function firsErrorDetails(error: ApiError) {
  return {
    timestamp: new Date().toISOString(),
    message: error.message,
    details: error.problems.length
      ? error.problems.map((p) => `${p.path || '(body)'}: ${p.message}`).join('; ')
      : error.message,
    status: statusLine(error.status),
    errors: error.problems,
    ...(error.warnings.length ? { warnings: error.warnings } : {}),
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
      const data = (reply.data ?? {}) as Record<string, unknown>
      return {
        responseCode: '00',
        responseMessage: reply.message ?? 'Approved',
        responseStatus: 'SUCCESS',
        ...data,
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
    case 'bank':
    case 'merchant':
      return {
        responseCode: error.responseCode ?? defaultResponseCode(error.status),
        responseMessage: error.message,
        responseStatus: 'FAILED',
        traceId: ctx.traceId,
        ...(error.problems.length ? { errors: error.problems } : {}),
        timestamp: kind === 'merchant' ? lagosDateTime() : new Date().toISOString(),
      }
    case 'notification':
      return {
        status: error.status,
        message: error.message,
        ...(error.problems.length ? { errors: error.problems } : {}),
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

export function successResponse(kind: ReplyKind, reply: Reply, ctx: ReplyContext) {
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
  return response(status, successBody(kind, reply, ctx, status), ctx, reply.headers)
}

export function errorResponse(kind: ReplyKind, error: ApiError, ctx: ReplyContext) {
  return response(error.status, errorBody(kind, error, ctx), ctx, error.headers)
}
