/**
 * The simulation's sources of chance and its faults (CONTRACT section 19): one seeded generator for
 * everything the run decides, so a seed replays the same run; a fake clock the run moves forward by
 * hand; and a DynamoDB middleware that throttles, cancels transactions, times out after a write
 * committed and resets connections, at the rates given.
 */

export interface FaultCounts {
  throttling: number
  transactionCanceled: number
  timeoutAfterCommit: number
  connectionReset: number
}

export interface FaultRates {
  /** Of every DynamoDB call: refused for capacity before it is sent. */
  throttling: number
  /** Of every TransactWriteItems: cancelled for a conflicting transaction. */
  transactionCanceled: number
  /** Of every write: it commits, then the caller sees a timeout. */
  timeoutAfterCommit: number
  /** Of every call: the connection is reset before it is sent. */
  connectionReset: number
}

const WRITES = new Set([
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'TransactWriteItemsCommand',
  'BatchWriteItemCommand',
])

const simulated = (message: string, fields: Record<string, unknown>) =>
  Object.assign(new Error(`${message} (simulated)`), { $fault: 'client', $metadata: {}, ...fields })

interface MiddlewareStack {
  add(
    middleware: (
      next: (args: unknown) => Promise<unknown>,
      context: { commandName?: string },
    ) => (args: { input?: Record<string, unknown> }) => Promise<unknown>,
    options: { step: 'initialize'; name: string; priority: 'low' },
  ): void
  remove(name: string): boolean
}

/**
 * Adds the faults to a DynamoDB client's middleware (before the SDK's own retries, so that the
 * service's code meets each one). `on()` says whether faults are injected at this moment. Returns
 * the function that takes them out again.
 */
export function injectFaults(
  stack: MiddlewareStack,
  random: () => number,
  rates: FaultRates,
  counts: FaultCounts,
  on: () => boolean,
): () => void {
  stack.add(
    (next, context) => async (args) => {
      if (!on()) return next(args)
      const command = context.commandName ?? ''
      if (random() < rates.throttling) {
        counts.throttling++
        throw simulated('Rate of requests exceeds the allowed throughput', {
          name: 'ProvisionedThroughputExceededException',
        })
      }
      if (random() < rates.connectionReset) {
        counts.connectionReset++
        throw simulated('socket hang up', { name: 'Error', code: 'ECONNRESET' })
      }
      if (command === 'TransactWriteItemsCommand' && random() < rates.transactionCanceled) {
        counts.transactionCanceled++
        const items = (args.input?.TransactItems as unknown[] | undefined) ?? []
        const conflictAt = Math.floor(random() * Math.max(1, items.length))
        throw simulated('Transaction cancelled', {
          name: 'TransactionCanceledException',
          CancellationReasons: items.map((_, i) => ({
            Code: i === conflictAt ? 'TransactionConflict' : 'None',
          })),
        })
      }
      if (WRITES.has(command) && random() < rates.timeoutAfterCommit) {
        await next(args)
        counts.timeoutAfterCommit++
        throw simulated('Connection timed out after the request was sent', { name: 'TimeoutError' })
      }
      return next(args)
    },
    { step: 'initialize', name: 'simulatedFaults', priority: 'low' },
  )
  return () => void stack.remove('simulatedFaults')
}

/**
 * A clock the run moves by hand: `Date.now()` and `new Date()` read a time that stands still until
 * `advance`, so the same seed sees the same times (the run's own pace does not leak into them),
 * retries and schedules hours away come due when the run says, and every reader (client signatures,
 * the server's checks, claims, schedules) sees the same time. `Math.random` is seeded too (the retry
 * schedule's jitter, the retry loops' backoff).
 */
/**
 * Where a run's clock starts: the next midnight UTC, not the real time. Windows are aligned to the
 * clock (signatures' whole seconds, rate-limit windows, Lagos days), so two runs of one seed started
 * a few hundred milliseconds apart took different paths when each clock began at its own real start.
 * Never behind an earlier run's clock: a run on the same table (the test runs seeds one after
 * another) would otherwise make subscriptions dated before the events an earlier run left.
 */
export function clockStart(realNow: number, reachedBefore: number): number {
  const DAY = 86_400_000
  return Math.max((Math.floor(realNow / DAY) + 1) * DAY, reachedBefore + 1)
}

/** Where the last fake clock of this process stood when it was restored. */
let clockReachedBefore = 0

export function installFakeClock(random: () => number): {
  advance(ms: number): void
  restore(): void
} {
  const Real = Date
  const realRandom = Math.random
  let now = clockStart(Real.now(), clockReachedBefore)
  class FakeDate extends Real {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(now)
      else super(...(args as [string]))
    }
    static override now() {
      return now
    }
  }
  globalThis.Date = FakeDate as DateConstructor
  Math.random = random
  return {
    advance: (ms) => {
      now += Math.max(0, Math.round(ms))
    },
    restore: () => {
      clockReachedBefore = now
      globalThis.Date = Real
      Math.random = realRandom
    },
  }
}
