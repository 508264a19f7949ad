import { DEFAULT_RATE_LIMIT } from '#lib/platform/auth/rate-limit.ts'
import type { Endpoint } from '#lib/platform/http/endpoint.ts'
import type { Route } from '#lib/platform/http/route.ts'

/**
 * The error replies a route gives whatever its endpoint does, from the factory and the auth scheme
 * (lib/platform/http/factory.ts, lib/platform/auth/*): declared here once rather than in every endpoint. An endpoint's
 * own declaration of the same status wins (its description is more precise).
 */
const WRITE_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE']

export const takesIdempotencyKey = (route: Route) =>
  ['POST', 'PATCH'].includes(route.method) && route.writes && route.auth !== 'none'

const UNAUTHORIZED: Record<Route['auth'], string | undefined> = {
  'api-signature':
    'Authentication failed: a missing header, an unknown or revoked key, an expired timestamp, a bad signature or a replay (the message says which)',
  'switch-signature':
    'Signature refused: 94 missing header, 95 malformed, 92 timestamp, 91 signature, 93 nonce reused (responseCode says which)',
  'merchant-bearer': 'The bearer token is missing or is not a valid merchant token',
  'admin-bearer': 'The bearer token is missing or is not the notification admin key',
  none: undefined,
}

export function commonReplies(route: Route, declaration: Endpoint): Record<number, string> {
  const replies: Record<number, string> = {}
  const { request } = declaration
  if (request.query || request.params)
    replies[400] = 'A query or path parameter is invalid: every problem is listed'
  if (WRITE_METHODS.includes(route.method)) {
    replies[400] = 'The body is empty, not JSON, or invalid: every problem is listed'
    replies[413] = 'The body is larger than 1 MiB'
    replies[415] = 'Content-Type is not application/json'
  }
  const unauthorized = UNAUTHORIZED[route.auth]
  if (unauthorized) replies[401] = unauthorized
  if (route.auth === 'api-signature') replies[403] = "The API key's roles do not allow this endpoint"
  if (route.auth === 'merchant-bearer')
    replies[403] = 'x-Merchant-Id is not the merchant the token was issued to'
  if (takesIdempotencyKey(route)) {
    replies[400] ??= 'The Idempotency-Key is malformed'
    replies[409] =
      'The Idempotency-Key was used with a different body, or its first request is still in progress'
  }
  if (route.auth !== 'none') replies[429] = RATE_LIMITED
  // Everything that authenticates or reads the table can find it unavailable; the document is bundled.
  if (route.auth !== 'none' || route.access.table?.length) {
    replies[503] =
      'A service this request depends on is unavailable or throttled (DynamoDB, Lambda): retry after Retry-After seconds'
  }
  return replies
}

const { quota, windowSeconds } = DEFAULT_RATE_LIMIT
export const RATE_LIMITED = `The client is over its rate limit (by default ${quota} requests every ${windowSeconds} s per API key, switch client, merchant token or admin key; set per client by the operator): retry after Retry-After seconds`

/**
 * The headers every reply of an authenticated route carries once its caller is known (CONTRACT
 * section 14, draft-ietf-httpapi-ratelimit-headers; section 15's X-Environment), and Retry-After on the replies that ask for a
 * retry later: declared once in the document's components (the defaults published there), referred
 * to by name from each reply.
 */
export const REPLY_HEADERS = {
  'RateLimit-Policy': {
    description: `The client's rate limit, \`"default";q=<requests>;w=<window seconds>\`. The default is \`"default";q=${quota};w=${windowSeconds}\`; the operator may set another per client. Sent on every reply once the caller is authenticated.`,
    schema: { type: 'string', examples: [`"default";q=${quota};w=${windowSeconds}`] },
  },
  RateLimit: {
    description:
      'Where the client stands in its window, `"default";r=<requests left>;t=<seconds until the window ends>`. Sent on every reply once the caller is authenticated.',
    schema: { type: 'string', examples: [`"default";r=${quota - 1};t=${windowSeconds}`] },
  },
  'X-Environment': {
    description:
      'The mode of the credential that made the request, `live` or `test` (CONTRACT section 15): test-mode credentials read and write test-mode data only. Sent on every reply once the caller is authenticated.',
    schema: { type: 'string', enum: ['live', 'test'] },
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying',
    schema: { type: 'string', pattern: '^\\d+$' },
  },
}

/**
 * The names of REPLY_HEADERS a route's reply of this status refers to. The rate-limit headers and
 * X-Environment come with every reply to a known caller, and their descriptions say so; the document
 * names them on the success replies (and the rate-limit ones on the 429) only, where a client reads them: on every error reply of every route they
 * took a fifth of the document (and of the docs and openapi bundles that carry it).
 */
export function commonReplyHeaders(route: Route, status: number): (keyof typeof REPLY_HEADERS)[] {
  const names: (keyof typeof REPLY_HEADERS)[] = []
  if (route.auth !== 'none' && ((status >= 200 && status < 300) || status === 429))
    names.push('RateLimit-Policy', 'RateLimit')
  // A 429 is decided while the caller is being authenticated, before its mode is known.
  if (route.auth !== 'none' && status >= 200 && status < 300) names.push('X-Environment')
  if (status === 429 || status === 503 || (status === 409 && takesIdempotencyKey(route)))
    names.push('Retry-After')
  return names
}
