/**
 * `npm run soak -- --minutes N`: the local server (`npm start`'s scripts/local-server.ts, its workers
 * in-process) under mixed load for N minutes while DynamoDB Local is stopped and started again (on
 * its data folder) and the server is killed (SIGKILL) and restarted, and the webhook receiver
 * answers 500 to 30 % of the deliveries. Then the load stops, everything left is given time to
 * finish, and the invariants of the simulation (scripts/sim/invariants.ts) are checked on the table.
 * Prints its figures as one JSON line; exits 1 on any violation (docs/operations.md).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ApiClient, type ClientReply } from '#client/api-client.ts'
import { DEV } from './local/dev-credentials.ts'
import { freePort, startDynamoDbLocal } from './local/dynamodb-local.ts'
import { buildInvoice } from '../test/fixtures/invoices/build.ts'

const arg = (name: string) => {
  const at = process.argv.indexOf(`--${name}`)
  return at >= 0 ? process.argv[at + 1] : undefined
}
const minutes = Number(arg('minutes') ?? 10)
const dataDir = mkdtempSync(join(tmpdir(), 'soak-'))
const dynamoPort = await freePort()
const serverPort = await freePort()
const tableName = `soak-${Date.now()}`
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const log = (line: string) => console.error(`${new Date().toISOString()} ${line}`)

process.env.TABLE_NAME = tableName
process.env.DYNAMODB_ENDPOINT = `http://127.0.0.1:${dynamoPort}`
process.env.STAGE = 'local'
process.env.AWS_REGION ??= 'eu-west-1'
process.env.LOG_LEVEL ??= 'SILENT'
process.env.POWERTOOLS_METRICS_DISABLED = 'true'

const received = new Map<string, number>()
let answered = { ok: 0, failed: 0 }
const receiver = createServer((req, res) => {
  req.resume()
  req.on('end', () => {
    const fail = Math.random() < 0.3
    const id = String(req.headers['webhook-id'] ?? '')
    if (!fail) received.set(id, (received.get(id) ?? 0) + 1)
    answered = fail ? { ...answered, failed: answered.failed + 1 } : { ...answered, ok: answered.ok + 1 }
    res.writeHead(fail ? 500 : 204).end()
  })
})
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`

let dynamo = await startDynamoDbLocal({ dataDir, port: dynamoPort, heapMb: 768 })
let server: ChildProcess | undefined
const serverFile = join(dataDir, 'server.json')
async function startServer(): Promise<void> {
  server = spawn('npx', ['tsx', 'scripts/local-server.ts'], {
    cwd: new URL('../', import.meta.url).pathname,
    detached: true,
    stdio: 'ignore',
    env: {
      ...process.env,
      PORT: String(serverPort),
      LOCAL_SERVER_FILE: serverFile,
      WEBHOOK_RETRY_SCHEDULE: '2s,5s,10s,20s,30s,60s,60s',
      WEBHOOK_OVERDUE_SECONDS: '60',
      LOCAL_SCHEDULE_SECONDS: '20',
    },
  })
  const url = `http://127.0.0.1:${serverPort}/api/v1/health-check`
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(url)).status < 600) return
    } catch {}
    await sleep(500)
  }
  throw new Error('the local server did not come up within 5 minutes')
}
function killServer(): void {
  if (server?.pid) process.kill(-server.pid, 'SIGKILL')
  server = undefined
}

const base = `http://127.0.0.1:${serverPort}`
const clients = {
  switch: new ApiClient(base, {
    area: 'B',
    credentials: { token: DEV.switch.token, secret: DEV.switch.secret },
  }),
  app: new ApiClient(base, { area: 'A', credentials: DEV.clients.app }),
  admin: new ApiClient(base, { area: 'A', credentials: DEV.clients.admin }),
}
const figures = {
  requests: 0,
  unavailable: 0,
  refusedConnections: 0,
  fiveHundreds: 0,
  dynamoStops: 0,
  serverKills: 0,
}
const { checkInvariants } = await import('./sim/invariants.ts')
type Model = Parameters<typeof checkInvariants>[0]
const model: Model = {
  accounts: new Map(),
  transfers: new Map(),
  reversals: [],
  sessions: new Map(),
  neverReceived: [],
  sessionReuses: [],
  invoices: [],
  tills: [],
  subscriptions: [],
  violations: [],
}

/** Sends until answered (503s and refused connections while things restart are sent again). */
async function until<T>(
  label: string,
  send: () => Promise<ClientReply<T>>,
): Promise<ClientReply<T> | undefined> {
  for (let i = 0; i < 600; i++) {
    try {
      const reply = await send()
      figures.requests++
      if (reply.status === 503 || reply.status === 429) {
        figures.unavailable++
        if (reply.status === 503 && !reply.headers.get('retry-after'))
          model.violations.push(`${label}: 503 without Retry-After`)
        await sleep(500)
        continue
      }
      if (reply.status >= 500) {
        figures.fiveHundreds++
        model.violations.push(`${label}: ${reply.status} ${reply.text.slice(0, 200)}`)
      }
      return reply
    } catch {
      figures.refusedConnections++
      await sleep(500)
    }
  }
  return undefined
}

try {
  await startServer()
  log('server up')
  const { openAccount } = await import('#lib/ledger/repository.ts')
  const accounts = ['5200000001', '5200000002']
  for (const accountNumber of accounts) {
    const { account } = await openAccount({
      accountNumber,
      name: `Soak ${accountNumber}`,
      balanceKobo: 500_000_000,
    })
    model.accounts.set(accountNumber, account.balanceKobo)
  }
  const sub = await until('subscribe', () =>
    clients.admin.post<{ data: { id: string; created_at: string } }>('/api/v1/webhooks', {
      url: receiverUrl,
      events: ['invoice.signed'],
    }),
  )
  if (sub?.status === 201)
    model.subscriptions.push({ id: sub.body.data.id, createdAt: sub.body.data.created_at })

  const end = Date.now() + minutes * 60_000
  let faults = true
  // The faults: every 60-90 s either DynamoDB Local stops for 9-20 s or the server is killed.
  const chaos = (async () => {
    let n = 0
    while (faults && Date.now() < end - 30_000) {
      await sleep(60_000 + Math.random() * 30_000)
      if (!faults) break
      if (n++ % 2 === 0) {
        log('stopping DynamoDB Local')
        figures.dynamoStops++
        await dynamo.stop()
        await sleep(9_000 + Math.random() * 11_000)
        dynamo = await startDynamoDbLocal({ dataDir, port: dynamoPort, heapMb: 768 })
        log('DynamoDB Local back')
      } else {
        log('killing the server')
        figures.serverKills++
        killServer()
        await startServer()
        log('server back')
      }
    }
  })()
  let i = 0
  const worker = async () => {
    while (Date.now() < end) {
      i++
      const r = Math.random()
      if (r < 0.5) {
        const body = {
          requestId: `SOAK-${randomUUID()}`,
          stan: '123456',
          processingCode: '400000',
          merchantId: 'MRC0001',
          merchantReference: `ORD-${i}`,
          accountNumber: accounts[i % 2]!,
          amount: 1 + Math.floor(Math.random() * 10000) / 100,
          currency: 'NGN',
          productCode: 'AIRTIME',
        }
        const reply = await until<{ responseCode?: string }>('transfer', () =>
          clients.switch.post('/api/v1/transactions/transfer', body),
        )
        if (!reply) continue
        model.transfers.set(body.requestId, {
          accountNumber: body.accountNumber,
          amountKobo: Math.round(body.amount * 100),
          body,
          status: reply.status,
          reply: reply.text,
          succeeded: reply.status === 200 && reply.body?.responseCode === '00',
          reversals: 0,
        })
      } else if (r < 0.6) {
        const done = [...model.transfers.values()].filter((t) => t.succeeded && !t.reversals)
        const original = done[Math.floor(Math.random() * done.length)]
        if (!original) continue
        const body = {
          requestId: `SOAKREV-${randomUUID()}`,
          stan: '123456',
          processingCode: '400000',
          originalRequestId: original.body.requestId,
        }
        const reply = await until<{ responseCode?: string }>('reversal', () =>
          clients.switch.post('/api/v1/transactions/reversal', body),
        )
        if (reply?.status === 200 && reply.body?.responseCode === '00') {
          original.reversals++
          model.reversals.push({ requestId: body.requestId, original: original.body.requestId })
        }
      } else {
        const irn = `INV${randomUUID().replaceAll('-', '').slice(0, 12).toUpperCase()}-${DEV.supplier.serviceId}-20261125`
        const reply = await until('sign', () =>
          clients.app.post('/api/v1/app/invoice/sign', buildInvoice({ irn })),
        )
        if (reply?.status === 200) model.invoices.push(irn)
      }
    }
  }
  await Promise.all([worker(), worker(), worker(), worker()])
  faults = false
  await chaos
  log('load stopped; waiting for deliveries, retries and the overdue sweep')
  const { checkInvariants: check } = await import('./sim/invariants.ts')
  let result = await check(model, { received, now: Date.now() })
  for (let wait = 0; wait < 20 && result.violations.length; wait++) {
    await sleep(15_000)
    result = await check(model, { received, now: Date.now() })
  }
  const violations = [...model.violations, ...result.violations]
  console.log(
    JSON.stringify({
      minutes,
      ...figures,
      transfers: model.transfers.size,
      reversals: model.reversals.length,
      invoices: model.invoices.length,
      webhookAnswers: answered,
      invariantsChecked: result.checked,
      violations: violations.length,
    }),
  )
  for (const v of violations.slice(0, 20)) console.error(`  - ${v}`)
  process.exitCode = violations.length ? 1 : 0
} finally {
  killServer()
  await dynamo.stop()
  receiver.close()
  rmSync(dataDir, { recursive: true, force: true })
}
process.exit()
