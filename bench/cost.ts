/**
 * What a request costs, per function of the route table, in dollars per million requests, beside its
 * floor (what the route logically needs) and the ratio to it (issue 34, point 8).
 *
 *   npx tsx bench/cost.ts            (ROUNDS=20 counted requests per function after WARMUP=3;
 *                                     ONLY=<id fragment> for some functions)
 *
 * The routes of lib/service/routes.ts are grouped by function (a function's routes, v1 and v2 and the
 * authority's paths, run the same handler and cost the same); each function with a representative
 * request below is measured on DynamoDB Local through bench/request-cost's machinery (harness.ts,
 * target.ts --cost): the checkout in its own process with KMS pointed at a counted stand-in and every
 * DynamoDB call asked for ReturnConsumedCapacity INDEXES. What is measured, median per request:
 *
 * - DynamoDB read and write units as DynamoDB Local reports them (table and indexes, transactions
 *   counted twice, as DynamoDB does); a write refused by its condition reports none and is priced from
 *   its item's size by the published rules (bench/cost/pricing.ts: writeUnits);
 * - the bytes of the items read and written;
 * - the handler's duration as its request line logs it (`durationMs`), billed at the function's
 *   memory (API_FUNCTION_MEMORY_MB, infra/constructs/api-function.ts) on Arm;
 * - one HTTP API request (per 512 KB of body), KMS requests (the stand-in's count);
 * - the bytes logged (every line the server writes at LOG_LEVEL INFO, as in AWS, EMF metric lines
 *   included) plus Lambda's own START/END/REPORT lines (LAMBDA_PLATFORM_LOG_BYTES, an estimate).
 *
 * Prices, region and sources: bench/cost/pricing.ts. Not priced: X-Ray traces (tracing is active:
 * $5 per million traces recorded, sampled at 1 a second plus 5 %), the stream consumers' work after a
 * write (the history indexer, webhooks: their own invocations and writes), storage and data transfer.
 */
import { loadavg } from 'node:os'
import { resolve } from 'node:path'
import { API_FUNCTION_MEMORY_MB } from '../infra/constructs/api-function.ts'
import { functionsOf, routes } from '#lib/service/routes.ts'
import { startDynamoDbLocal } from '../scripts/local/dynamodb-local.ts'
import { DEV } from '../scripts/local/dev-credentials.ts'
import { buildInvoice, newIrn } from '../test/fixtures/invoices/build.ts'
import { floorCost, PRICES, perMillion, requestCost, writeUnits } from './cost/pricing.ts'
import {
  areaA,
  type BenchRequest,
  dynamoCalls,
  kmsTotal,
  median,
  notifyAdmin,
  REQUESTS,
  signedInvoice,
  startTarget,
  stopTarget,
  type Target,
  type Usage,
} from './request-cost/harness.ts'

const ROUNDS = Number(process.env.ROUNDS ?? 20)
const WARMUP = Number(process.env.WARMUP ?? 3)
/** Only the functions whose id contains this (e.g. ONLY=transactions). */
const ONLY = process.env.ONLY
const HERE = resolve(import.meta.dirname, '..')

/** Lambda's START, END and REPORT lines per invocation (with the X-Ray trace line of active tracing). */
const LAMBDA_PLATFORM_LOG_BYTES = 350

/** A strongly consistent read of what was read: 1 unit per 4 KB; eventually consistent, half. */
const eventual = (bytes: number) => (bytes > 0 ? Math.ceil(bytes / 4096) / 2 : 0)

interface Floor {
  /** What the route logically needs, in words. */
  says: string
  units: (u: Usage) => { readUnits: number; writeUnits: number }
}

/** Every signed request (Areas A and B): the replay guard's one write, which the contract requires. */
const REPLAY = 1
const floors = {
  none: { says: 'nothing stored or read', units: () => ({ readUnits: 0, writeUnits: 0 }) },
  signedRead: {
    says: 'the replay write; its reply read eventually consistent (bytes read / 4 KB / 2)',
    units: (u) => ({ readUnits: eventual(u.readBytes), writeUnits: REPLAY }),
  },
  signedStatic: {
    says: 'the replay write (the list itself could be in the bundle)',
    units: () => ({ readUnits: 0, writeUnits: REPLAY }),
  },
  bearerRead: {
    says: 'its page read eventually consistent (bytes read / 4 KB / 2)',
    units: (u) => ({ readUnits: eventual(u.readBytes), writeUnits: 0 }),
  },
  register: {
    says: 'the replay write and one registration item (1 KB)',
    units: () => ({ readUnits: 0, writeUnits: REPLAY + 1 }),
  },
  validate: {
    says: 'the replay write, the validated invoice item (its KB) and one audit event, not transactional',
    units: (u) => ({ readUnits: 0, writeUnits: REPLAY + writeUnits(u.largestWritten) + 1 }),
  },
  sign: {
    says: 'the replay write, the invoice item (its KB) and one audit event, not transactional',
    units: (u) => ({ readUnits: 0, writeUnits: REPLAY + writeUnits(u.largestWritten) + 1 }),
  },
  transmit: {
    says: 'the replay write, the invoice read, its status rewritten (its KB), one inbox item, one audit event',
    units: (u) => ({
      readUnits: eventual(u.largestWritten),
      writeUnits: REPLAY + writeUnits(u.largestWritten) + 2,
    }),
  },
  transfer: {
    says: 'the debit and the transfer record (by requestId: also the replay guard) in one transaction, 2 items x 2',
    units: () => ({ readUnits: 0, writeUnits: 4 }),
  },
  reversal: {
    says: 'the original read (1); the credit and the reversal record (also the replay guard) in one transaction, 2 x 2',
    units: () => ({ readUnits: 1, writeUnits: 4 }),
  },
  update: {
    says: 'the replay write; the invoice read and its payment status rewritten (its KB), one audit event',
    units: (u) => ({
      readUnits: eventual(u.largestWritten),
      writeUnits: REPLAY + writeUnits(u.largestWritten) + 1,
    }),
  },
  balance: {
    says: 'the replay write; the account read strongly consistent (1)',
    units: () => ({ readUnits: 1, writeUnits: REPLAY }),
  },
} satisfies Record<string, Floor>

interface Representative extends BenchRequest {
  /** What is sent, in words. */
  sends: string
  floor: Floor
}

const get = (path: string, which: 'si' | 'app' | 'admin' = 'si'): BenchRequest => ({
  expect: 200,
  request: (url) => areaA(url, which).get(path),
})
const withInvoice = (
  path: (irn: string) => string,
  method: 'get' | 'post',
  which: 'si' | 'app' = 'app',
): BenchRequest => ({
  expect: 200,
  prepare: (url) => signedInvoice(url),
  request: (url, irn) =>
    method === 'get'
      ? areaA(url, which).get(path(irn as string))
      : areaA(url, which).post(path(irn as string), undefined),
})

/** A representative request per function (by functionId); functions without one are listed as such. */
const REPRESENTATIVES: Record<string, Representative> = {
  'health-check': {
    sends: 'GET /api/v1/health-check',
    expect: 200,
    request: (url) => fetch(`${url}/api/v1/health-check`),
    floor: floors.none,
  },
  openapi: {
    sends: 'GET /api/openapi.json',
    expect: 200,
    request: (url) => fetch(`${url}/api/openapi.json`),
    floor: floors.none,
  },
  'si-validate': { sends: 'POST si/validate, 10 lines', ...REQUESTS.siValidate, floor: floors.validate },
  'app-invoice-validate': {
    sends: 'POST app/invoice/validate, 10 lines',
    expect: 200,
    request: (url) => areaA(url, 'app').post('/api/v1/app/invoice/validate', buildInvoice({ irn: newIrn() })),
    floor: floors.validate,
  },
  'app-invoice-sign': {
    sends: 'POST app/invoice/sign, 10 lines, notes',
    ...REQUESTS.appSign,
    floor: floors.sign,
  },
  'si-generate-irn': { sends: 'POST si/generate-irn', ...REQUESTS.generateIrn, floor: floors.register },
  'si-generate-qr-code': {
    sends: 'POST si/generate-qr-code',
    ...REQUESTS.generateQr,
    floor: floors.register,
  },
  'si-get-invoice': {
    sends: 'GET si/get-invoice/{irn} of a signed invoice',
    ...withInvoice((irn) => `/api/v1/si/get-invoice/${irn}`, 'get', 'si'),
    floor: floors.signedRead,
  },
  'app-invoice-confirm': {
    sends: 'GET app/invoice/confirm/{irn} of a signed invoice',
    ...withInvoice((irn) => `/api/v1/app/invoice/confirm/${irn}`, 'get'),
    floor: floors.signedRead,
  },
  'app-invoice-transmit': {
    sends: 'POST invoice/transmit/{irn} of a signed invoice',
    ...withInvoice((irn) => `/api/v1/invoice/transmit/${irn}`, 'post'),
    floor: floors.transmit,
  },
  'invoice-transmit-pull': {
    sends: 'GET invoice/transmit/pull?size=5 (a full page)',
    ...REQUESTS.pull,
    floor: floors.signedRead,
  },
  'invoice-search': {
    sends: 'GET invoices?size=10',
    ...get('/api/v1/invoices?size=10', 'app'),
    floor: floors.signedRead,
  },
  'transactions-transfer': {
    sends: 'POST transactions/transfer',
    ...REQUESTS.transfer,
    floor: floors.transfer,
  },
  'transactions-reversal': {
    sends: 'POST transactions/reversal of a transfer',
    ...REQUESTS.reversal,
    floor: floors.reversal,
  },
  'transactions-balance-enquiry': {
    sends: 'POST transactions/balance-enquiry',
    ...REQUESTS.balance,
    floor: floors.balance,
  },
  'merchant-transactions': {
    sends: 'GET merchant/transactions?size=50',
    ...REQUESTS.merchantTransactions,
    floor: floors.bearerRead,
  },
  'webhook-subscription-list': {
    sends: 'GET webhooks (ADMIN)',
    ...get('/api/v1/webhooks', 'admin'),
    floor: floors.signedRead,
  },
  'event-list': { sends: 'GET events (ADMIN)', ...get('/api/v1/events', 'admin'), floor: floors.signedRead },
  'api-key-list': { sends: 'GET keys (ADMIN)', ...get('/api/v1/keys', 'admin'), floor: floors.signedRead },
  'si-generate-invoice-number': {
    sends: 'POST si/generate-invoice-number',
    expect: 200,
    request: (url) =>
      areaA(url, 'si').post('/api/v1/si/generate-invoice-number', {
        service_id: DEV.supplier.serviceId,
        business_id: DEV.supplier.businessId,
      }),
    floor: floors.register,
  },
  'resource-verify-tin': {
    sends: 'POST resource/verify-tin',
    expect: 200,
    request: (url) => areaA(url, 'si').post('/api/v1/resource/verify-tin', { tin: DEV.supplier.tin }),
    floor: floors.signedRead,
  },
  'app-invoice-update': {
    sends: 'PATCH app/invoice/update/{irn} PAID, of a signed invoice',
    expect: 200,
    prepare: (url) => signedInvoice(url),
    request: (url, irn) =>
      areaA(url, 'app').request('PATCH', `/api/v1/app/invoice/update/${irn as string}`, {
        payment_status: 'PAID',
      }),
    floor: floors.update,
  },
  docs: {
    sends: 'GET /api/docs',
    expect: 200,
    request: (url) => fetch(`${url}/api/docs`),
    floor: floors.none,
  },
  'notification-template-list': {
    sends: 'GET /notification/template?product=AIRTIME',
    expect: 200,
    request: (url) => notifyAdmin(url).get('/notification/template?product=AIRTIME'),
    floor: floors.bearerRead,
  },
  'notification-email-list': {
    sends: 'GET /notification/email',
    expect: 200,
    request: (url) => notifyAdmin(url).get('/notification/email'),
    floor: floors.bearerRead,
  },
}

/** The reference lists: each function's first plain GET route under /api/v1/resource/, signed by SI. */
for (const [functionId, list] of functionsOf(routes)) {
  const route = list.find((r) => r.method === 'GET' && /^\/api\/v1\/resource\/[a-z-]+$/.test(r.path))
  if (!route || REPRESENTATIVES[functionId]) continue
  REPRESENTATIVES[functionId] = {
    sends: `GET ${route.path}`,
    ...get(route.path),
    // An unsigned list (the public keys) has no replay write to make.
    floor: route.auth === 'none' ? floors.none : floors.signedStatic,
  }
}

interface Measured {
  readUnits: number
  writeUnits: number
  indexWriteUnits: number
  readKb: number
  writtenKb: number
  lambdaMs: number
  logBytes: number
  kms: number
  requestBytes: number
  floor: { readUnits: number; writeUnits: number }
  /** Whether any call reported no units and was priced from sizes. */
  estimated: boolean
}

async function once(target: Target, r: Representative): Promise<Measured> {
  const prepared = r.prepare ? await r.prepare(target.url) : undefined
  await dynamoCalls(target)
  const kmsBefore = kmsTotal(target)
  let requestBytes = 0
  const realFetch = globalThis.fetch
  // The body's size, for the HTTP API's 512 KB metering.
  globalThis.fetch = (input, init) => {
    requestBytes += typeof init?.body === 'string' ? Buffer.byteLength(init.body) : 0
    return realFetch(input, init)
  }
  const started = performance.now()
  let reply: { status: number }
  try {
    reply = await r.request(target.url, prepared)
  } finally {
    globalThis.fetch = realFetch
  }
  const clientMs = performance.now() - started
  if (reply.status !== r.expect) throw new Error(`${r.sends} answered ${reply.status}`)
  const { usage } = await dynamoCalls(target)
  const u = usage!
  const failed = u.failedWrites.reduce((n, bytes) => n + writeUnits(bytes), 0)
  return {
    readUnits: u.readUnits,
    writeUnits: u.writeUnits + failed,
    indexWriteUnits: u.indexWriteUnits,
    readKb: u.readBytes / 1024,
    writtenKb: u.writtenBytes / 1024,
    // The handler's own line; the client's time if none was logged.
    lambdaMs: u.handlerMs.length ? u.handlerMs.reduce((a, b) => a + b, 0) : clientMs,
    logBytes: u.logBytes + LAMBDA_PLATFORM_LOG_BYTES,
    kms: kmsTotal(target) - kmsBefore,
    requestBytes,
    floor: r.floor.units(u),
    estimated: failed > 0,
  }
}

const money = (dollars: number) => perMillion(dollars).toFixed(2)

async function main() {
  const load = () =>
    loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')
  const functions = functionsOf(routes)
  console.log(
    `cost: ${ROUNDS} requests per function after ${WARMUP} warm-up, ${functions.size} functions, load ${load()}`,
  )
  const dynamo = await startDynamoDbLocal({ heapMb: 512 })
  let target: Target | undefined
  const rows: string[] = []
  const notMeasured: string[] = []
  try {
    // Inside the try: a target that fails to start must not leave DynamoDB Local running.
    target = await startTarget('now', HERE, dynamo.endpoint, { cost: true })
    for (const [functionId, list] of functions) {
      if (ONLY && !functionId.includes(ONLY)) continue
      const r = REPRESENTATIVES[functionId]
      const routeNames = `${list.length} route${list.length === 1 ? '' : 's'}: ${list[0]!.method} ${list[0]!.path}${list.length > 1 ? ', ...' : ''}`
      if (!r) {
        notMeasured.push(`${functionId} (${routeNames})`)
        continue
      }
      const samples: Measured[] = []
      try {
        for (let round = 0; round < WARMUP + ROUNDS; round++) {
          const sample = await once(target, r)
          if (round >= WARMUP) samples.push(sample)
        }
      } catch (error) {
        notMeasured.push(`${functionId} (${routeNames}): ${(error as Error).message}`)
        continue
      }
      const m = (f: (s: Measured) => number) => median(samples.map(f))
      const usage = {
        readUnits: m((s) => s.readUnits),
        writeUnits: m((s) => s.writeUnits),
        lambdaMs: m((s) => s.lambdaMs),
        memoryMb: API_FUNCTION_MEMORY_MB,
        requestBytes: m((s) => s.requestBytes),
        kmsRequests: m((s) => s.kms),
        logBytes: m((s) => s.logBytes),
      }
      const cost = requestCost(usage)
      const floor = { readUnits: m((s) => s.floor.readUnits), writeUnits: m((s) => s.floor.writeUnits) }
      const floorDollars = floorCost(floor)
      const estimated = samples.some((s) => s.estimated) ? ' (some from sizes)' : ''
      rows.push(
        `| ${functionId} | ${r.sends} (${list.length} route${list.length === 1 ? '' : 's'}) | ${usage.readUnits} / ${usage.writeUnits} (${m((s) => s.indexWriteUnits)})${estimated} | ${m((s) => s.readKb).toFixed(1)} / ${m((s) => s.writtenKb).toFixed(1)} | ${usage.lambdaMs.toFixed(0)} | ${usage.logBytes.toFixed(0)} | ${usage.kmsRequests} | ${money(cost.dynamodb)} | ${money(cost.lambda)} | ${money(cost.apiGateway)} | ${money(cost.kms)} | ${money(cost.logs)} | **${money(cost.total)}** | ${floor.readUnits} / ${floor.writeUnits}: ${r.floor.says} | ${money(floorDollars)} | ${(cost.total / floorDollars).toFixed(1)}x |`,
      )
      console.error(`  ${functionId}: done (load ${load()})`)
    }
  } finally {
    if (target) await stopTarget(target)
    await dynamo.stop()
  }
  console.log(
    `\nDynamoDB Local, sequential requests, medians of ${ROUNDS}; prices ${PRICES.region} as of ${PRICES.date} (bench/cost/pricing.ts); Lambda ${API_FUNCTION_MEMORY_MB} MB Arm; load at the end ${load()}`,
  )
  console.log(
    '| function | request (routes) | RRU / WRU (of which indexes) | KB read / written | Lambda ms | log bytes | KMS | DynamoDB $/M | Lambda $/M | API GW $/M | KMS $/M | Logs $/M | total $/M | floor RRU / WRU: what it needs | floor $/M | ratio |',
  )
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|')
  for (const row of rows) console.log(row)
  console.log(`\n${rows.length} of ${functions.size} functions measured; not measured:`)
  for (const line of notMeasured) console.log(`- ${line}`)
}

await main()
