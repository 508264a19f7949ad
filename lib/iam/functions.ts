import { type Consumer, consumers, QUEUE_SENDERS } from '#lib/consumers.ts'
import { BATCH_PREFIX, keys } from '#lib/db/keys.ts'
import { functionsOf, type Route, routes as routeTable, type TableAccess, UNROUTED } from '#lib/routes.ts'
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
export function tableGrantsOf(access: TableAccess | 'read' | 'write'): TableGrant[] {
  if (access === 'none') return []
  return [{ actions: access === 'write' ? WRITE_ACTIONS : READ_ACTIONS, indexes: ALL_INDEXES }]
}

/** Handlers that store an invoice, and so encrypt its notes. */
const NOTE_WRITERS: readonly string[] = [
  'functions/invoice/si-validate.ts',
  'functions/invoice/app-validate.ts',
  'functions/invoice/app-sign.ts',
]
/** Handlers that hand out a stored invoice (get-invoice; transmit delivers it), opening its notes. */
const NOTE_READERS: readonly string[] = [
  'functions/lifecycle/get-invoice.ts',
  'functions/lifecycle/transmit.ts',
]
/** Handlers that create a webhook subscription, and so encrypt its secret. */
const WEBHOOK_SECRET_WRITERS: readonly string[] = ['functions/webhooks/subscription-create.ts']

/**
 * Batch submission writes the batch's items (up to 100, MAX_BATCH) with BatchWriteItem, 25 a call,
 * then its header with a conditional put (lib/batches/repository.ts). The header and 100 items are
 * 101 writes, one more than a transaction takes, and the header being last is already the commit
 * point (items without a header are never read and expire), so BatchWriteItem stays; its grant is
 * limited to the batch partitions, the only ones it writes.
 */
const BATCH_SUBMITTERS: readonly string[] = ['functions/batches/submit.ts']
const BATCH_ITEM_WRITES: Access = { table: [{ actions: ['BatchWriteItem'], keys: [BATCH_PREFIX] }] }

/**
 * The JWKS (GET /resource/public-keys) reads the published keys, one partition: nothing else of the
 * table. Its route says `tableAccess: 'none'`, and in AWS it answered AccessDenied (found by the
 * local IAM guard).
 */
const PUBLISHED_KEY_READERS: readonly string[] = ['functions/resource/public-keys.ts']
const PUBLISHED_KEY_READS: Access = { table: [{ actions: ['Query'], keys: [keys.signingKeys()] }] }

/**
 * The Access of the API function whose handler module is `handler`, serving `routes`: the most any
 * of its routes' table access needs, what its routes' auth schemes do on every request, the
 * idempotency layer where a route takes an Idempotency-Key, its routes' secrets, the data keys its
 * handler uses and the queues it sends to. The ONLY place an API function's Access is derived (to be
 * replaced by each endpoint declaration's own `access`).
 */
export function accessOfRoutes(routes: readonly Route[], handler: string): Access {
  const level: TableAccess = routes.some((r) => r.tableAccess === 'write')
    ? 'write'
    : routes.some((r) => r.tableAccess === 'read')
      ? 'read'
      : 'none'
  const functionIds = new Set(routes.map((r) => r.functionId))
  const queues = (Object.entries(QUEUE_SENDERS) as [keyof typeof QUEUE_SENDERS, string[]][])
    .filter(([, senders]) => senders.some((id) => functionIds.has(id)))
    .map(([queue]) => queue)
  return mergeAccess(
    { table: tableGrantsOf(level) },
    ...routes.map((r) => SCHEME_ACCESS[r.auth]),
    ...(routes.some((r) => r.tableAccess === 'write' && (r.method === 'POST' || r.method === 'PATCH'))
      ? [IDEMPOTENCY_ACCESS]
      : []),
    { secrets: routes.flatMap((r) => r.secrets ?? []), queues },
    NOTE_READERS.includes(handler) ? { decrypt: ['invoice'] } : {},
    NOTE_WRITERS.includes(handler) ? { encrypt: ['invoice'] } : {},
    WEBHOOK_SECRET_WRITERS.includes(handler) ? { encrypt: ['webhook-subscription'] } : {},
    BATCH_SUBMITTERS.includes(handler) ? BATCH_ITEM_WRITES : {},
    PUBLISHED_KEY_READERS.includes(handler) ? PUBLISHED_KEY_READS : {},
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
    out.set(functionId, accessOfRoutes(served, served[0]!.handler))
  }
  out.set(UNROUTED.functionId, {})
  for (const c of consumers) out.set(c.functionId, accessOfConsumer(c))
  out.set('history-indexer', HISTORY_INDEXER_ACCESS)
  return out
}
