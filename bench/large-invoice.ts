/**
 * CPU of a 1,000-line validate through the whole handler, against JSON.parse of the same body.
 *
 *   npx tsx --expose-gc bench/large-invoice.ts        (RUNS=60 by default)
 *   BASELINE=<older checkout> npx tsx --expose-gc bench/large-invoice.ts    (its handler beside this one)
 *
 * An older checkout for BASELINE, inside the git-ignored .bench/ so its modules find this one's
 * node_modules: `mkdir -p .bench/base && git archive <commit> | tar -x -C .bench/base && ln -s
 * ../../node_modules .bench/base/node_modules`.
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
 * loop: the handler's work in stages, each called alone on what the handler hands it (the request
 * frame with the work stubbed, authentication with its replay write, the parse, validation, the
 * canonical form, the stored copy with its note encryption, the DynamoDB read and transaction), so
 * that they add up to about the whole; what they do not cover is mostly the garbage collection of
 * the whole request's allocations, which the stages, each after a full collection, pay less of
 * (bench/large-invoice-profile.ts shows it). Target: handler CPU at most 3x JSON.parse CPU (mean
 * over the runs).
 */
import { constants, gzipSync } from 'node:zlib'
import { loadavg } from 'node:os'
import { resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda'
import { jsonParseProtectProto } from '@middy/util'
import type { AuthRequest } from '#lib/platform/auth/authenticate.ts'
import { routes } from '#lib/service/routes.ts'
import { DEV } from '../scripts/local/dev-credentials.ts'
import { invoiceOfLines, newIrn } from '../test/fixtures/invoices/build.ts'
import { seededLocalTable, validateEvent } from './large-invoice-support.ts'

const RUNS = Number(process.env.RUNS ?? 60)
const WARMUP = 5
const TARGET_RATIO = 3
const PARSES_PER_SAMPLE = 10

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
/** The mean of `times` calls of a synchronous step, timed together (see PARSES_PER_SAMPLE). */
const cpuMsEach = (times: number, fn: () => unknown) =>
  cpuMs(() => {
    for (let k = 0; k < times; k++) fn()
  }) / times
async function cpuMsAsync(
  fn: () => Promise<unknown>,
): Promise<{ cpu: number; processCpu: number; wall: number; startedAt: number }> {
  collect()
  const wallStart = performance.now()
  const start = threadMs()
  const processStart = processMs()
  await fn()
  return {
    cpu: threadMs() - start,
    processCpu: processMs() - processStart,
    wall: performance.now() - wallStart,
    startedAt: wallStart,
  }
}

/** What the factory hands the verifier for this event (lib/platform/http/factory.ts, authentication). */
function authRequestOf(event: APIGatewayProxyEventV2): AuthRequest {
  const route = routes.find((r) => `${r.method} ${r.path}` === event.routeKey)!
  return {
    route,
    method: event.requestContext.http.method,
    target: event.rawPath,
    headers: event.headers,
    rawBody: Buffer.from(event.body ?? '', 'utf8'),
  }
}

const context = { awsRequestId: 'bench', getRemainingTimeInMillis: () => 29_000 } as unknown as Context

async function main() {
  console.log(
    `large invoice: ${RUNS} runs after ${WARMUP} warm-up, load average ${load()}${(globalThis as { gc?: unknown }).gc ? '' : ' (run with --expose-gc for GC-fair figures)'}`,
  )
  // One key folder for this checkout and a BASELINE one, so each opens what the other sealed.
  const dynamo = await seededLocalTable({
    KEYS_DIR: process.env.KEYS_DIR ?? fileURLToPath(new URL('../.local/keys', import.meta.url)),
  })
  try {
    // Imported once the environment names the table (as a function's module is loaded in Lambda).
    const { handler } = await import('#functions/invoice/si-validate.ts')
    // BASELINE=<an older checkout, with node_modules reachable from it>: its handler too, taking turns
    // with this one in the same iterations (its own modules, so its own caches and DynamoDB client).
    const baseline = process.env.BASELINE
      ? ((await import(pathToFileURL(resolve(process.env.BASELINE, 'functions/invoice/si-validate.ts')).href))
          .handler as typeof handler)
      : undefined
    const { apiHandler } = await import('#lib/platform/http/factory.ts')
    const { siValidate } = await import('#lib/service/endpoints/invoice.ts')
    const { apiSignature } = await import('#lib/platform/auth/api-signature.ts')
    const { actorOf } = await import('#lib/platform/audit/trail.ts')
    const { parseJsonBody } = await import('#lib/platform/http/json-body.ts')
    const { canonicalInvoice } = await import('#lib/invoice/canonical.ts')
    const { loadCodeLists } = await import('#lib/invoice/code-lists.ts')
    const { sealedStorageOf } = await import('#lib/invoice/notes.ts')
    const { createRecord, readInvoiceRecord } = await import('#lib/invoice/repository.ts')
    const { validateInvoice } = await import('#lib/invoice/validate.ts')
    type Content = Parameters<typeof createRecord>[0]

    const invoice = invoiceOfLines(1000)
    const bodies = () => {
      invoice.irn = newIrn()
      return JSON.stringify(invoice)
    }
    // A one-line invoice through the same handler: what every request costs whatever its size (the
    // DynamoDB calls, note encryption, the request frame), beside what the 1,000 lines add.
    const small = invoiceOfLines(1)
    const smallBodies = () => {
      small.irn = newIrn()
      return JSON.stringify(small)
    }
    const sample = bodies()
    console.log(`body ${(sample.length / 1024).toFixed(0)} KB, ${invoice.invoice_line.length} lines`)

    const times = {
      parse: [] as number[],
      handler: [] as number[],
      baseline: [] as number[],
      oneLine: [] as number[],
      handlerProcess: [] as number[],
      wall: [] as number[],
    }
    let sink: unknown
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const body = bodies()
      const event = validateEvent(body)
      // Ten parses per measurement, divided by ten: one parse is about a scheduler tick, so a single
      // one reads as 0 or a whole tick and its mean over the runs swung 3x between runs.
      const parse =
        cpuMs(() => {
          for (let k = 0; k < PARSES_PER_SAMPLE; k++) sink = JSON.parse(body)
        }) / PARSES_PER_SAMPLE
      const oldEvent = baseline ? validateEvent(bodies()) : undefined
      const smallEvent = validateEvent(smallBodies())
      const call = (fn: typeof handler, e: APIGatewayProxyEventV2, what: string) =>
        cpuMsAsync(async () => {
          const reply = await fn(e, context as never)
          if (reply.statusCode !== 200) throw new Error(`${what} answered ${reply.statusCode}: ${reply.body}`)
        })
      // This checkout and BASELINE take turns at going first, so neither gains from the order.
      const old = baseline && i % 2 === 1 ? await call(baseline, oldEvent!, 'BASELINE') : undefined
      const run = await call(handler, event, 'validate')
      const one = await call(handler, smallEvent, '1-line validate')
      const oldAfter = baseline && i % 2 === 0 ? await call(baseline, oldEvent!, 'BASELINE') : old
      if (i >= WARMUP) {
        if (oldAfter) times.baseline.push(oldAfter.cpu)
        times.oneLine.push(one.cpu)
        times.parse.push(parse)
        times.handler.push(run.cpu)
        times.handlerProcess.push(run.processCpu)
        times.wall.push(run.wall)
      }
    }

    // The stages: each piece of the handler's work called alone, on what the handler hands it, in the
    // handler's order, so that they add up to about the whole (a separate loop, after the one above).
    // The synchronous ones are timed ten calls at a time, as JSON.parse is.
    const caller = await apiSignature.verify(authRequestOf(validateEvent(bodies())))
    const serviceId = DEV.supplier.serviceId
    const stageNames = {
      frame: 'stage: request frame (middy, normalisers, log line, metrics, reply), work stubbed',
      auth: 'stage: authentication (body bytes, SHA-256 + HMAC, cached client, replay PutItem)',
      parse: 'stage: the body parse (lib/platform/http/json-body.ts)',
      validate: 'stage: validation (schema, unknown keys, code lists, rules)',
      canonical: 'stage: canonical form + SHA-256 of the validated invoice',
      storage: 'stage: stored copy (notes encrypted, canonical members into one buffer, one gzip)',
      dynamo: 'stage: DynamoDB (GetItem of the record, TransactWriteItems record + audit + event)',
    }
    type Stage = keyof typeof stageNames
    const stages = Object.fromEntries(Object.keys(stageNames).map((k) => [k, [] as number[]])) as Record<
      Stage,
      number[]
    >
    const extra = { guarded: [] as number[], gzip: [] as number[] }
    // The same middy stack and factory as the handler, with the verifier and the invoice work stubbed.
    const stub = apiHandler(siValidate, { scheme: apiSignature.scheme, verify: async () => caller }, () => ({
      data: { message: 'Invoice validated successfully', payment_status: 'PENDING', irn: invoice.irn },
    }))
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const body = bodies()
      const stubEvent = validateEvent('{}')
      const frame = await cpuMsAsync(async () => {
        const reply = await stub(stubEvent, context as never)
        if (reply.statusCode !== 200) throw new Error(`the stub answered ${reply.statusCode}: ${reply.body}`)
      })
      const authRequest = authRequestOf(validateEvent(body))
      const auth = await cpuMsAsync(() =>
        apiSignature.verify({ ...authRequest, rawBody: Buffer.from(body, 'utf8') }),
      )
      let parsed: unknown
      const parse = cpuMsEach(PARSES_PER_SAMPLE, () => {
        parsed = parseJsonBody(body)
      })
      const lists = await loadCodeLists()
      let result: ReturnType<typeof validateInvoice> | undefined
      const validate = cpuMsEach(PARSES_PER_SAMPLE, () => {
        result = validateInvoice(parsed, { version: 'v1', mode: 'strict', lists, serviceId })
      })
      if (!result?.ok) throw new Error('the bench invoice is not valid')
      const valid = result.invoice
      let canonical: ReturnType<typeof canonicalInvoice> | undefined
      const canonicalMs = cpuMsEach(PARSES_PER_SAMPLE, () => {
        canonical = canonicalInvoice(valid)
      })
      let storage: Content['storage'] | undefined
      const storageMs = await cpuMsAsync(async () => {
        storage = await sealedStorageOf(valid.irn, valid, canonical!)
      })
      const content: Content = {
        irn: valid.irn,
        businessId: caller.businessId,
        status: 'VALIDATED',
        paymentStatus: valid.payment_status,
        supplierTin: valid.accounting_supplier_party.tin,
        ...(valid.accounting_customer_party ? { buyerTin: valid.accounting_customer_party.tin } : {}),
        storage: storage!,
        contentHash: canonical!.contentHash,
        at: new Date().toISOString(),
      }
      const dynamoMs = await cpuMsAsync(async () => {
        if (await readInvoiceRecord(valid.irn)) throw new Error('the bench IRN is taken')
        if (!(await createRecord(content, actorOf(caller)))) throw new Error('the record was not created')
      })
      const guarded = cpuMsEach(PARSES_PER_SAMPLE, () => {
        sink = jsonParseProtectProto(body, undefined, 'bench')
      })
      const canonicalBytes = canonical!.bytes
      const gzip = cpuMsEach(PARSES_PER_SAMPLE, () => {
        sink = gzipSync(canonicalBytes, { level: constants.Z_BEST_SPEED })
      })
      if (i >= WARMUP) {
        stages.frame.push(frame.cpu)
        stages.auth.push(auth.cpu)
        stages.parse.push(parse)
        stages.validate.push(validate)
        stages.canonical.push(canonicalMs)
        stages.storage.push(storageMs.cpu)
        stages.dynamo.push(dynamoMs.cpu)
        extra.guarded.push(guarded)
        extra.gzip.push(gzip)
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
    if (baseline)
      row(`  the BASELINE checkout's handler (${process.env.BASELINE}), same runs`, mean(times.baseline))
    row('  the same, whole process (V8 compiler and GC threads too)', mean(times.handlerProcess))
    row('  the same handler on a 1-line invoice, same runs (the per-request part)', mean(times.oneLine))
    row('  what the 1,000 lines add (whole minus 1-line)', mean(times.handler) - mean(times.oneLine))
    let sum = 0
    for (const [key, name] of Object.entries(stageNames)) {
      const ms = mean(stages[key as Stage])
      sum += ms
      row(`  ${name}`, ms)
    }
    row('  the stages added up', sum)
    row("  not in the sum: middy's guarded parse (reviver), as before", mean(extra.guarded))
    row('  not in the sum: one gzip of the whole canonical form (fastest level)', mean(extra.gzip))
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
