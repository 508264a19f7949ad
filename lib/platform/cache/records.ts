import { checkAwsCall } from '#lib/platform/aws-guard.ts'
import { tableName } from '#lib/platform/db/client.ts'
import { readRecord } from '#lib/platform/db/items.ts'

/**
 * Records that every request reads before it can start (API clients, switch clients, bearer tokens,
 * businesses), kept per container for CREDENTIAL_CACHE_SECONDS (default and most 5). That is the
 * staleness bound stated in docs/operations.md and CONTRACT 18: a key or token revoked in another
 * container (or by the CLI) stops working within 5 s everywhere; a change made through
 * lib/platform/auth/credentials.ts in this container (revoke, rotate, webhook, validation mode) takes
 * effect here at once, since those writes call forgetRecord.
 *
 * Only records that exist are kept: a key or token issued a moment ago works at once everywhere. A
 * verifier that finds a signature not matching a cached record reads it again before refusing
 * (readFreshRecord), so a secret rotated elsewhere works at once too; only revocation waits.
 */

/** The revocation bound (CONTRACT 18): a larger setting is lowered to it, a smaller one kept. */
const MAX_SECONDS = 5
const MAX_ENTRIES = 10_000

/** The bound in seconds, read on every call so tests and benches can set it per process. */
export function credentialCacheSeconds(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.CREDENTIAL_CACHE_SECONDS ?? MAX_SECONDS)
  return Number.isFinite(n) && n >= 0 ? Math.min(n, MAX_SECONDS) : MAX_SECONDS
}

type Key = { pk: string; sk: string }
const entries = new Map<string, { record: unknown; until: number }>()
const idOf = (key: Key) => `${key.pk}\n${key.sk}`

/** A record read through the cache, and whether it came from the cache (so it may be stale). */
export interface CachedRecord<T> {
  record: T
  cached: boolean
}

/** The record under a key: from this container's cache while fresh, else read and kept. */
export async function readCachedRecord<T>(key: Key): Promise<CachedRecord<T> | undefined> {
  const hit = entries.get(idOf(key))
  if (hit && hit.until > Date.now()) {
    // The read a container of this function would have made to fill its own cache: locally one
    // process serves every function, and one whose role may not read the record must not get it
    // from another's (lib/platform/aws-guard.ts; a no-op in AWS).
    checkAwsCall({
      service: 'dynamodb',
      requests: [{ action: 'GetItem', table: tableName(), leadingKey: key.pk }],
    })
    return { record: hit.record as T, cached: true }
  }
  const record = await readFreshRecord<T>(key)
  return record === undefined ? undefined : { record, cached: false }
}

/** Reads the record from the table (never the cache) and keeps it, or forgets it when gone. */
export async function readFreshRecord<T>(key: Key): Promise<T | undefined> {
  const record = await readRecord<T>(key)
  const seconds = credentialCacheSeconds()
  if (record === undefined || seconds === 0) {
    entries.delete(idOf(key))
    return record
  }
  // A crude bound on memory: the working set of credentials is small, a flood of keys is not kept.
  if (entries.size >= MAX_ENTRIES) entries.clear()
  entries.set(idOf(key), { record, until: Date.now() + seconds * 1000 })
  return record
}

/** Drops a record after this container changed it, so the change applies here at once. */
export function forgetRecord(key: Key): void {
  entries.delete(idOf(key))
}
