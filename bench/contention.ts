/**
 * Contention benchmark (issue 17): does one hot merchant, or one busy business, serialize the service?
 *
 *   npx tsx bench/contention.ts            # ROUNDS=2 SECONDS=4 WORKERS=8,16,32 by default
 *
 * Starts its own DynamoDB Local and N worker processes (bench/contention-worker.ts), each a stand-in
 * for one Lambda container: the real handler modules behind the local API Gateway stand-in, ONE
 * request in flight at a time, so nothing in-process can queue them; they meet only in DynamoDB.
 * Scenarios, interleaved round by round so that a slow spell of this shared machine falls on all:
 *
 * - transfer, one merchant: every worker pays MRC-HOT from its own account (no account is shared
 *   between requests in flight, so only the merchant is contended);
 * - transfer, many merchants: worker i pays merchant MRC-W<i> from its own account;
 * - invoice sign, one business: every worker signs new invoices of one business with its one APP key;
 * - invoice sign, many businesses: worker i signs for business i with its own key.
 *
 * Prints per scenario and worker count: throughput (replies 200 per second), p50/p99 latency, the
 * share of 503 replies, TransactWriteItems calls per 200 reply, the one/many throughput ratio and the
 * merchant history's lag behind the ledger (when the history item was recorded minus the transfer's
 * createdAt), then `N of M within target` against issue 17's targets at the largest worker count.
 */
import { type ChildProcess, fork } from 'node:child_process'
import { QueryCommand } from '@aws-sdk/lib-dynamodb'
import { startDynamoDbLocal } from '../scripts/local/dynamodb-local.ts'
import { ensureTable } from '../scripts/local/table.ts'
import type { RunOrder, RunResult } from './contention-worker.ts'

const ROUNDS = Number(process.env.ROUNDS ?? 2)
const SECONDS = Number(process.env.SECONDS ?? 4)
const WORKERS = (process.env.WORKERS ?? '8,16,32').split(',').map(Number)
const MAX_WORKERS = Math.max(...WORKERS)
const TARGET = { ratio: 0.8, lagP99Ms: 2000 }

type Scenario = 'transfer-one' | 'transfer-many' | 'sign-one' | 'sign-many'
const SCENARIOS: Scenario[] = ['transfer-one', 'transfer-many', 'sign-one', 'sign-many']

interface Tally {
  seconds: number
  latencies: number[]
  statuses: Record<string, number>
  transactions: number
  successes: number
  lags: number[]
}

const percentile = (values: number[], p: number) => {
  if (!values.length) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

/** Lagos is UTC+1 all year: a zone-less Lagos local time to epoch ms. */
const lagosMs = (local: string) => Date.parse(`${local}+01:00`)

async function main() {
  const dynamo = await startDynamoDbLocal({ heapMb: 1536 })
  const workers: ChildProcess[] = []
  let streams: { stop(): Promise<void> } | undefined
  try {
    process.env.TABLE_NAME = 'bench-contention'
    process.env.DYNAMODB_ENDPOINT = dynamo.endpoint
    process.env.STAGE = 'local'
    process.env.AWS_REGION ??= 'eu-west-1'
    await ensureTable(dynamo.endpoint, process.env.TABLE_NAME)
    const { seedLocal } = await import('../scripts/local/seed.ts')
    const { addMerchant, openAccount } = await import('../lib/ledger/repository.ts')
    const { issueApiClient } = await import('../lib/platform/auth/credentials.ts')
    const { createBusiness } = await import('../lib/registry/businesses.ts')
    const { db, tableName } = await import('../lib/platform/db/client.ts')
    const { keys } = await import('../lib/platform/db/keys.ts')
    const { STRIPES } = await import('../lib/merchant-history/items.ts')
    await seedLocal()
    // The stream consumers run here, as the Lambda service runs them beside the API's containers:
    // the local server's own workers, one stream reader per consumer as each has its own event
    // source mapping in AWS (one reader for all of them made the history wait for the webhook
    // fan-out's batches, which in AWS it never does).
    const { startWorkers } = await import('../scripts/local/workers.ts')
    streams = await startWorkers({ endpoint: dynamo.endpoint, tableName: process.env.TABLE_NAME })

    const pad = (n: number, width: number) => String(n).padStart(width, '0')
    const account = (scenario: string, i: number) => `8${scenario === 'transfer-one' ? 1 : 2}${pad(i, 8)}`
    const businesses: NonNullable<RunOrder['business']>[] = []
    await addMerchant({ merchantId: 'MRC-HOT', name: 'Hot merchant' })
    for (let i = 0; i < MAX_WORKERS; i++) {
      await addMerchant({ merchantId: `MRC-W${i}`, name: `Merchant ${i}` })
      for (const scenario of ['transfer-one', 'transfer-many'])
        await openAccount({ accountNumber: account(scenario, i), name: `Bench ${i}`, balanceKobo: 1e13 })
      const business = await createBusiness({
        name: `Bench Business ${i}`,
        tin: `5${pad(i, 7)}-0001`,
        serviceId: `BNCH${pad(i, 4)}`,
      })
      const issued = await issueApiClient({ businessId: business.businessId, roles: ['APP'] })
      businesses.push({ ...business, apiKey: issued.apiKey, secret: issued.secret })
    }
    const hotBusiness = businesses[0]!

    // The workers: started once, the first N of them take part in a run of N.
    const pending = new Map<number, (result: RunResult) => void>()
    await Promise.all(
      Array.from({ length: MAX_WORKERS }, async () => {
        const child = fork(new URL('./contention-worker.ts', import.meta.url).pathname, [], {
          execArgv: ['--import', 'tsx'],
          env: process.env,
          stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
        })
        workers.push(child)
        await new Promise<void>((resolve, reject) => {
          child.once('exit', (code) => reject(new Error(`a worker exited with code ${code}`)))
          child.on('message', (message: { ready?: true; result?: RunResult }) => {
            if (message.ready) resolve()
            if (message.result) pending.get(message.result.id)?.(message.result)
          })
        })
      }),
    )
    console.log(`${MAX_WORKERS} workers ready; ${ROUNDS} rounds of ${SECONDS} s per scenario and size`)

    let nextId = 0
    const order = (worker: ChildProcess, run: Omit<RunOrder, 'id'>) => {
      const id = nextId++
      return new Promise<RunResult>((resolve) => {
        pending.set(id, resolve)
        worker.send({ run: { ...run, id } })
      })
    }

    /** Each transfer's history lag, once the history has caught up with the ledger. */
    async function historyLags(merchants: string[], since: string, expected: Map<string, number>) {
      const lags: number[] = []
      for (const merchantId of merchants) {
        const want = expected.get(merchantId) ?? 0
        if (!want) continue
        const deadline = Date.now() + 30_000
        let items: Record<string, unknown>[] = []
        for (;;) {
          items = []
          for (let stripe = 0; stripe < STRIPES; stripe++) {
            let start: Record<string, unknown> | undefined
            do {
              const out = await db().send(
                new QueryCommand({
                  TableName: tableName(),
                  IndexName: 'gsi2',
                  KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk >= :since',
                  ExpressionAttributeValues: {
                    ':pk': keys.historyTimePartition(merchantId, stripe),
                    ':since': since,
                  },
                  ExclusiveStartKey: start,
                }),
              )
              items.push(...(out.Items ?? []))
              start = out.LastEvaluatedKey
            } while (start)
          }
          if (items.length >= want || Date.now() > deadline) break
          await new Promise((r) => setTimeout(r, 100))
        }
        if (items.length < want)
          console.log(`  ! ${merchantId}: history holds ${items.length} of ${want} after 30 s`)
        for (const item of items) {
          // Written in the transfer's own transaction when the item has no recordedAtMs: no lag.
          const recorded = typeof item.recordedAtMs === 'number' ? item.recordedAtMs : undefined
          lags.push(recorded === undefined ? 0 : recorded - lagosMs(item.completedAt as string))
        }
      }
      return lags
    }

    const tallies = new Map<string, Tally>()
    const tallyOf = (scenario: Scenario, n: number) => {
      const key = `${scenario}@${n}`
      let tally = tallies.get(key)
      if (!tally) {
        tally = { seconds: 0, latencies: [], statuses: {}, transactions: 0, successes: 0, lags: [] }
        tallies.set(key, tally)
      }
      return tally
    }

    // Warm-up, not counted: every worker loads and compiles both paths before anything is timed.
    await Promise.all(
      workers.flatMap((worker, i) => [
        order(worker, {
          kind: 'transfer',
          durationMs: 1500,
          merchantId: `MRC-W${i}`,
          accountNumber: account('transfer-many', i),
        }).then(() => order(worker, { kind: 'sign', durationMs: 1500, business: businesses[i]! })),
      ]),
    )

    const { lagosLocalIso } = await import('../lib/platform/time.ts')
    for (let round = 1; round <= ROUNDS; round++) {
      for (const n of WORKERS) {
        for (const scenario of SCENARIOS) {
          const since = lagosLocalIso(new Date(Date.now() - 5))
          const started = performance.now()
          const runs = workers.slice(0, n).map((worker, i) =>
            order(worker, {
              kind: scenario.startsWith('transfer') ? 'transfer' : 'sign',
              durationMs: SECONDS * 1000,
              ...(scenario === 'transfer-one'
                ? { merchantId: 'MRC-HOT', accountNumber: account(scenario, i) }
                : {}),
              ...(scenario === 'transfer-many'
                ? { merchantId: `MRC-W${i}`, accountNumber: account(scenario, i) }
                : {}),
              ...(scenario === 'sign-one' ? { business: hotBusiness } : {}),
              ...(scenario === 'sign-many' ? { business: businesses[i]! } : {}),
            }),
          )
          const results = await Promise.all(runs)
          const seconds = (performance.now() - started) / 1000
          const tally = tallyOf(scenario, n)
          tally.seconds += seconds
          const expected = new Map<string, number>()
          results.forEach((r, i) => {
            tally.latencies.push(...r.latenciesMs)
            for (const [status, count] of Object.entries(r.statuses))
              tally.statuses[status] = (tally.statuses[status] ?? 0) + count
            tally.transactions += r.transactions
            tally.successes += r.successes
            const merchant = scenario === 'transfer-one' ? 'MRC-HOT' : `MRC-W${i}`
            expected.set(merchant, (expected.get(merchant) ?? 0) + r.successes)
          })
          if (scenario.startsWith('transfer'))
            tally.lags.push(...(await historyLags([...expected.keys()], since, expected)))
          const done = results.reduce((s, r) => s + r.successes, 0)
          console.log(
            `round ${round} ${String(n).padStart(2)} workers ${scenario.padEnd(13)} ${(done / seconds).toFixed(1).padStart(7)}/s`,
          )
        }
      }
    }

    // The report.
    const rate = (t: Tally) => t.successes / t.seconds
    const share503 = (t: Tally) => (t.statuses['503'] ?? 0) / t.latencies.length
    const ms = (v: number) => (Number.isNaN(v) ? 'n/a' : `${Math.round(v)}`)
    console.log(
      '\nworkers scenario        per s    p50 ms   p99 ms   503 share  attempts/success  lag p50 ms  lag p99 ms  other statuses',
    )
    for (const n of WORKERS) {
      for (const scenario of SCENARIOS) {
        const t = tallyOf(scenario, n)
        const others = Object.entries(t.statuses)
          .filter(([s]) => s !== '200' && s !== '503')
          .map(([s, c]) => `${s}x${c}`)
          .join(' ')
        console.log(
          [
            String(n).padStart(7),
            scenario.padEnd(14),
            rate(t).toFixed(1).padStart(7),
            ms(percentile(t.latencies, 50)).padStart(9),
            ms(percentile(t.latencies, 99)).padStart(8),
            `${(share503(t) * 100).toFixed(1)}%`.padStart(11),
            (t.transactions / Math.max(1, t.successes)).toFixed(2).padStart(17),
            (scenario.startsWith('transfer') ? ms(percentile(t.lags, 50)) : '').padStart(11),
            (scenario.startsWith('transfer') ? ms(percentile(t.lags, 99)) : '').padStart(11),
            ` ${others}`,
          ].join(' '),
        )
      }
    }
    console.log('\nratios, one / many (throughput)')
    for (const n of WORKERS) {
      const transfer = rate(tallyOf('transfer-one', n)) / rate(tallyOf('transfer-many', n))
      const sign = rate(tallyOf('sign-one', n)) / rate(tallyOf('sign-many', n))
      console.log(
        `  ${String(n).padStart(2)} workers: transfers ${transfer.toFixed(2)}x, signs ${sign.toFixed(2)}x`,
      )
    }

    const n = MAX_WORKERS
    const hot = tallyOf('transfer-one', n)
    // The issue's bar is at the largest worker count, for one merchant and for many alike: the worse
    // of the two scenarios' p99 (pooling the smaller worker counts in would flatter it).
    const lagP99 = Math.max(percentile(hot.lags, 99), percentile(tallyOf('transfer-many', n).lags, 99))
    const checks: [string, boolean, string][] = [
      [
        `one merchant >= ${TARGET.ratio}x many merchants at ${n} workers`,
        rate(hot) / rate(tallyOf('transfer-many', n)) >= TARGET.ratio,
        `${(rate(hot) / rate(tallyOf('transfer-many', n))).toFixed(2)}x`,
      ],
      [
        `one merchant: no 503 at ${n} workers`,
        (hot.statuses['503'] ?? 0) === 0,
        `${hot.statuses['503'] ?? 0}`,
      ],
      [
        `history lag p99 <= ${TARGET.lagP99Ms} ms at ${n} workers (one merchant, many merchants)`,
        lagP99 <= TARGET.lagP99Ms,
        `${ms(percentile(hot.lags, 99))} ms, ${ms(percentile(tallyOf('transfer-many', n).lags, 99))} ms`,
      ],
      [
        `one business >= ${TARGET.ratio}x many businesses (signs) at ${n} workers`,
        rate(tallyOf('sign-one', n)) / rate(tallyOf('sign-many', n)) >= TARGET.ratio,
        `${(rate(tallyOf('sign-one', n)) / rate(tallyOf('sign-many', n))).toFixed(2)}x`,
      ],
    ]
    console.log('')
    for (const [what, ok, value] of checks) console.log(`  ${ok ? 'ok  ' : 'MISS'} ${what}: ${value}`)
    console.log(`${checks.filter((c) => c[1]).length} of ${checks.length} within target`)
  } finally {
    for (const worker of workers) worker.send({ stop: true })
    await new Promise((r) => setTimeout(r, 500))
    for (const worker of workers) if (worker.exitCode === null) worker.kill()
    await streams?.stop()
    await dynamo.stop()
  }
}

await main()
