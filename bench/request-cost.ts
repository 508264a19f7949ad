/**
 * Request cost per endpoint: DynamoDB and KMS calls per request, and latency, on DynamoDB Local.
 *
 *   npx tsx bench/request-cost.ts                       (this checkout only)
 *   BASELINE=<checkout> npx tsx bench/request-cost.ts   (before -> now, in the same rounds)
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
import { randomUUID } from 'node:crypto'
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { ApiClient } from '#client/api-client.ts'
import { startDynamoDbLocal } from '../scripts/local/dynamodb-local.ts'
import { DEV } from '../scripts/local/dev-credentials.ts'
import { buildInvoice, newIrn } from '../test/fixtures/invoices/build.ts'
import { type KmsStandIn, startKmsStandIn } from '../test/support/kms-stand-in.ts'

const ROUNDS = Number(process.env.ROUNDS ?? 200)
const WARMUP = Number(process.env.WARMUP ?? 10)
const HERE = resolve(import.meta.dirname, '..')

interface Target {
  name: string
  url: string
  control: string
  kms: KmsStandIn
  child: ChildProcess
  keysDir: string
}

async function startTarget(name: string, root: string, dynamoEndpoint: string): Promise<Target> {
  const kms = await startKmsStandIn()
  const keysDir = mkdtempSync(join(tmpdir(), 'request-cost-keys-'))
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(HERE, 'bench/request-cost/target.ts'), root],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        TABLE_NAME: `request-cost-${name}-${randomUUID().slice(0, 8)}`,
        DYNAMODB_ENDPOINT: dynamoEndpoint,
        STAGE: 'local',
        AWS_REGION: 'eu-west-1',
        DATA_KEY_ARN: kms.keyArn,
        AWS_ENDPOINT_URL_KMS: kms.endpoint,
        AWS_ACCESS_KEY_ID: 'stand-in',
        AWS_SECRET_ACCESS_KEY: 'stand-in',
        KEYS_DIR: keysDir,
        LOG_LEVEL: 'SILENT',
      },
    },
  )
  const line = await new Promise<string>((ok, fail) => {
    createInterface({ input: child.stdout! }).once('line', ok)
    child.once('exit', (code) => fail(new Error(`${name} target exited (${code}) before it was ready`)))
  })
  const { url, control } = JSON.parse(line) as { url: string; control: string }
  return { name, url, control, kms, child, keysDir }
}

const dynamoCalls = async (target: Target) =>
  (await (await fetch(target.control)).json()) as { calls: Record<string, number>; roundTrips: number }
const kmsTotal = (target: Target) => Object.values(target.kms.calls).reduce((a, b) => a + b, 0)

interface Endpoint {
  name: string
  /**
   * Sequential DynamoDB round trips per request the issues set (calls made side by side count once:
   * the rate limit's count beside the replay guard's put, the search counters beside each other);
   * KMS calls must be 0.
   */
  target: number
  /** Work before the measured request (not timed, calls not counted). */
  prepare?: (url: string) => Promise<unknown>
  request: (url: string, prepared: unknown) => Promise<{ status: number }>
  expect: number
}

const areaA = (url: string, which: 'si' | 'app' | 'buyer') =>
  new ApiClient(url, { area: 'A', credentials: DEV.clients[which] })
const switchClient = (url: string) =>
  new ApiClient(url, { area: 'B', credentials: { token: DEV.switch.token, secret: DEV.switch.secret } })
const id = (prefix: string) => `${prefix}-${randomUUID()}`
const transferBody = () => ({
  requestId: id('REQ'),
  stan: '123456',
  processingCode: '400000',
  merchantId: 'MRC0001',
  merchantReference: id('ORD'),
  accountNumber: '0123456789',
  amount: 1.5,
  currency: 'NGN',
  productCode: 'AIRTIME',
})
const invoiceNumber = () => `RC${randomUUID().replaceAll('-', '').slice(0, 10).toUpperCase()}`
const irnRequest = () => ({
  invoice_number: invoiceNumber(),
  service_id: DEV.supplier.serviceId,
  business_id: DEV.supplier.businessId,
  issuance_date: '20261121',
})

/** Invoices transmitted to the buyer so far, per target (the pull's preparation). */
const inboxed = new Map<string, number>()

const ENDPOINTS: Endpoint[] = [
  {
    name: 'GET resource/states',
    target: 2,
    expect: 200,
    request: (url) => areaA(url, 'si').get('/api/v1/resource/states'),
  },
  {
    name: 'GET merchant/transactions (50)',
    target: 2,
    expect: 200,
    request: (url) =>
      new ApiClient(url, {
        area: 'bearer',
        token: DEV.merchants[0].token,
        headers: { 'x-merchant-id': DEV.merchants[0].merchantId },
      }).get('/api/v1/merchant/transactions?size=50'),
  },
  {
    name: 'POST si/validate (10 lines, notes)',
    target: 3,
    expect: 200,
    request: (url) => areaA(url, 'si').post('/api/v1/si/validate', buildInvoice({ irn: newIrn() })),
  },
  {
    name: 'POST app/invoice/sign (10 lines, notes)',
    target: 3,
    expect: 200,
    request: (url) => areaA(url, 'app').post('/api/v1/app/invoice/sign', buildInvoice({ irn: newIrn() })),
  },
  {
    // The authority's path to the same endpoint (CONTRACT 17): its rules and reply shape are chosen at
    // the edge, so it costs what the seed's sign costs.
    name: 'POST /api/v1/invoice/sign (authority path, 10 lines)',
    target: 3,
    expect: 200,
    request: (url) => areaA(url, 'app').post('/api/v1/invoice/sign', buildInvoice({ irn: newIrn() })),
  },
  {
    name: 'POST si/generate-irn',
    target: 3,
    expect: 200,
    request: (url) => areaA(url, 'si').post('/api/v1/si/generate-irn', irnRequest()),
  },
  {
    name: 'POST si/generate-qr-code',
    target: 3,
    expect: 200,
    request: (url) => areaA(url, 'si').post('/api/v1/si/generate-qr-code', irnRequest()),
  },
  {
    // The buyer's inbox (CONTRACT 17): each round first signs and transmits one more invoice to the
    // buyer, so every counted page is full with a next page: one Query of size + 1 = 6 items.
    name: 'GET invoice/transmit/pull (size 5: 1 Query of 6 items)',
    target: 2,
    expect: 200,
    prepare: async (url) => {
      // The first round fills a page and its next item; each later one adds one.
      const have = inboxed.get(url) ?? 0
      const wanted = Math.max(have + 1, 6)
      for (let n = have; n < wanted; n++) {
        const irn = newIrn()
        const signed = await areaA(url, 'app').post('/api/v1/app/invoice/sign', buildInvoice({ irn }))
        if (signed.status !== 200) throw new Error(`pull's sign answered ${signed.status}`)
        const sent = await areaA(url, 'app').post(`/api/v1/invoice/transmit/${irn}`, undefined)
        if (sent.status !== 200) throw new Error(`pull's transmit answered ${sent.status}`)
      }
      inboxed.set(url, wanted)
    },
    request: async (url) => {
      const reply = await areaA(url, 'buyer').get<{ data: { content: unknown[]; page: { more: boolean } } }>(
        '/api/v1/invoice/transmit/pull?size=5',
      )
      if (reply.status !== 200) return reply
      const { content, page } = reply.body.data
      if (content.length !== 5 || !page.more)
        throw new Error('the pull did not read a full page and its next item')
      return reply
    },
  },
  {
    name: 'POST transactions/transfer',
    target: 4,
    expect: 200,
    request: (url) => switchClient(url).post('/api/v1/transactions/transfer', transferBody()),
  },
  {
    name: 'POST transactions/reversal',
    target: 4,
    expect: 200,
    prepare: async (url) => {
      const original = transferBody()
      const reply = await switchClient(url).post('/api/v1/transactions/transfer', original)
      if (reply.status !== 200) throw new Error(`reversal's transfer answered ${reply.status}`)
      return original
    },
    request: (url, prepared) => {
      const original = prepared as ReturnType<typeof transferBody>
      return switchClient(url).post('/api/v1/transactions/reversal', {
        requestId: id('REV'),
        stan: '654321',
        processingCode: '400000',
        originalRequestId: original.requestId,
      })
    },
  },
  {
    name: 'POST transactions/balance-enquiry',
    target: 3,
    expect: 200,
    request: (url) =>
      switchClient(url).post('/api/v1/transactions/balance-enquiry', {
        requestId: id('BAL'),
        stan: '000001',
        processingCode: '310000',
        accountNumber: '0987654321',
      }),
  },
]

interface Sample {
  ms: number
  dynamo: number
  /** Sequential round trips: calls started while another of the request was in flight share one. */
  roundTrips: number
  byOperation: Record<string, number>
  kms: number
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!
}
const median = (values: number[]) => quantile(values, 0.5)

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
    for (const t of targets) {
      t.child.kill()
      await t.kms.close()
      rmSync(t.keysDir, { recursive: true, force: true })
    }
    await dynamo.stop()
  }
}

await main()
