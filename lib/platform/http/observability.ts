import { randomUUID } from 'node:crypto'
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware'
import type middy from '@middy/core'
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda'
import { logger } from '#lib/platform/log.ts'
import { countColdStart, countMetric, METRIC } from '#lib/platform/metrics.ts'
import type { Route } from '#lib/platform/http/route.ts'
import { ApiError } from './errors.ts'

/**
 * Observability of every API request, as one middleware placed first in the handler factory (so its
 * `after`/`onError` run last and see the final reply):
 * - the Powertools Logger's Lambda context on every line (`cold_start`, `function_request_id`,
 *   `function_name`, ...) and the caller's correlation id (`correlation_id`), cleared after each request;
 * - EMF metrics (lib/platform/metrics.ts): requests by route and status class, refusals by reason, invoices by
 *   outcome and rule code, transfers and reversals by response code, cold starts.
 */

/** Ids we accept from callers: printable and short, so a header cannot forge or flood a log line. */
const SAFE_ID = /^[A-Za-z0-9._:/+=-]{1,128}$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
/** W3C Trace Context: version-traceid-parentid-flags (https://www.w3.org/TR/trace-context/#traceparent-header). */
const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/

/**
 * The caller's correlation id, first of: the trace id of a W3C `traceparent`, `x-request-id`,
 * `x-trace-id`. Undefined when none was sent or none is a safe id.
 */
export function correlationIdOf(headers: Record<string, string | undefined> | undefined): string | undefined {
  if (!headers) return undefined
  const traceparent = TRACEPARENT.exec(headers.traceparent?.trim().toLowerCase() ?? '')
  if (traceparent && !/^0+$/.test(traceparent[1]!)) return traceparent[1]
  for (const name of ['x-request-id', 'x-trace-id']) {
    const value = headers[name]?.trim()
    if (value && SAFE_ID.test(value)) return value
  }
  return undefined
}

/**
 * The reply's traceId (a UUID in every record that carries one): the caller's correlation id when it
 * is a UUID or a 32-hex W3C trace id (written as a UUID), so both sides quote the same id; else fresh.
 */
export function traceIdOf(headers: Record<string, string | undefined> | undefined): string {
  const id = correlationIdOf(headers)
  if (id && UUID.test(id)) return id.toLowerCase()
  if (id && /^[0-9a-f]{32}$/.test(id)) {
    return `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20)}`
  }
  return randomUUID()
}

type Request = middy.Request<
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  Error,
  Context & { api?: { route?: Route } }
>

function statusClassOf(status: number): string {
  return `${Math.floor(status / 100)}xx`
}

/**
 * A refusal's reason, stable enough to count: the error's own `reason` when it carries one, else its
 * status and response code (the messages are for people and change).
 */
function refusalReasonOf(error: unknown, status: number): string {
  const own = (error as { reason?: unknown } | undefined)?.reason
  if (typeof own === 'string' && own) return own
  const code = error instanceof ApiError ? error.responseCode : undefined
  return code ? `${status}-${code}` : String(status)
}

function responseCodeOf(response: APIGatewayProxyStructuredResultV2): string {
  try {
    const code = (JSON.parse(response.body ?? '') as { responseCode?: unknown }).responseCode
    return typeof code === 'string' ? code : 'none'
  } catch {
    return 'none'
  }
}

function record(request: Request): void {
  const response = request.response
  const status = response?.statusCode ?? 500
  const route = request.context.api?.route
  const routeName = route ? `${route.method} ${route.path}` : 'unrouted'
  countMetric(METRIC.requests, { route: routeName, statusClass: statusClassOf(status) })
  if (status === 401 || status === 403) {
    countMetric(METRIC.refusals, {
      scheme: route?.auth ?? 'none',
      reason: refusalReasonOf(request.error, status),
    })
  }
  if (!route || !response) return
  if (route.metric === 'invoices' && (status < 300 || status === 400 || status === 422)) {
    countMetric(METRIC.invoices, { outcome: status < 300 ? 'accepted' : 'rejected' })
    const problems = request.error instanceof ApiError ? request.error.problems : []
    for (const ruleCode of new Set(problems.map((p) => p.code))) {
      countMetric(METRIC.invoiceRuleFailures, { ruleCode })
    }
  }
  // The operation is the path's last segment: /api/v1/transactions/transfer -> transfer.
  const operation = route.metric === 'transactions' ? route.path.split('/').pop() : undefined
  if (operation) countMetric(METRIC.transactions, { operation, responseCode: responseCodeOf(response) })
}

/** The middleware (see the top of this module). */
export function observability(): middy.MiddlewareObj<
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  Error,
  Context
> {
  const context = injectLambdaContext(logger, { resetKeys: true })
  const finish = (request: Request) => {
    try {
      record(request)
    } catch (error) {
      // Metrics must never change a reply.
      logger.warn('metrics not recorded', { error })
    }
  }
  return {
    before: (request) => {
      context.before?.(request as never)
      countColdStart(request.context.functionName)
      const correlationId = correlationIdOf(request.event.headers)
      if (correlationId) logger.setCorrelationId(correlationId)
    },
    after: (request) => {
      finish(request as Request)
      context.after?.(request as never)
    },
    onError: (request) => {
      finish(request as Request)
      context.onError?.(request as never)
    },
  }
}
