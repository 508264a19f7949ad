import { DependencyDown } from '#lib/platform/errors.ts'

/**
 * Optimistic concurrency: an attempt reads, decides and writes one conditional transaction; when a
 * condition or a concurrent transaction gets in the way it is simply tried again on fresh reads.
 * Backoff is exponential with full jitter so that many contenders for one account or one merchant
 * spread out instead of colliding in lockstep.
 */
export const AGAIN = Symbol('again')

export interface RetryOptions<T> {
  /** Give up after this long (by default a 503, safe to retry with the same requestId). */
  budgetMs?: number
  /** The first pause's ceiling; 0 tries again at once (a re-read already separates the attempts). */
  baseMs?: number
  capMs?: number
  /** At most this many attempts, for writers that give up after a few rather than after a time. */
  attempts?: number
  /** The answer once attempts or budget run out, instead of the 503 (e.g. the caller's 409). */
  exhausted?: () => T | Promise<T>
}

/** The only retry loop of the service: every optimistic writer hands its attempt to it. */
export async function withRetries<T>(
  attempt: (n: number) => Promise<T | typeof AGAIN>,
  { budgetMs = 8_000, baseMs = 8, capMs = 500, attempts = Infinity, exhausted = busy }: RetryOptions<T> = {},
): Promise<T> {
  const deadline = Date.now() + budgetMs
  for (let n = 0; ; n++) {
    const result = await attempt(n)
    if (result !== AGAIN) return result
    if (n + 1 >= attempts || Date.now() > deadline) return exhausted()
    const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(n, 16))
    if (ceiling > 0) await new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling))
  }
}

function busy(): never {
  throw new DependencyDown(
    'The account or merchant is busy with other transactions: retry with the same requestId',
    { retryAfterSeconds: 1 },
  )
}

const tails = new Map<string, Promise<void>>()

/**
 * Runs `fn` after every earlier call with the same key in this process has finished. A transfer's
 * read-decide-write on a merchant's head is an optimistic lock: in one process (the local server, or
 * any server taking many requests at once) queueing the attempts for one merchant costs nothing and
 * saves every contender but one from failing its condition and trying again. Across processes (one
 * Lambda container per request) the conditions and withRetries' backoff do the same job.
 */
export async function oneAtATime<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve()
  let release!: () => void
  const mine = new Promise<void>((resolve) => {
    release = resolve
  })
  const tail = previous.then(() => mine)
  tails.set(key, tail)
  await previous
  try {
    return await fn()
  } finally {
    release()
    if (tails.get(key) === tail) tails.delete(key)
  }
}
