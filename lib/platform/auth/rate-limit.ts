import { DomainError } from '#lib/platform/errors.ts'
import { QuotaLeases } from './rate-lease.ts'

/**
 * Per-client rate limits (CONTRACT section 14): a fixed window per API key, switch client, merchant
 * token and admin key, shared by every container of every function through DynamoDB. Area A keys
 * are counted a second time in their business's window (CONTRACT 18): the keys a business issues
 * share its quota, per mode, so issuing more keys gains no throughput.
 *
 * A container does not write per request: it leases a share of each window's quota in one write and
 * spends it locally (lib/platform/auth/rate-lease.ts, where the lease's size and the tolerance are
 * stated: never over the quota, unless a limit is lowered mid-window; under it by at most the units
 * the window's containers hold unspent, each at most a twentieth of the quota). A request is
 * admitted when every window it counts in has a unit for it; a request refused by one of its windows
 * gives its unit of the others back to its container (no write), so it does not count there.
 *
 * When it runs: only once the request has passed authentication (after Area A's replay guard and
 * Area B's nonce, whose failed conditions write nothing, and after the bearer token is found), so a
 * request that fails authentication writes nothing (CONTRACT 18); a revoked credential is refused
 * before it. The verifiers in this folder call it; the factory sends the result as
 * `RateLimit-Policy` and `RateLimit` (lib/platform/http/factory.ts).
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

/** This container's leases: one per module instance, so one per Lambda container. */
const containerLeases = new QuotaLeases()

/** One window a request counts in: whose (`subject`), under which limit, and who a 429 names. */
export interface Window {
  /** `A#<api key>`, `B#<switch client>`, `C#`/`D#<token hash>`, or a business's `BUSINESS#<id>#<mode>`. */
  subject: string
  limit: RateLimit
  /** Whose quota it is, as a 429's message says it; "this client" if not given. */
  holder?: string
}

/**
 * Admits one request in each of its windows, or throws RateLimited (429) for the first that has no
 * unit left, its units of the other windows given back. Returns the state the headers report: the
 * window with the fewest requests left.
 */
export async function admitRequest(first: Window, ...others: Window[]): Promise<RateState> {
  const windows = [first, ...others]
  const taken = await Promise.all(windows.map((w) => containerLeases.take(w.subject, w.limit)))
  const refused = taken.findIndex((t) => !t.admitted)
  if (refused >= 0) {
    for (const t of taken) t.giveBack()
    throw new RateLimited(taken[refused]!.rate, windows[refused]!.holder)
  }
  const [head, ...rest] = taken.map((t) => t.rate)
  return tightest(head!, ...rest)
}

/** The window all of a business's Area A keys of one mode count in, beside each key's own. */
export const businessSubject = (businessId: string, mode: string) => `BUSINESS#${businessId}#${mode}`

/** Whose quota a business's window is, as a 429 says it. */
export const businessHolder = (mode: string) => `this business's ${mode} API keys together`

/** Of a request's states in its windows, the one the headers report: the one with the least left. */
const tightest = (first: RateState, ...others: RateState[]): RateState =>
  others.reduce((tight, rate) => (rate.remaining < tight.remaining ? rate : tight), first)

/** The `RateLimit-Policy` and `RateLimit` headers (draft-ietf-httpapi-ratelimit-headers). */
export function rateLimitHeaders(rate: RateState): Record<string, string> {
  return {
    'ratelimit-policy': `"default";q=${rate.quota};w=${rate.windowSeconds}`,
    ratelimit: `"default";r=${rate.remaining};t=${rate.resetSeconds}`,
  }
}
