/**
 * Request cost per endpoint: DynamoDB and KMS calls per request, and latency, on DynamoDB Local.
 *
 *   npx tsx bench/request-cost.ts                       (this checkout only)
 *   BASELINE=<checkout> npx tsx bench/request-cost.ts   (before -> now, in the same rounds)
 *   ONLY=status-query npx tsx bench/request-cost.ts     (the endpoints whose name contains it)
 *
 * BASELINE is the root of an earlier checkout (a `git worktree` with node_modules). Each checkout
 * runs in its own process (bench/request-cost/target.ts) with its own table in one DynamoDB Local
 * and its own counted KMS stand-in (test/support/kms-stand-in.ts), with DATA_KEY_ARN set, so field
 * encryption goes through the Encryption SDK's KMS keyring exactly as in AWS. DynamoDB calls are
 * counted by SDK middleware on the checkout's own document client; KMS calls by the stand-in.
 *
 * ROUNDS (default 200) sequential requests per endpoint and checkout, the checkouts taking turns
 * request by request so load on the shared machine falls on both alike; the first WARMUP (10) are
 * not counted (a cold container reads what it then caches). Calls per request is the median over the
 * counted requests ("steady state"); the max is shown beside it.
 */
import { loadavg } from 'node:os'
import { resolve } from 'node:path'
import { startDynamoDbLocal } from '../scripts/local/dynamodb-local.ts'
import {
  type BenchRequest,
  dynamoCalls,
  kmsTotal,
  median,
  quantile,
  REQUESTS,
  startTarget,
  stopTarget,
  type Target,
} from './request-cost/harness.ts'

const ROUNDS = Number(process.env.ROUNDS ?? 200)
const WARMUP = Number(process.env.WARMUP ?? 10)
const HERE = resolve(import.meta.dirname, '..')

interface Endpoint extends BenchRequest {
  name: string
  /**
   * Sequential DynamoDB round trips per request the issues set (calls made side by side count once:
   * the rate limit's count beside the replay guard's put, the search counters beside each other);
   * KMS calls must be 0.
   */
  target: number
}

const ENDPOINTS: Endpoint[] = [
  { name: 'GET resource/states', target: 2, ...REQUESTS.states },
  { name: 'GET merchant/transactions (50)', target: 2, ...REQUESTS.merchantTransactions },
  { name: 'POST si/validate (10 lines, notes)', target: 3, ...REQUESTS.siValidate },
  { name: 'POST app/invoice/sign (10 lines, notes)', target: 3, ...REQUESTS.appSign },
  { name: 'POST /api/v1/invoice/sign (authority path, 10 lines)', target: 3, ...REQUESTS.authoritySign },
  { name: 'POST si/generate-irn', target: 3, ...REQUESTS.generateIrn },
  { name: 'POST si/generate-qr-code', target: 3, ...REQUESTS.generateQr },
  { name: 'GET invoice/transmit/pull (size 5: 1 Query of 6 items)', target: 2, ...REQUESTS.pull },
  { name: 'POST transactions/transfer', target: 4, ...REQUESTS.transfer },
  { name: 'POST transactions/reversal', target: 4, ...REQUESTS.reversal },
  { name: 'POST transactions/balance-enquiry', target: 3, ...REQUESTS.balance },
  // The auth scheme's calls (as the balance enquiry's) and ONE GetItem of the request record.
  { name: 'POST transactions/status-query', target: 3, ...REQUESTS.statusQuery },
].filter((endpoint) => !process.env.ONLY || endpoint.name.includes(process.env.ONLY))

interface Sample {
  ms: number
  dynamo: number
  /** Sequential round trips: calls started while another of the request was in flight share one. */
  roundTrips: number
  byOperation: Record<string, number>
  kms: number
}

async function measure(target: Target, endpoint: Endpoint): Promise<Sample> {
  const prepared = endpoint.prepare ? await endpoint.prepare(target.url) : undefined
  await dynamoCalls(target)
  const kmsBefore = kmsTotal(target)
  const start = performance.now()
  const reply = await endpoint.request(target.url, prepared)
  const ms = performance.now() - start
  if (reply.status !== endpoint.expect) {
    throw new Error(`${target.name}: ${endpoint.name} answered ${reply.status}: ${JSON.stringify(reply)}`)
  }
  const { calls: byOperation, roundTrips } = await dynamoCalls(target)
  return {
    ms,
    dynamo: Object.values(byOperation).reduce((a, b) => a + b, 0),
    roundTrips,
    byOperation,
    kms: kmsTotal(target) - kmsBefore,
  }
}

/** The most common breakdown by operation among the counted requests, e.g. "GetItem 1, PutItem 1". */
function typical(samples: Sample[]): string {
  const tally = new Map<string, number>()
  for (const s of samples) {
    const key = Object.entries(s.byOperation)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([op, n]) => `${op.replace(/Command$/, '')} ${n}`)
      .join(', ')
    tally.set(key, (tally.get(key) ?? 0) + 1)
  }
  return [...tally].sort((a, b) => b[1] - a[1])[0]?.[0] ?? ''
}

async function main() {
  const load = () =>
    loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')
  console.log(`request cost: ${ROUNDS} requests per endpoint after ${WARMUP} warm-up, load average ${load()}`)
  const dynamo = await startDynamoDbLocal({ heapMb: 512 })
  const targets: Target[] = []
  try {
    if (process.env.BASELINE)
      targets.push(await startTarget('before', resolve(process.env.BASELINE), dynamo.endpoint))
    targets.push(await startTarget('now', HERE, dynamo.endpoint))

    const rows: string[] = []
    let within = 0
    for (const endpoint of ENDPOINTS) {
      const samples = new Map<Target, Sample[]>(targets.map((t) => [t, []]))
      for (let round = 0; round < WARMUP + ROUNDS; round++) {
        for (const target of targets) {
          const sample = await measure(target, endpoint)
          if (round >= WARMUP) samples.get(target)!.push(sample)
        }
      }
      const cells = targets.map((t) => {
        const s = samples.get(t)!
        return {
          dynamo: median(s.map((x) => x.dynamo)),
          dynamoMax: Math.max(...s.map((x) => x.dynamo)),
          roundTrips: median(s.map((x) => x.roundTrips)),
          roundTripsMax: Math.max(...s.map((x) => x.roundTrips)),
          kms: median(s.map((x) => x.kms)),
          kmsTotal: s.reduce((n, x) => n + x.kms, 0),
          ops: typical(s),
          median: median(s.map((x) => x.ms)),
          p99: quantile(
            s.map((x) => x.ms),
            0.99,
          ),
        }
      })
      const now = cells.at(-1)!
      const ok = now.roundTrips <= endpoint.target && now.kmsTotal === 0
      if (ok) within++
      const arrow = (f: (c: (typeof cells)[number]) => string) => cells.map(f).join(' -> ')
      rows.push(
        `| ${endpoint.name} | ${arrow((c) => `${c.roundTrips} (max ${c.roundTripsMax})`)} | ${arrow((c) => `${c.dynamo} (max ${c.dynamoMax})`)} | ${now.ops} | ${arrow((c) => `${c.kms} (${c.kmsTotal} in all)`)} | ${arrow((c) => c.median.toFixed(1))} | ${arrow((c) => c.p99.toFixed(1))} | ${endpoint.target} | ${ok ? 'yes' : 'NO'} |`,
      )
      console.log(`  ${endpoint.name}: done (load ${load()})`)
    }
    const label = targets.map((t) => t.name).join(' -> ')
    console.log(`\nDynamoDB Local, sequential requests; ${label}; load average at the end ${load()}`)
    console.log(
      `| endpoint | DynamoDB round trips per request, median (${label}) | DynamoDB calls per request, median (${label}) | now by operation | KMS calls per request (${label}) | median ms | p99 ms | target round trips | within |`,
    )
    console.log('|---|---:|---:|---|---:|---:|---:|---:|---|')
    for (const row of rows) console.log(row)
    console.log(
      `\ntarget: DynamoDB round trips per request (median) at most the target, and no KMS call in the counted requests`,
    )
    console.log(`${within} of ${ENDPOINTS.length} within target`)
  } finally {
    for (const t of targets) await stopTarget(t)
    await dynamo.stop()
  }
}

await main()
