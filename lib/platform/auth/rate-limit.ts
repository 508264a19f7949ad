import { UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { DomainError } from '#lib/platform/errors.ts'

/**
 * Per-client rate limits (CONTRACT section 14): a fixed window per API key, switch client, merchant
 * token and admin key, counted in DynamoDB so every container of every function shares one count.
 * Area A keys are counted a second time in their business's window (CONTRACT 18): the keys a
 * business issues share its quota, per mode, so issuing more keys gains no throughput.
 *
 * One UpdateItem per request and window (`ADD n :one`, ReturnValues UPDATED_NEW) counts it; the
 * request is admitted when the count it got is at most the quota. DynamoDB applies the ADDs one at a
 * time, so each request of a window gets a distinct count and at most `quota` are admitted, however
 * many arrive at once. The update carries no condition: a count past the quota harms nothing (a
 * request refused by one of its windows still counts in the other).
 *
 * When it runs: only once the request has passed authentication (after Area A's replay guard and
 * Area B's nonce, whose failed conditions write nothing, and after the bearer token is found), so a
 * request that fails authentication writes nothing (CONTRACT 18). The verifiers in this folder call
 * it; the factory sends the result as `RateLimit-Policy` and `RateLimit` (lib/platform/http/factory.ts).
 */

export interface RateLimit {
  /** Requests admitted per window. */
  quota: number
  /** The window's length in seconds. */
  windowSeconds: number
}

/**
 * The limit of a client that has none of its own (`npm run cli -- rate-limit set` gives one), where
 * the stage sets none: locally and in tests. A deployed stage sets its own from its settings'
 * `clientLimits` (infra/stages/<stage>.json), as DEFAULT_RATE_QUOTA and DEFAULT_RATE_WINDOW_SECONDS.
 * The stage's throttles sit above it (docs/capacity.md, "Stage throttles"): one client meets its own
 * limit, in its area's error record, before the stage's.
 */
export const DEFAULT_RATE_LIMIT: RateLimit = { quota: 6000, windowSeconds: 60 }

export const MAX_QUOTA = 1_000_000
export const MAX_WINDOW_SECONDS = 86_400

const inRange = (value: number, max: number) => Number.isInteger(value) && value >= 1 && value <= max

/** The stage's default limit (DEFAULT_RATE_QUOTA, DEFAULT_RATE_WINDOW_SECONDS), else DEFAULT_RATE_LIMIT. */
export function defaultRateLimit(env: NodeJS.ProcessEnv = process.env): RateLimit {
  const quota = Number(env.DEFAULT_RATE_QUOTA ?? DEFAULT_RATE_LIMIT.quota)
  const windowSeconds = Number(env.DEFAULT_RATE_WINDOW_SECONDS ?? DEFAULT_RATE_LIMIT.windowSeconds)
  return inRange(quota, MAX_QUOTA) && inRange(windowSeconds, MAX_WINDOW_SECONDS)
    ? { quota, windowSeconds }
    : DEFAULT_RATE_LIMIT
}

/** Where one request stands in its client's window: what the RateLimit headers say. */
export interface RateState extends RateLimit {
  remaining: number
  /** Seconds until the window ends and the count starts again. */
  resetSeconds: number
  /** The window's start, epoch seconds: which window the request was counted in. */
  windowStart: number
}

/** Over the quota: 429 with Retry-After, in the area's error record. */
export class RateLimited extends DomainError {
  readonly rate: RateState
  /** `holder`: whose quota it is, as the message says it ("this client", a business's keys). */
  constructor(rate: RateState, holder = 'this client') {
    super(
      'rate-limited',
      `Rate limit exceeded: ${holder} may send ${rate.quota} requests every ${rate.windowSeconds} s; retry in ${rate.resetSeconds} s`,
      { retryAfterSeconds: rate.resetSeconds },
    )
    this.rate = rate
  }
}

/** A stored limit if it is a sane one, else the stage's default (a record without one, or a bad value). */
export function limitOf(stored: Partial<RateLimit> | undefined): RateLimit {
  const { quota, windowSeconds } = stored ?? {}
  const valid = inRange(quota as number, MAX_QUOTA) && inRange(windowSeconds as number, MAX_WINDOW_SECONDS)
  return valid ? { quota: quota!, windowSeconds: windowSeconds! } : defaultRateLimit()
}

/** A request counted in its window: `admit` decides it once the client's limit is known. */
export interface Counted {
  /** Where the request stands under `limit`, or RateLimited (429) naming `holder` when over it. */
  admit(limit: RateLimit, holder?: string): RateState
}

/**
 * Counts one request of `subject` (`A#<api key>`, `B#<switch client>`, `C#`/`D#<token hash>`, or a
 * business's `BUSINESS#<id>#<mode>`) in the window of `windowSeconds` it falls in. The window must be
 * known before the count (it is part of the key); the quota may come later (`admit`).
 */
export async function countRequest(subject: string, windowSeconds: number): Promise<Counted> {
  const nowSeconds = Date.now() / 1000
  const windowStart = Math.floor(nowSeconds / windowSeconds) * windowSeconds
  const out = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.rateWindow(subject, windowSeconds, windowStart),
      UpdateExpression: 'ADD n :one SET expiresAt = if_not_exists(expiresAt, :expires)',
      // Kept a window past its end, then left to the TTL sweeper; a late sweep costs nothing.
      ExpressionAttributeValues: { ':one': 1, ':expires': windowStart + 2 * windowSeconds },
      ReturnValues: 'UPDATED_NEW',
    }),
  )
  const count = Number(out.Attributes?.n ?? 1)
  const resetSeconds = Math.max(1, Math.ceil(windowStart + windowSeconds - nowSeconds))
  return {
    admit(limit, holder) {
      const rate = {
        ...limit,
        remaining: Math.max(0, limit.quota - count),
        resetSeconds,
        windowStart,
      }
      if (count > limit.quota) throw new RateLimited(rate, holder)
      return rate
    },
  }
}

/** The window all of a business's Area A keys of one mode count in, beside each key's own. */
export const businessSubject = (businessId: string, mode: string) => `BUSINESS#${businessId}#${mode}`

/** Whose quota a business's window is, as a 429 says it. */
export const businessHolder = (mode: string) => `this business's ${mode} API keys together`

/** Of a request's states in its windows, the one the headers report: the one with the least left. */
export const tightest = (first: RateState, ...others: RateState[]): RateState =>
  others.reduce((tight, rate) => (rate.remaining < tight.remaining ? rate : tight), first)

/** The `RateLimit-Policy` and `RateLimit` headers (draft-ietf-httpapi-ratelimit-headers). */
export function rateLimitHeaders(rate: RateState): Record<string, string> {
  return {
    'ratelimit-policy': `"default";q=${rate.quota};w=${rate.windowSeconds}`,
    ratelimit: `"default";r=${rate.remaining};t=${rate.resetSeconds}`,
  }
}
