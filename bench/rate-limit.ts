/**
 * Rate limit benchmark (issue 22, CONTRACT section 14): is one client held to its quota under
 * concurrency, and is another client unaffected?
 *
 *   npx tsx bench/rate-limit.ts        # QUOTA=40 WINDOW=2 WINDOWS=4 CLIENTS=64 by default
 *
 * Starts its own DynamoDB Local and runs the limiter as every verifier runs it, from CLIENTS concurrent
 * clients on one key, each a container of its own (its own QuotaLeases, lib/platform/auth/rate-lease.ts:
 * a share of the window leased in one write and spent locally) with one request in flight, as a Lambda
 * container has, while another key (a container of its own too) sends its requests one after another:
 *
 * - baseline: the other key alone, for WINDOWS windows;
 * - load: the CLIENTS clients on the hot key, as fast as they are answered, and the other key as in
 *   the baseline, for WINDOWS windows.
 *
 * Admissions are counted per window from each decision's own window (its reset). Prints the admitted
 * count of each whole window against QUOTA x 1.01, the lease writes per request (the window item's
 * UpdateItems over the requests decided), the other key's p50/p99 in both phases, and
 * `N of M within target`: every window at most QUOTA x 1.01, and the other key's p99 under load
 * within 10% of its baseline.
 *
 * The limiter is driven directly rather than through the local server: on this shared machine the
 * one-process local server answers 64 concurrent signed requests at about 11 a second (p50 7 s), so
 * an HTTP run measures its queue, not the limiter. In AWS each request has a container of its own
 * and the table is what clients share, which is what this measures. HTTP=1 runs the same phases
 * through the local server (admission still checked, latency then the server's).
 */
import { ApiClient } from '../client/api-client.ts'
import { startDynamoDbLocal } from '../scripts/local/dynamodb-local.ts'
import { ensureTable } from '../scripts/local/table.ts'

const QUOTA = Number(process.env.QUOTA ?? 40)
const WINDOW = Number(process.env.WINDOW ?? 2)
const WINDOWS = Number(process.env.WINDOWS ?? 4)
const CLIENTS = Number(process.env.CLIENTS ?? 64)
const HTTP = process.env.HTTP === '1'
const TARGET = { admitted: QUOTA * 1.01, p99Change: 0.1 }
const PATH = '/api/v1/resource/states'

const percentile = (values: number[], p: number) => {
  if (!values.length) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

/** Waits until the start of the next window, so each phase covers whole windows. */
async function toNextWindow() {
  const ms = WINDOW * 1000
  await new Promise((resolve) => setTimeout(resolve, ms - (Date.now() % ms) + 5))
}

/** Admitted or not, and the window it was counted in (its index: start / WINDOW). */
type Decision = { admitted: boolean; window: number }
type Tally = { latencies: number[]; admitted: number[]; refused: number }
const tally = (): Tally => ({ latencies: [], admitted: [], refused: 0 })

/** One client's requests, one at a time, until `until`: latencies and the window of each admission. */
async function run(send: () => Promise<Decision>, until: number, out: Tally) {
  while (Date.now() < until) {
    const started = performance.now()
    const decision = await send()
    out.latencies.push(performance.now() - started)
    if (decision.admitted) out.admitted.push(decision.window)
    else out.refused++
    // A decision from the container's own lease takes no I/O: yield, as separate containers would,
    // so that one client's loop does not starve the others in this one process.
    await new Promise((resolve) => setImmediate(resolve))
  }
}

// The server's request logs and metrics (one line per request) would bury the figures.
const print = console.log.bind(console)
for (const name of ['log', 'info', 'warn', 'error', 'debug'] as const) console[name] = () => {}
process.stdout.write = (
  (write) =>
  (chunk: unknown, ...rest: unknown[]) =>
    typeof chunk === 'string' && chunk.startsWith('{') ? true : write(chunk as string, ...(rest as []))
)(process.stdout.write.bind(process.stdout)) as typeof process.stdout.write

async function main() {
  const dynamo = await startDynamoDbLocal({ heapMb: 1024 })
  let server: { close(): Promise<void>; url: string } | undefined
  try {
    process.env.TABLE_NAME = 'bench-rate-limit'
    process.env.DYNAMODB_ENDPOINT = dynamo.endpoint
    process.env.STAGE = 'local'
    process.env.AWS_REGION ??= 'eu-west-1'
    process.env.LOG_LEVEL ??= 'ERROR'
    await ensureTable(dynamo.endpoint, process.env.TABLE_NAME)
    const { seedLocal } = await import('../scripts/local/seed.ts')
    await seedLocal()
    const { issueApiClient, setRateLimit } = await import('../lib/platform/auth/credentials.ts')
    const { QuotaLeases } = await import('../lib/platform/auth/rate-lease.ts')
    const { db } = await import('../lib/platform/db/client.ts')
    let leaseWrites = 0
    db().middlewareStack.add(
      (next, context) => async (args) => {
        const pk = (args.input as { Key?: { pk?: string } }).Key?.pk
        if (context.commandName === 'UpdateItemCommand' && pk?.startsWith('RATE#')) leaseWrites++
        return next(args)
      },
      { step: 'initialize', name: 'countLeaseWrites' },
    )
    const { DEV } = await import('../scripts/local/dev-credentials.ts')
    const hot = await issueApiClient({ businessId: DEV.supplier.businessId, roles: ['SI'] })
    const other = await issueApiClient({ businessId: DEV.supplier.businessId, roles: ['SI'] })
    const limit = { quota: QUOTA, windowSeconds: WINDOW }
    await setRateLimit({ apiKey: hot.apiKey }, limit)

    let senderOf: (c: { apiKey: string; secret: string }) => () => Promise<Decision>
    if (HTTP) {
      const { startServer } = await import('../scripts/local/server.ts')
      server = await startServer(0)
      const url = server.url
      let ids = 0
      senderOf = (c) => {
        const client = new ApiClient(url, { area: 'A', credentials: { apiKey: c.apiKey, secret: c.secret } })
        const id = ids++
        let n = 0
        return async () => {
          // A distinct target each time: two requests signed in the same millisecond are otherwise one.
          const reply = await client.get(`${PATH}?c=${id}&n=${n++}`)
          if (reply.status !== 200 && reply.status !== 429)
            throw new Error(`unexpected ${reply.status}: ${reply.text.slice(0, 200)}`)
          // The window ends `t` seconds (rounded up) after the reply: approximate near its edges.
          const reset = Number(/;t=(\d+)/.exec(reply.headers.get('ratelimit') ?? '')?.[1])
          return {
            admitted: reply.status === 200,
            window: Math.floor((Date.now() / 1000 + reset - 0.5) / WINDOW),
          }
        }
      }
    } else {
      // What the verifier does once the signature holds, each sender a container with its own leases.
      // The other key is a bystander: a limit it cannot reach (it sends far faster than before leases).
      const bystander = { quota: 1_000_000, windowSeconds: WINDOW }
      senderOf = (c) => {
        const container = new QuotaLeases()
        const own = c === hot ? limit : bystander
        return async () => {
          const { admitted, rate } = await container.take(`A#${c.apiKey}`, own)
          return { admitted, window: rate.windowStart / WINDOW }
        }
      }
    }

    // Warm-up: every module loaded, connections open.
    const warm = senderOf(other)
    for (let i = 0; i < 20; i++) await warm()

    await toNextWindow()
    const baseline = tally()
    await run(senderOf(other), Date.now() + WINDOWS * WINDOW * 1000, baseline)

    await toNextWindow()
    const until = Date.now() + WINDOWS * WINDOW * 1000
    const writesBefore = leaseWrites
    const hotTally = tally()
    const underLoad = tally()
    await Promise.all([
      ...Array.from({ length: CLIENTS }, () => run(senderOf(hot), until, hotTally)),
      run(senderOf(other), until, underLoad),
    ])

    const perWindow = new Map<number, number>()
    for (const w of hotTally.admitted) perWindow.set(w, (perWindow.get(w) ?? 0) + 1)
    // The last window may be cut short by the phase's end; every window counted is checked.
    const windows = [...perWindow.entries()].sort(([a], [b]) => a - b)
    print(
      `rate limit${HTTP ? ' (through the local server)' : ''}: quota ${QUOTA} per ${WINDOW} s, ${CLIENTS} concurrent clients on one key for ${WINDOWS} windows`,
    )
    print(
      `hot key: ${hotTally.latencies.length} requests, ${hotTally.admitted.length} admitted, ${hotTally.refused} refused (429); p50 ${percentile(hotTally.latencies, 50).toFixed(1)} ms, p99 ${percentile(hotTally.latencies, 99).toFixed(1)} ms`,
    )
    for (const [w, count] of windows)
      print(`  window ${w}: ${count} admitted (target <= ${TARGET.admitted.toFixed(0)})`)
    if (!HTTP) {
      const requests = hotTally.latencies.length + underLoad.latencies.length
      print(
        `lease writes under load: ${leaseWrites - writesBefore} for ${requests} requests (${((leaseWrites - writesBefore) / requests).toFixed(3)} a request; one a request before leases)`,
      )
    }
    const p99Before = percentile(baseline.latencies, 99)
    const p99After = percentile(underLoad.latencies, 99)
    const change = p99After / p99Before - 1
    print(
      `other key alone:       ${baseline.latencies.length} requests, p50 ${percentile(baseline.latencies, 50).toFixed(1)} ms, p99 ${p99Before.toFixed(1)} ms`,
    )
    print(
      `other key under load:  ${underLoad.latencies.length} requests, p50 ${percentile(underLoad.latencies, 50).toFixed(1)} ms, p99 ${p99After.toFixed(1)} ms (${change >= 0 ? '+' : ''}${(change * 100).toFixed(0)}%), ${underLoad.refused} refused`,
    )
    const checks = [
      ...windows.map(([, count]) => count <= TARGET.admitted),
      Math.abs(change) < TARGET.p99Change && underLoad.refused === 0,
    ]
    print(`${checks.filter(Boolean).length} of ${checks.length} within target`)
  } finally {
    await server?.close()
    await dynamo.stop()
  }
}

await main()
