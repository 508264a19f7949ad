import { createHash } from 'node:crypto'
import { readCachedRecord } from '#lib/cache/records.ts'
import { readRecord } from '#lib/db/items.ts'
import { keys } from '#lib/db/keys.ts'

/**
 * Bearer tokens (Area B's switch token, Area C's merchant token, Area D's admin key), read side.
 * Kept apart from credentials.ts, which opens encrypted HMAC secrets: a function that only checks
 * bearer tokens then bundles no Encryption SDK (BENCHMARKS.md, cold start).
 */

export type BearerKind = 'switch' | 'merchant' | 'notify-admin'

export interface BearerToken {
  kind: BearerKind
  /** The switch client id, merchant id or admin key id the token stands for. */
  subjectId: string
  /** The first characters of the token, enough to tell tokens apart in a listing. */
  hint: string
  active: boolean
  createdAt: string
}

/** Tokens are stored and looked up only as their SHA-256. */
export const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex')

/** The stored record of a token, active or not. */
export const getBearer = (token: string) => readRecord<BearerToken>(keys.bearer(hashToken(token)))

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '')
  return match?.[1]
}

/**
 * The active token record of the given kind, or undefined. The lookup is by the token's SHA-256, so
 * the comparison happens inside DynamoDB's key match on a hash, never on the secret itself. The
 * record comes from the container's cache: a token revoked elsewhere stops working within
 * CREDENTIAL_CACHE_SECONDS (lib/cache/records.ts); an unknown token is never cached.
 */
export async function findBearer(
  header: string | undefined,
  kind: BearerKind,
): Promise<BearerToken | undefined> {
  const token = bearerToken(header)
  if (!token) return undefined
  const record = (await readCachedRecord<BearerToken>(keys.bearer(hashToken(token))))?.record
  return record?.active && record.kind === kind ? record : undefined
}
