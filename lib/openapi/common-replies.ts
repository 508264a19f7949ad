import type { Endpoint } from '#lib/http/endpoint.ts'
import type { Route } from '#lib/route.ts'

/**
 * The error replies a route gives whatever its endpoint does, from the factory and the auth scheme
 * (lib/http/factory.ts, lib/auth/*): declared here once rather than in every endpoint. An endpoint's
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
  // Everything that authenticates or reads the table can find it unavailable; the document is bundled.
  if (route.auth !== 'none' || route.access.table?.length) {
    replies[503] = 'A service this request depends on is unavailable: retry shortly'
  }
  return replies
}
