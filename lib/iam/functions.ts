import { type Consumer, consumers } from '#lib/consumers.ts'
import { functionsOf, type Route, routes as routeTable, UNROUTED } from '#lib/routes.ts'
import {
  type Access,
  ALL_INDEXES,
  IDEMPOTENCY_ACCESS,
  mergeAccess,
  READ_ACTIONS,
  SCHEME_ACCESS,
  type TableGrant,
  WRITE_ACTIONS,
} from './access.ts'

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
 * says it does (lib/endpoints), what its auth scheme does on every request, and the idempotency
 * layer where a route takes an Idempotency-Key. The ONLY place an API function's Access is derived.
 */
export function accessOfRoutes(routes: readonly Route[]): Access {
  return mergeAccess(
    ...routes.map((r) => r.access),
    ...routes.map((r) => SCHEME_ACCESS[r.auth]),
    ...(routes.some((r) => r.writes && (r.method === 'POST' || r.method === 'PATCH'))
      ? [IDEMPOTENCY_ACCESS]
      : []),
  )
}

/** A consumer's Access, from its lib/consumers.ts entry. */
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
 * The merchant history indexer (functions/merchant/history-indexer.ts): reads heads, pointers and
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
 * the catch-all, which touches nothing), the consumers of lib/consumers.ts and the history indexer.
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
