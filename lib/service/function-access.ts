import { type Consumer, consumers } from '#lib/service/consumers.ts'
import { functionsOf, type Route, routes as routeTable, UNROUTED } from '#lib/service/routes.ts'
import { keys, NONCE_PREFIX, RATE_PREFIX, REPLAY_PREFIX, TEST_CLOCK_PREFIX } from '#lib/platform/db/keys.ts'
import type { AuthScheme } from '#lib/platform/http/route.ts'
import {
  type Access,
  ALL_INDEXES,
  mergeAccess,
  READ_ACTIONS,
  type TableGrant,
  WRITE_ACTIONS,
} from '#lib/platform/iam/access.ts'

/** The partition-key prefix of a key builder's keys (`keys.apiClient('').pk` is `APIKEY#`). */
const prefixOf = (key: { pk: string }) => key.pk

/**
 * The per-client rate limit (lib/platform/auth/rate-limit.ts): every authenticating verifier counts the request
 * in its client's window, one UpdateItem (ADD) under RATE#.
 */
export const RATE_LIMIT_GRANT: TableGrant = { actions: ['UpdateItem'], keys: [RATE_PREFIX] }

/**
 * What each auth scheme's verifier (lib/platform/auth) does on every request, whatever the route:
 * - api-signature reads the API client record and opens its secrets, then writes the signature's
 *   replay item (api-signature.ts, replay-store.ts);
 * - switch-signature reads the bearer token and the switch client record, opens the client's
 *   secrets, then spends the nonce (switch-signature.ts, bearer.ts, replay-store.ts);
 * - the bearer schemes read their token record (bearer.ts);
 * - all four count the request in the client's rate limit window (RATE_LIMIT_GRANT).
 */
export const SCHEME_ACCESS: Record<AuthScheme, Access> = {
  'api-signature': {
    table: [
      { actions: ['GetItem'], keys: [prefixOf(keys.apiClient(''))] },
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
 * conditional put claims the key, an update stores the reply, a delete releases a failed attempt.
 */
export const IDEMPOTENCY_ACCESS: Access = {
  table: [
    { actions: ['PutItem', 'UpdateItem', 'DeleteItem'], keys: [prefixOf(keys.idempotency('', '', ''))] },
    // In test mode the retention runs on the caller's test clock (lib/platform/test-clock.ts).
    { actions: ['GetItem'], keys: [TEST_CLOCK_PREFIX] },
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

/** Every record, read (`read`) or written (`write`), through the table and every index. */
export function tableGrantsOf(access: 'none' | 'read' | 'write'): TableGrant[] {
  if (access === 'none') return []
  return [{ actions: access === 'write' ? WRITE_ACTIONS : READ_ACTIONS, indexes: ALL_INDEXES }]
}

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

/** A consumer's Access, from its lib/service/consumers.ts entry. */
export function accessOfConsumer(c: Consumer): Access {
  return mergeAccess({
    table: typeof c.tableAccess === 'string' ? tableGrantsOf(c.tableAccess) : c.tableAccess,
    ...(c.dataKey?.decrypt ? { decrypt: c.dataKey.decrypt } : {}),
    ...(c.dataKey?.encrypt ? { encrypt: c.dataKey.encrypt } : {}),
    ...(c.secrets ? { secrets: c.secrets } : {}),
    ...(c.sendsTo ? { queues: c.sendsTo } : {}),
    ...(c.sendsEmail ? { email: true } : {}),
  })
}

/**
 * The merchant history indexer (functions/merchant-history/history-indexer.ts): reads heads, pointers and
 * transfers; writes only the history (MHIST#) and the provider-reference pointers (PROVREF#), through
 * TransactWriteItems (authorised item by item: PutItem, UpdateItem, ConditionCheckItem).
 */
export const HISTORY_INDEXER_ACCESS: Access = mergeAccess({
  table: [
    ...tableGrantsOf('read'),
    { actions: ['PutItem', 'UpdateItem', 'ConditionCheckItem'], keys: ['MHIST#', 'PROVREF#'] },
  ],
})

/**
 * Every function the local runner invokes, by functionId: the API functions of the route table (and
 * the catch-all, which touches nothing), the consumers of lib/service/consumers.ts and the history indexer.
 */
export function accessOfFunctions(table: readonly Route[] = routeTable): Map<string, Access> {
  const out = new Map<string, Access>()
  for (const [functionId, served] of functionsOf(table)) {
    out.set(functionId, accessOfRoutes(served))
  }
  out.set(UNROUTED.functionId, {})
  for (const c of consumers) out.set(c.functionId, accessOfConsumer(c))
  out.set('history-indexer', HISTORY_INDEXER_ACCESS)
  return out
}
