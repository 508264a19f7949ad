/**
 * CPU of a 1,000-line validate through the whole handler, against JSON.parse of the same body.
 *
 *   npx tsx --expose-gc bench/large-invoice.ts        (RUNS=60 by default)
 *
 * Starts its own DynamoDB Local (in memory), seeds a table as `npm start` does, and invokes the
 * si/validate Lambda handler in this process with an API Gateway event carrying a signed 1,000-line
 * invoice (a fresh IRN each time, so each request really records a new invoice): authentication,
 * the JSON body parse with its prototype guard, validation, the canonical form and its hash, the
 * gzip of the stored copy, note encryption and the DynamoDB writes. "CPU" is the main thread's user
 * + system time over the call (process.threadCpuUsage; the whole process's is printed beside it), so
 * the time spent waiting for DynamoDB Local, a separate Java process, is not in it; the SDK's own
 * work (signing, marshalling, HTTP) is.
 * JSON.parse of the body is measured the same way in the same iterations, taking turns with the
 * handler, so the machine's load falls on both alike; with --expose-gc a full collection runs
 * before each measured call, so neither pays for the other's garbage. Also printed, from a separate
 * loop: the stages alone, for where the time goes. Target: handler CPU at most 3x JSON.parse CPU
 * (mean over the runs).
 */
import { constants, gzipSync } from 'node:zlib'
import { loadavg } from 'node:os'
import { randomUUID } from 'node:crypto'
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda'
import { jsonParseProtectProto } from '@middy/util'
import { signAreaA } from '#lib/client/signing.ts'
import { parseJsonBody } from '#lib/http/json-body.ts'
import { canonicalInvoice } from '#lib/invoice/canonical.ts'
import { buildCodeLists } from '#lib/invoice/code-lists.ts'
import { validateInvoice } from '#lib/invoice/validate.ts'
import { bundledLists } from '#lib/reference/manifest.ts'
import { readFileSync } from 'node:fs'
import { startDynamoDbLocal } from '../scripts/local/dynamodb-local.ts'
import { DEV } from '../scripts/local/dev-credentials.ts'
import { ensureTable } from '../scripts/local/table.ts'
import { invoiceOfLines, newIrn } from '../test/fixtures/invoices/build.ts'

const RUNS = Number(process.env.RUNS ?? 60)
const WARMUP = 5
const TARGET_RATIO = 3
const PARSES_PER_SAMPLE = 10
const PATH = '/api/v1/si/validate'

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')
/**
 * The kernel accounts CPU time in scheduler ticks, so one call of a few milliseconds reads as 0 or
 * a whole tick: per-call medians are meaningless. The figures are totals over all runs / runs.
 */
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!

const collect = (globalThis as { gc?: () => void }).gc ?? (() => {})

/** CPU ms of this (the main) thread: what a request costs where it runs, without V8's background
 * compiler and GC helper threads, which process.cpuUsage also counts. */
const threadMs = () => {
  const { user, system } = process.threadCpuUsage()
  return (user + system) / 1000
}
const processMs = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

function cpuMs(fn: () => unknown): number {
  collect()
  const start = threadMs()
  fn()
  return threadMs() - start
}
async function cpuMsAsync(
  fn: () => Promise<unknown>,
): Promise<{ cpu: number; processCpu: number; wall: number }> {
  collect()
  const wallStart = performance.now()
  const start = threadMs()
  const processStart = processMs()
  await fn()
  return {
    cpu: threadMs() - start,
    processCpu: processMs() - processStart,
    wall: performance.now() - wallStart,
  }
}

function eventOf(body: string): APIGatewayProxyEventV2 {
  const headers = {
    'content-type': 'application/json',
    ...signAreaA(DEV.clients.si, { method: 'POST', target: PATH, body }),
  }
  const now = new Date()
  return {
    version: '2.0',
    routeKey: 'POST /api/v1/si/validate',
    rawPath: PATH,
    rawQueryString: '',
    headers,
    requestContext: {
      accountId: 'bench',
      apiId: 'bench',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: { method: 'POST', path: PATH, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
      requestId: randomUUID(),
      routeKey: 'POST /api/v1/si/validate',
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    body,
    isBase64Encoded: false,
  }
}

const context = { awsRequestId: 'bench', getRemainingTimeInMillis: () => 29_000 } as unknown as Context

async function main() {
  console.log(
    `large invoice: ${RUNS} runs after ${WARMUP} warm-up, load average ${load()}${(globalThis as { gc?: unknown }).gc ? '' : ' (run with --expose-gc for GC-fair figures)'}`,
  )
  const dynamo = await startDynamoDbLocal({ heapMb: 512 })
  try {
    Object.assign(process.env, {
      TABLE_NAME: `large-invoice-${randomUUID().slice(0, 8)}`,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      STAGE: 'local',
      AWS_REGION: 'eu-west-1',
      LOG_LEVEL: 'SILENT',
    })
    await ensureTable(dynamo.endpoint, process.env.TABLE_NAME!)
    await (await import('../scripts/local/seed.ts')).seedLocal()
    const { handler } = await import('#functions/invoice/si-validate.ts')

    const invoice = invoiceOfLines(1000)
    const bodies = () => {
      invoice.irn = newIrn()
      return JSON.stringify(invoice)
    }
    const sample = bodies()
    console.log(`body ${(sample.length / 1024).toFixed(0)} KB, ${invoice.invoice_line.length} lines`)

    const times = {
      parse: [] as number[],
      handler: [] as number[],
      handlerProcess: [] as number[],
      wall: [] as number[],
    }
    const stages = {
      guarded: [] as number[],
      ours: [] as number[],
      canonical: [] as number[],
      gzip: [] as number[],
      validate: [] as number[],
    }
    // The code lists as the service holds them once warm (built from the bundled lists, as bench/validate.ts).
    const dataDir = new URL('../data/reference/', import.meta.url)
    const lists = buildCodeLists((name) => ({
      rows: JSON.parse(readFileSync(new URL(bundledLists[name].file, dataDir), 'utf8')) as unknown[],
      complete: bundledLists[name].complete,
    }))
    const validation = { version: 'v1', mode: 'strict', lists, serviceId: DEV.supplier.serviceId } as const
    let sink: unknown
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const body = bodies()
      const event = eventOf(body)
      // Ten parses per measurement, divided by ten: one parse is about a scheduler tick, so a single
      // one reads as 0 or a whole tick and its mean over the runs swung 3x between runs.
      const parse =
        cpuMs(() => {
          for (let k = 0; k < PARSES_PER_SAMPLE; k++) sink = JSON.parse(body)
        }) / PARSES_PER_SAMPLE
      const run = await cpuMsAsync(async () => {
        const reply = await handler(event, context as never)
        if (reply.statusCode !== 200) throw new Error(`validate answered ${reply.statusCode}: ${reply.body}`)
      })
      if (i >= WARMUP) {
        times.parse.push(parse)
        times.handler.push(run.cpu)
        times.handlerProcess.push(run.processCpu)
        times.wall.push(run.wall)
      }
    }
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const body = bodies()
      const parsed = JSON.parse(body)
      const guarded = cpuMs(() => {
        sink = jsonParseProtectProto(body, undefined, 'bench')
      })
      const ours = cpuMs(() => {
        sink = parseJsonBody(body)
      })
      let canonicalBytes: Buffer = Buffer.alloc(0)
      const canonical = cpuMs(() => {
        canonicalBytes = canonicalInvoice(parsed).bytes
      })
      const validate = cpuMs(() => {
        sink = validateInvoice(parsed, validation)
      })
      const gzip = cpuMs(() => {
        sink = gzipSync(canonicalBytes, { level: constants.Z_BEST_SPEED })
      })
      if (i >= WARMUP) {
        stages.guarded.push(guarded)
        stages.ours.push(ours)
        stages.canonical.push(canonical)
        stages.gzip.push(gzip)
        stages.validate.push(validate)
      }
    }
    void sink
    const parse = mean(times.parse)
    const row = (name: string, ms: number) =>
      console.log(`| ${name} | ${ms.toFixed(2)} | ${(ms / parse).toFixed(2)}x |`)
    console.log(`\nmean CPU ms per call, main thread (process.threadCpuUsage), load average ${load()}`)
    console.log('| what | CPU ms | / JSON.parse |')
    console.log('|---|---:|---:|')
    row('JSON.parse of the body', parse)
    row('si/validate handler, whole', mean(times.handler))
    row('  the same, whole process (V8 compiler and GC threads too)', mean(times.handlerProcess))
    row("  stage: middy's guarded parse (reviver), as before", mean(stages.guarded))
    row('  stage: the body parse now (lib/http/json-body.ts)', mean(stages.ours))
    row('  stage: validation alone (schema, unknown keys, code lists, rules)', mean(stages.validate))
    row('  stage: canonical form + SHA-256', mean(stages.canonical))
    row('  stage: one gzip of the canonical bytes (fastest level)', mean(stages.gzip))
    console.log(
      `handler wall time median ${median(times.wall).toFixed(1)} ms (DynamoDB Local round trips included)`,
    )
    const ratio = mean(times.handler) / parse
    const ok = ratio <= TARGET_RATIO
    console.log(
      `\n1,000-line validate, whole handler: ${ratio.toFixed(2)}x JSON.parse of its body (target ${TARGET_RATIO}x)`,
    )
    console.log(`${ok ? 1 : 0} of 1 within target`)
  } finally {
    await dynamo.stop()
  }
}

await main()
