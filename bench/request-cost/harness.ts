/**
 * What bench/request-cost.ts and bench/cost.ts share: a checkout of the API started in its own
 * process (target.ts) on the bench's DynamoDB Local, with KMS pointed at a counted stand-in
 * (test/support/kms-stand-in.ts), the counts it answers, the clients of each area, and the requests
 * both benches send.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { ApiClient } from '#client/api-client.ts'
import { DEV } from '../../scripts/local/dev-credentials.ts'
import { buildInvoice, newIrn } from '../../test/fixtures/invoices/build.ts'
import { type KmsStandIn, startKmsStandIn } from '../../test/support/kms-stand-in.ts'

const HERE = resolve(import.meta.dirname, '../..')

export interface Target {
  name: string
  url: string
  control: string
  kms: KmsStandIn
  child: ChildProcess
  keysDir: string
}

/**
 * Starts a checkout (`root`) as a target. With `cost`, the target also reports consumed capacity,
 * item sizes, log bytes and handler durations (target.ts --cost), and logs at INFO as the functions
 * do in AWS (infra/constructs/api-function.ts); otherwise it logs nothing.
 */
export async function startTarget(
  name: string,
  root: string,
  dynamoEndpoint: string,
  { cost = false }: { cost?: boolean } = {},
): Promise<Target> {
  const kms = await startKmsStandIn()
  const keysDir = mkdtempSync(join(tmpdir(), 'request-cost-keys-'))
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(HERE, 'bench/request-cost/target.ts'), root, ...(cost ? ['--cost'] : [])],
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
        LOG_LEVEL: cost ? 'INFO' : 'SILENT',
        // The JSON lines Lambda writes, never the terminal's short form.
        LOG_FORMAT: 'json',
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

export async function stopTarget(target: Target): Promise<void> {
  target.child.kill()
  await target.kms.close()
  rmSync(target.keysDir, { recursive: true, force: true })
}

/** What target.ts --cost adds up between two reads of the counts. */
export interface Usage {
  readUnits: number
  writeUnits: number
  indexWriteUnits: number
  rateWriteUnits: number
  readBytes: number
  writtenBytes: number
  largestWritten: number
  failedWrites: number[]
  logBytes: number
  logLines: number
  handlerMs: number[]
  byKey?: Record<string, { items: number; units: number; largest: number }>
}

/** The target's counts since the last read (and resets them). */
export const dynamoCalls = async (target: Target) =>
  (await (await fetch(target.control)).json()) as {
    calls: Record<string, number>
    roundTrips: number
    usage?: Usage
  }
/** Starts, waits for or stops the target's webhook consumers (target.ts: the control's /workers/...). */
export async function targetWorkers(target: Target, action: 'start' | 'drained' | 'stop'): Promise<void> {
  const reply = await fetch(`${target.control}/workers/${action}`, { method: 'POST' })
  if (reply.status !== 204) throw new Error(`the target's workers (${action}): ${await reply.text()}`)
}
export const kmsTotal = (target: Target) => Object.values(target.kms.calls).reduce((a, b) => a + b, 0)

export const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!
}
export const median = (values: number[]) => quantile(values, 0.5)

// ---- Clients and requests ----

export const areaA = (url: string, which: 'si' | 'app' | 'buyer' | 'admin') =>
  new ApiClient(url, { area: 'A', credentials: DEV.clients[which] })
export const switchClient = (url: string) =>
  new ApiClient(url, { area: 'B', credentials: { token: DEV.switch.token, secret: DEV.switch.secret } })
export const merchantClient = (url: string) =>
  new ApiClient(url, {
    area: 'bearer',
    token: DEV.merchants[0].token,
    headers: { 'x-merchant-id': DEV.merchants[0].merchantId },
  })
export const notifyAdmin = (url: string) =>
  new ApiClient(url, { area: 'bearer', token: DEV.notifyAdmin.token })
export const id = (prefix: string) => `${prefix}-${randomUUID()}`
export const transferBody = () => ({
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
export const irnRequest = () => ({
  invoice_number: invoiceNumber(),
  service_id: DEV.supplier.serviceId,
  business_id: DEV.supplier.businessId,
  issuance_date: '20261121',
})

/** One request a bench sends, with the work before it (not timed, not counted). */
export interface BenchRequest {
  prepare?: (url: string) => Promise<unknown>
  request: (url: string, prepared: unknown) => Promise<{ status: number }>
  expect: number
}

/** Signs one invoice (10 lines, notes) and returns its IRN. */
export async function signedInvoice(url: string): Promise<string> {
  const irn = newIrn()
  const signed = await areaA(url, 'app').post('/api/v1/app/invoice/sign', buildInvoice({ irn }))
  if (signed.status !== 200) throw new Error(`sign answered ${signed.status}`)
  return irn
}

/** Invoices transmitted to the buyer so far, per target (the pull's preparation). */
const inboxed = new Map<string, number>()

/** The requests both benches send, by what they are. */
export const REQUESTS = {
  states: { expect: 200, request: (url) => areaA(url, 'si').get('/api/v1/resource/states') },
  merchantTransactions: {
    expect: 200,
    request: (url) => merchantClient(url).get('/api/v1/merchant/transactions?size=50'),
  },
  siValidate: {
    expect: 200,
    request: (url) => areaA(url, 'si').post('/api/v1/si/validate', buildInvoice({ irn: newIrn() })),
  },
  appSign: {
    expect: 200,
    request: (url) => areaA(url, 'app').post('/api/v1/app/invoice/sign', buildInvoice({ irn: newIrn() })),
  },
  // The authority's path to the same endpoint (CONTRACT 17): its rules and reply shape are chosen at
  // the edge, so it costs what the seed's sign costs.
  authoritySign: {
    expect: 200,
    request: (url) => areaA(url, 'app').post('/api/v1/invoice/sign', buildInvoice({ irn: newIrn() })),
  },
  generateIrn: {
    expect: 200,
    request: (url) => areaA(url, 'si').post('/api/v1/si/generate-irn', irnRequest()),
  },
  generateQr: {
    expect: 200,
    request: (url) => areaA(url, 'si').post('/api/v1/si/generate-qr-code', irnRequest()),
  },
  // The buyer's inbox (CONTRACT 17): each round first signs and transmits one more invoice to the
  // buyer, so every counted page is full with a next page: one Query of size + 1 = 6 items.
  pull: {
    expect: 200,
    prepare: async (url) => {
      // The first round fills a page and its next item; each later one adds one.
      const have = inboxed.get(url) ?? 0
      const wanted = Math.max(have + 1, 6)
      for (let n = have; n < wanted; n++) {
        const irn = await signedInvoice(url)
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
  transfer: {
    expect: 200,
    request: (url) => switchClient(url).post('/api/v1/transactions/transfer', transferBody()),
  },
  reversal: {
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
  statusQuery: {
    expect: 200,
    prepare: async (url) => {
      const original = transferBody()
      const reply = await switchClient(url).post('/api/v1/transactions/transfer', original)
      if (reply.status !== 200) throw new Error(`status query's transfer answered ${reply.status}`)
      return original
    },
    request: (url, prepared) =>
      switchClient(url).post('/api/v1/transactions/status-query', {
        requestId: (prepared as ReturnType<typeof transferBody>).requestId,
      }),
  },
  nameEnquiry: {
    expect: 200,
    request: (url) =>
      switchClient(url).post('/api/v1/transactions/name-enquiry', {
        requestId: id('NE'),
        accountNumber: '0987654321',
      }),
  },
  balance: {
    expect: 200,
    request: (url) =>
      switchClient(url).post('/api/v1/transactions/balance-enquiry', {
        requestId: id('BAL'),
        stan: '000001',
        processingCode: '310000',
        accountNumber: '0987654321',
      }),
  },
} satisfies Record<string, BenchRequest>
