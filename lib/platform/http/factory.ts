import { randomUUID } from 'node:crypto'
import middy from '@middy/core'
import httpEventNormalizer from '@middy/http-event-normalizer'
import httpHeaderNormalizer from '@middy/http-header-normalizer'
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda'
import type * as z from 'zod'
import type { Verifier } from '#lib/platform/auth/authenticate.ts'
import { type Caller, labelOf } from '#lib/platform/auth/caller.ts'
import { RateLimited, rateLimitHeaders } from '#lib/platform/auth/rate-limit.ts'
import { isUnavailable } from '#lib/platform/db/errors.ts'
import { logger } from '#lib/platform/log.ts'
import { currentMode, inRequestScope, setRequestMode } from '#lib/platform/mode.ts'
import { type AuthScheme, type ReplyKind, type Route, routeKey } from '#lib/platform/http/route.ts'
import { collapseRepeatedContentType } from './content-type.ts'
import { type Endpoint, forVersion, routesOf } from './endpoint.ts'
import { BadRequest, DependencyDown } from '#lib/platform/errors.ts'
import { ApiError, toApiError } from './errors.ts'
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  type IdempotencyClaim,
  releaseIdempotencyKey,
} from './idempotency.ts'
import { parseEventJsonBody } from './json-body.ts'
import { XML_CONTENT_TYPE, XmlBody } from './xml-body.ts'
import type { ReplySealer } from './sealed-reply.ts'
import {
  errorResponse,
  type Reply,
  type ReplyContext,
  replyShapeOf,
  successResponse,
  unroutedShape,
} from './replies.ts'
import { observability, traceIdOf } from './observability.ts'
import { parseOrThrow } from './validation.ts'

/** What the catch-all answers a request no route takes (functions/meta/route-table.ts). */
export type UnroutedResolver = (method: string, path: string) => { error: ApiError; reply: ReplyKind }

/** Bodies over 1 MiB are refused before anything else looks at them (CONTRACT section 3). */
export const MAX_BODY_BYTES = 1024 * 1024

/** Retry-After of a 503 for a dependency throttled or unreachable: DynamoDB and Lambda recover in seconds. */
const RETRY_UNAVAILABLE_SECONDS = 2

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** What a handler is given: the validated request and who sent it. */
export interface HandlerContext<B = unknown, Q = unknown, P = unknown, C extends Caller = Caller> {
  body: B
  query: Q
  params: P
  /** `v1` or `v2` for Area A routes, from the path. */
  version: 'v1' | 'v2' | undefined
  /** Who is calling, as the function's verifier established it (already narrowed to its scheme). */
  caller: C
  route: Route
  headers: Record<string, string | undefined>
  requestId: string
  traceId: string
  event: APIGatewayProxyEventV2
}

/** Per-request state the middlewares build up, carried on the Lambda context to the handler. */
interface RequestState {
  reply: ReplyContext
  route?: Route
  /** The record kind for a request that matched no route (from its path's area). */
  unroutedReply?: ReplyKind
  rawBody: Buffer
  caller: Caller
  idempotency?: IdempotencyClaim
}

type ApiContext = Context & { api: RequestState }
type MiddyRequest = middy.Request<
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  Error,
  ApiContext
>
type Middleware = middy.MiddlewareObj<
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  Error,
  ApiContext
>

function rawBodyOf(event: APIGatewayProxyEventV2): Buffer {
  if (event.body === undefined || event.body === null) return Buffer.alloc(0)
  return Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8')
}

/** Request id, trace id and start time: first in, so even a refused request is traceable. */
const requestIdentity = (): Middleware => ({
  name: 'request-identity',
  before: (request) => {
    request.context.api = {
      reply: {
        startedAt: performance.now(),
        requestId: request.event.requestContext?.requestId ?? request.context.awsRequestId ?? randomUUID(),
        traceId: traceIdOf(request.event.headers),
      },
      rawBody: Buffer.alloc(0),
      caller: { scheme: 'none' },
    }
  },
  after: (request) => {
    addCallerHeaders(request)
    logCompletion(request)
  },
  onError: (request) => {
    request.response = toErrorResponse(request)
    addCallerHeaders(request)
    logCompletion(request)
  },
})

/** What every authenticated reply says about its caller: its mode, and its rate limit window. */
function addCallerHeaders(request: MiddyRequest) {
  addRateLimitHeaders(request)
  const caller = request.context.api?.caller
  if (!caller || !('mode' in caller) || !request.response) return
  // CONTRACT section 15: a client can always tell which mode answered it.
  request.response = {
    ...request.response,
    headers: { ...request.response.headers, 'X-Environment': caller.mode },
  }
}

/**
 * Every authenticated reply says where its client stands in its rate limit window (CONTRACT section
 * 14), a 429 included; a replayed reply says where the client stands now, not at the first request.
 */
function addRateLimitHeaders(request: MiddyRequest) {
  const caller = request.context.api?.caller
  const rate =
    (caller && 'rate' in caller ? caller.rate : undefined) ??
    (request.error instanceof RateLimited ? request.error.rate : undefined)
  if (!rate || !request.response) return
  request.response = {
    ...request.response,
    headers: { ...request.response.headers, ...rateLimitHeaders(rate) },
  }
}

/**
 * Finds the request's route among the declaration's own, by API Gateway's routeKey. A function with
 * no routes is the catch-all, which answers 404 or 405; a routed function never gets another route's
 * request from API Gateway, so one reaching it is a build mistake (a logged 500).
 */
const routeResolution = (declaration: Endpoint, resolveUnrouted?: UnroutedResolver): Middleware => {
  const served = new Map(routesOf(declaration).map((route) => [routeKey(route), route]))
  return {
    name: 'route-resolution',
    before: (request) => {
      const route = served.get(request.event.routeKey)
      if (route) {
        request.context.api.route = route
        return
      }
      if (served.size > 0) {
        throw new Error(
          `${request.event.routeKey} reached ${declaration.functionId}, which serves only ${[...served.keys()].join(', ')}`,
        )
      }
      if (!resolveUnrouted) throw new Error(`${declaration.functionId} serves no route and resolves none`)
      const unrouted = resolveUnrouted(request.event.requestContext.http.method, request.event.rawPath)
      request.context.api.unroutedReply = unrouted.reply
      throw unrouted.error
    },
  }
}

/** The size limit and the auth scheme both work on the exact bytes received, before any parsing. */
const authentication = (verifier: Verifier): Middleware => ({
  name: 'authentication',
  before: async (request) => {
    const { event } = request
    const state = request.context.api
    const route = state.route!
    const rawBody = rawBodyOf(event)
    if (rawBody.length > MAX_BODY_BYTES) {
      throw new ApiError(
        413,
        `The request body is larger than the limit of ${MAX_BODY_BYTES} bytes (1 MiB)`,
        {
          code: 'BODY_TOO_LARGE',
        },
      )
    }
    state.rawBody = rawBody
    state.caller = await verifier.verify({
      route,
      method: event.requestContext.http.method,
      target: event.rawQueryString ? `${event.rawPath}?${event.rawQueryString}` : event.rawPath,
      headers: event.headers,
      rawBody,
    })
    // Everything from here on (idempotency, the handler, what it queues) is in the credential's mode.
    if ('mode' in state.caller) setRequestMode(state.caller.mode)
  },
})

/**
 * JSON bodies: an empty body is a 400 that says so, malformed JSON a 400 (not the parser's 422). A
 * route that takes XML too (`xmlBody`) gets an XML body as an XmlBody, its text unparsed.
 */
const jsonBody = (acceptsXml: boolean): Middleware => {
  const accepted = acceptsXml ? 'application/json or application/xml' : 'application/json'
  return {
    name: 'json-body',
    before: async (request) => {
      const method = request.event.requestContext.http.method
      if (!METHODS_WITH_BODY.has(method)) return
      // A DELETE names its target in the path; only one that sends a body must send JSON.
      if (method === 'DELETE' && request.context.api.rawBody.length === 0) return
      // Nor does a route whose path carries its body (the authority's transmit sends none).
      if (request.context.api.route?.bodyFromPath && request.context.api.rawBody.length === 0) return
      collapseRepeatedContentType(request.event.headers)
      if (acceptsXml && XML_CONTENT_TYPE.test(request.event.headers['content-type'] ?? '')) {
        if (request.context.api.rawBody.length === 0) {
          throw new BadRequest(
            'The request body is empty: send a UBL 2.1 Invoice or CreditNote, or a JSON object',
          )
        }
        ;(request.event as { body: unknown }).body = new XmlBody(request.context.api.rawBody.toString('utf8'))
        return
      }
      try {
        // middy's http-json-body-parser rules at a fraction of its cost (lib/platform/http/json-body.ts).
        parseEventJsonBody(request)
      } catch (error) {
        if ((error as { statusCode?: number }).statusCode === 415) {
          const received = request.event.headers['content-type'] ?? 'none'
          throw new ApiError(415, `Content-Type must be ${accepted} (received ${received})`, {
            code: 'UNSUPPORTED_MEDIA_TYPE',
          })
        }
        if (request.context.api.rawBody.length === 0) {
          throw new BadRequest(
            'The request body is empty: send a JSON object with Content-Type: application/json',
            { code: 'BODY_EMPTY' },
          )
        }
        throw new BadRequest('The request body is not valid JSON: check quoting, commas and brackets', {
          code: 'BODY_NOT_JSON',
        })
      }
    },
  }
}

/** A function's timeout (infra/constructs/api-function.ts): the bound when a caller gives no context. */
const DEFAULT_FUNCTION_MS = 10_000
const remainingTimeOf = (context: Context) =>
  typeof context.getRemainingTimeInMillis === 'function'
    ? context.getRemainingTimeInMillis()
    : DEFAULT_FUNCTION_MS

/** Idempotency-Key: a retry gets the first reply back without running the handler again. */
const idempotency = (sealer: ReplySealer | undefined): Middleware => ({
  name: 'idempotency',
  before: async (request) => {
    const state = request.context.api
    const outcome = await claimIdempotencyKey(
      state.route!,
      state.caller,
      request.event,
      state.rawBody,
      remainingTimeOf(request.context),
      sealer,
    )
    if (outcome?.replay) return outcome.replay
    state.idempotency = outcome?.claim
    return undefined
  },
  after: async (request) => {
    const claim = request.context.api.idempotency
    if (claim && request.response) await completeIdempotencyKey(claim, request.response)
  },
  onError: async (request) => {
    const claim = request.context.api.idempotency
    // Best effort: if even the release fails, the key expires with its TTL.
    if (claim) await releaseIdempotencyKey(claim).catch(() => undefined)
  },
})

function toErrorResponse(request: MiddyRequest): APIGatewayProxyStructuredResultV2 {
  const state = request.context.api
  const kind = state.route?.reply ?? state.unroutedReply ?? 'record'
  const shape = state.route ? replyShapeOf(state.route) : unroutedShape(kind)
  const error = request.error
  const known = toApiError(error)
  if (known) return errorResponse(shape, known, state.reply)
  if (isUnavailable(error)) {
    logger.error('dependency unavailable', { error })
    // Throttled or down, behind the API (DynamoDB, Lambda): the caller may retry, and is told when.
    const down = new DependencyDown('A service this request depends on is unavailable: retry shortly', {
      retryAfterSeconds: RETRY_UNAVAILABLE_SECONDS,
    })
    return errorResponse(shape, toApiError(down)!, state.reply)
  }
  // A bug: the stack goes to the log, never to the caller.
  logger.error('unhandled error', { error })
  const generic = new ApiError(500, 'An unexpected error occurred; it has been logged with this request id')
  return errorResponse(shape, generic, state.reply)
}

/**
 * One line per request: route, status, latency, mode and who called (lib/platform/auth/caller.ts
 * labelOf: a key's fingerprint, the switch client's or the merchant's id), so that one integrator's
 * requests can be found in the logs; a refused one names what it presented.
 */
function logCompletion(request: MiddyRequest) {
  const { reply, route, caller } = request.context.api
  const refusedAs = (request.error as { caller?: unknown } | null | undefined)?.caller
  logger.info('request', {
    route: route ? `${route.method} ${route.path}` : request.event.routeKey,
    status: request.response?.statusCode,
    caller:
      caller && caller.scheme !== 'none'
        ? labelOf(caller)
        : typeof refusedAs === 'string'
          ? refusedAs
          : 'anonymous',
    mode: currentMode(),
    requestId: reply.requestId,
    traceId: reply.traceId,
    durationMs: Math.round(performance.now() - reply.startedAt),
  })
}

/**
 * Builds a Lambda handler for an HTTP API (payload 2.0) route from the endpoint's declaration and the
 * verifier of its auth scheme. Every function is made with this, so every endpoint shares one order
 * of checks: identity, route, size, authentication, JSON parsing, validation of the declared
 * request schemas, then the handler, with one error mapping into the route's area record.
 * The verifier must be of the declared scheme: another scheme's does not compile.
 */
export function apiHandler<
  B extends z.ZodType,
  Q extends z.ZodType,
  P extends z.ZodType,
  S extends AuthScheme,
  V extends Verifier<NoInfer<S>>,
>(
  declaration: Endpoint<B, Q, P, S>,
  verifier: V,
  fn: (
    ctx: HandlerContext<z.output<B>, z.output<Q>, z.output<P>, Awaited<ReturnType<V['verify']>>>,
  ) => Promise<Reply> | Reply,
  options: {
    /** The catch-all (a declaration with no routes) answers every other request with this. */
    resolveUnrouted?: UnroutedResolver
    /** Required when the declaration says `sealedReply`: lib/platform/http/sealed-reply.ts's sealedReplies. */
    sealedReplies?: ReplySealer
  } = {},
) {
  const { request: declared } = declaration
  if (declaration.sealedReply && !options.sealedReplies) {
    // At cold start, never as a secret stored in plain text.
    throw new Error(`${declaration.functionId} declares sealedReply: its handler must pass sealedReplies`)
  }
  const handler = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiContext>()
    .use([
      observability() as Middleware,
      requestIdentity(),
      httpHeaderNormalizer() as Middleware,
      httpEventNormalizer() as Middleware,
      routeResolution(declaration as Endpoint, options.resolveUnrouted),
      authentication(verifier),
      jsonBody(declared.xmlBody === true),
      idempotency(options.sealedReplies),
    ])
    .handler(async (event, context) => {
      const state = context.api
      const route = state.route!
      const version = /^\/api\/(v[12])\//.exec(route.path)?.[1] as 'v1' | 'v2' | undefined
      const bodySchema =
        declared.body && declared.bodyValidation !== 'service'
          ? forVersion(declared.body, version)
          : undefined
      // A route whose path carries what the seed's body does (CONTRACT 17) is validated as that body.
      const sent = route.bodyFromPath ? { ...event.pathParameters } : event.body
      const reply = await fn({
        body: (bodySchema
          ? parseOrThrow(
              bodySchema,
              sent,
              route.bodyFromPath ? 'path' : 'body',
              declared.invalidBody,
              declared.documentPaths,
            )
          : sent) as z.output<B>,
        query: (declared.query && declared.queryValidation !== 'handler'
          ? parseOrThrow(declared.query, event.queryStringParameters ?? {}, 'query')
          : event.queryStringParameters) as z.output<Q>,
        params: (declared.params
          ? parseOrThrow(declared.params, event.pathParameters ?? {}, 'path')
          : event.pathParameters) as z.output<P>,
        version,
        caller: state.caller as Awaited<ReturnType<V['verify']>>,
        route,
        headers: event.headers,
        requestId: state.reply.requestId,
        traceId: state.reply.traceId,
        event,
      })
      return successResponse(replyShapeOf(route), reply, state.reply)
    })
  // Each invocation in a mode scope of its own (lib/platform/mode.ts), which authentication sets.
  const scoped = (event: APIGatewayProxyEventV2, context: Context) =>
    inRequestScope(() => handler(event, context as ApiContext))
  // The scheme and the declaration this function was built with, for the route-table consistency tests.
  return Object.assign(scoped, { authScheme: verifier.scheme, declaration: declaration as Endpoint })
}
