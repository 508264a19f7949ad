import { type Consumer, consumers } from '#lib/service/consumers.ts'
import { functionsOf, type Route, routes as routeTable, UNROUTED } from '#lib/service/routes.ts'
import { keys, NONCE_PREFIX, RATE_PREFIX, REPLAY_PREFIX } from '#lib/platform/db/keys.ts'
import type { AuthScheme } from '#lib/platform/http/route.ts'
import { type Access, mergeAccess, type TableGrant } from '#lib/platform/iam/access.ts'

/** The partition-key prefix of a key builder's keys (`keys.apiClient('').pk` is `APIKEY#`). */
const prefixOf = (key: { pk: string }) => key.pk

/**
 * The per-client rate limit (lib/platform/auth/rate-limit.ts): every authenticating verifier counts the request
 * in its client's window, leasing a share of it with one UpdateItem (ADD) under RATE# when its
 * container's lease is spent (lib/platform/auth/rate-lease.ts).
 */
export const RATE_LIMIT_GRANT: TableGrant = { actions: ['UpdateItem'], keys: [RATE_PREFIX] }

/**
 * What each auth scheme's verifier (lib/platform/auth) does on every request, whatever the route:
 * - api-signature reads the API client record and its business's (for the business's rate limit),
 *   opens the client's secrets, then writes the signature's replay item (api-signature.ts,
 *   replay-store.ts);
 * - switch-signature reads the bearer token and the switch client record, opens the client's
 *   secrets, then spends the nonce (switch-signature.ts, bearer.ts, replay-store.ts);
 * - the bearer schemes read their token record (bearer.ts);
 * - all four count the request in the client's rate limit window (RATE_LIMIT_GRANT), Area A in its
 *   business's too.
 */
export const SCHEME_ACCESS: Record<AuthScheme, Access> = {
  'api-signature': {
    table: [
      { actions: ['GetItem'], keys: [prefixOf(keys.apiClient('')), prefixOf(keys.business(''))] },
      { actions: ['PutItem'], keys: [REPLAY_PREFIX] },
      RATE_LIMIT_GRANT,
    ],
    decrypt: ['api-client'],
  },
  'switch-signature': {
    table: [
      { actions: ['GetItem'], keys: [prefixOf(keys.bearer('')), prefixOf(keys.switchClient(''))] },
      { actions: ['PutItem'], keys: [NONCE_PREFIX] },
      RATE_LIMIT_GRANT,
    ],
    decrypt: ['switch-client'],
  },
  'merchant-bearer': {
    table: [{ actions: ['GetItem'], keys: [prefixOf(keys.bearer(''))] }, RATE_LIMIT_GRANT],
  },
  'admin-bearer': {
    table: [{ actions: ['GetItem'], keys: [prefixOf(keys.bearer(''))] }, RATE_LIMIT_GRANT],
  },
  none: {},
}

/**
 * The idempotency layer (lib/platform/http/idempotency.ts) of a route that takes an Idempotency-Key: one
 * conditional put claims the key, an update stores the reply, a delete releases a failed attempt; a
 * reply too large for one item is put in parts beside it and got back on a retry.
 */
export const IDEMPOTENCY_ACCESS: Access = {
  table: [
    {
      actions: ['PutItem', 'UpdateItem', 'DeleteItem', 'GetItem'],
      keys: [prefixOf(keys.idempotency('', '', ''))],
    },
  ],
}

/**
 * A route whose reply carries a secret keeps its stored first reply sealed (lib/platform/http/sealed-reply.ts):
 * it seals on the first request and opens on a replay.
 */
export const SEALED_REPLY_ACCESS: Access = {
  encrypt: ['idempotent-reply'],
  decrypt: ['idempotent-reply'],
}

/**
 * Each function's Access, for the policy generator (infra/constructs/grants.ts) and for the local IAM
 * guard of a run from sources (scripts/local/iam.ts): both read it from here, so what is tested
 * locally is what the role allows in AWS.
 */

/**
 * The Access of the API function serving `routes` (all of one declaration): what its declaration
 * says it does (lib/service/endpoints), what its auth scheme does on every request, and the idempotency
 * layer where a route takes an Idempotency-Key. The ONLY place an API function's Access is derived.
 */
export function accessOfRoutes(routes: readonly Route[]): Access {
  return mergeAccess(
    ...routes.map((r) => r.access),
    ...routes.map((r) => SCHEME_ACCESS[r.auth]),
    ...(routes.some((r) => r.writes && (r.method === 'POST' || r.method === 'PATCH'))
      ? [IDEMPOTENCY_ACCESS]
      : []),
    ...(routes.some((r) => r.sealedReply) ? [SEALED_REPLY_ACCESS] : []),
  )
}

/** A consumer's Access: what its declaration says it does (lib/service/consumers.ts), and no more. */
export function accessOfConsumer(c: Consumer): Access {
  return mergeAccess(c.access)
}

/**
 * Every function a stage deploys, by functionId, with its Access: the API functions of the route
 * table, the catch-all (which touches nothing) and every consumer. The local IAM guard holds each
 * local run to these (scripts/local/iam.ts), and test/infra checks that every function of the
 * synthesized stage has one.
 */
export function accessOfFunctions(table: readonly Route[] = routeTable): Map<string, Access> {
  const out = new Map<string, Access>()
  for (const [functionId, served] of functionsOf(table)) {
    out.set(functionId, accessOfRoutes(served))
  }
  out.set(UNROUTED.functionId, {})
  for (const c of consumers) out.set(c.functionId, accessOfConsumer(c))
  return out
}
