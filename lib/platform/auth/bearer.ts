import { createHash } from 'node:crypto'
import { readCachedRecord } from '#lib/platform/cache/records.ts'
import { readRecord } from '#lib/platform/db/items.ts'
import { keys } from '#lib/platform/db/keys.ts'
import type { Mode } from '#lib/platform/mode.ts'
import { admitRequest, limitOf, type RateLimit, type RateState } from './rate-limit.ts'

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
  /** Its own rate limit (merchant and admin tokens; a switch client's is on its client record). */
  rateLimit?: RateLimit
  /** Test-mode tokens say so; a token without a mode (every one issued before the sandbox) is live. */
  mode?: Mode
}

/** A credential's mode: absent on records issued before the sandbox, which are all live. */
export const modeOf = (credential: { mode?: Mode }): Mode => credential.mode ?? 'live'

/** Tokens are stored and looked up only as their SHA-256. */
export const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex')

/** The stored record of a token, active or not. */
export const getBearer = (token: string) => readRecord<BearerToken>(keys.bearer(hashToken(token)))

/**
 * The longest bearer token looked up. Tokens are looked up by their hash, which fits any key, but
 * nothing the service issued is longer (issued tokens are about 36 characters), so a longer one is
 * refused as unknown before any read or hashing of an attacker's megabytes.
 */
export const MAX_BEARER_TOKEN_LENGTH = 512

/** The token of an `Authorization: Bearer <token>` header, or undefined (also when over-long). */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header || header.length > MAX_BEARER_TOKEN_LENGTH + 16) return undefined
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header)
  return match?.[1]
}

/**
 * The active token record of the given kind, or undefined. The lookup is by the token's SHA-256, so
 * the comparison happens inside DynamoDB's key match on a hash, never on the secret itself. The
 * record comes from the container's cache: a token revoked elsewhere stops working within
 * CREDENTIAL_CACHE_SECONDS (lib/platform/cache/records.ts); an unknown token is never cached.
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

/** A bearer token found, and the decision on its rate limit, to be asked once the caller is known. */
export interface LimitedBearer {
  token: BearerToken
  /** Counts the request under the token's limit and admits it, or throws RateLimited (429). */
  admit(): Promise<RateState>
}

/**
 * findBearer for the schemes that count requests per token (Areas C and D): the count, keyed by the
 * token's hash, is taken only by `admit`, once the token is known to be active and of its kind and
 * the scheme's other checks passed, so a request that fails authentication writes nothing (CONTRACT
 * 18). `admit` mostly writes nothing either: it spends the container's lease of the token's window
 * (lib/platform/auth/rate-lease.ts), and writes only to lease more.
 */
export async function findLimitedBearer(
  header: string | undefined,
  kind: 'merchant' | 'notify-admin',
): Promise<LimitedBearer | undefined> {
  const raw = bearerToken(header)
  if (!raw) return undefined
  const tokenHash = hashToken(raw)
  const record = (await readCachedRecord<BearerToken>(keys.bearer(tokenHash)))?.record
  if (!record?.active || record.kind !== kind) return undefined
  const subject = `${kind === 'merchant' ? 'C' : 'D'}#${tokenHash}`
  return {
    token: record,
    admit: () => admitRequest({ subject, limit: limitOf(record.rateLimit) }),
  }
}
