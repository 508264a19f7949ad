/**
 * bench/events: what the events and batches cost, locally, in one run (issue 14).
 *   npx tsx bench/events.ts            (or: npm run bench:events)
 * Starts its own DynamoDB Local, the local API and its consumers (scripts/local/workers.ts: the
 * same handler modules Lambda runs, fed from DynamoDB Local's stream and in-process queues), and a
 * receiving HTTP server subscribed to invoice.signed. Prints:
 *  1. the latency from a state change (the event's created_at, written in the change's transaction)
 *     to the receiver's arrival, over ROUNDS sequential signs: p50 and p99;
 *  2. a batch of 100 signs (POST to COMPLETED, polled) against 100 sequential single signs over HTTP,
 *     and their time ratio.
 * Locally the stream is polled every 100 ms, which bounds the first figure from below; in AWS the
 * event source mapping's poll (about 4 per second per shard) and SQS take its place.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ApiClient } from '#client/api-client.ts'
import { buildInvoice } from '../test/fixtures/invoices/build.ts'
import { DEV } from '../scripts/local/dev-credentials.ts'
import { startDynamoDbLocal } from '../scripts/local/dynamodb-local.ts'
import { ensureTable } from '../scripts/local/table.ts'

const ROUNDS = Number(process.env.ROUNDS ?? 60)
const dynamo = await startDynamoDbLocal({ heapMb: 512 })
process.env.TABLE_NAME = 'bench-events'
process.env.DYNAMODB_ENDPOINT = dynamo.endpoint
process.env.STAGE = 'local'
process.env.AWS_REGION ??= 'eu-west-1'
process.env.LOG_LEVEL = 'SILENT'
// The handlers' EMF metric lines would bury the figures.
process.env.POWERTOOLS_METRICS_DISABLED = 'true'
await ensureTable(dynamo.endpoint, 'bench-events')
const { seedLocal } = await import('../scripts/local/seed.ts')
await seedLocal()
const { startServer } = await import('../scripts/local/server.ts')
const { startWorkers } = await import('../scripts/local/workers.ts')
const server = await startServer(0)
const workers = await startWorkers({ endpoint: dynamo.endpoint, tableName: 'bench-events' })

const arrivals = new Map<string, number>()
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = []
  req.on('data', (c: Buffer) => chunks.push(c))
  req.on('end', () => {
    const event = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    arrivals.set(event.data.irn, Date.now() - Date.parse(event.created_at))
    res.writeHead(204).end()
  })
})
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`

const client = (c: { apiKey: string; secret: string }) =>
  new ApiClient(server.url, { area: 'A', credentials: c })
const admin = client(DEV.clients.admin)
const app = client(DEV.clients.app)
await admin.post('/api/v1/webhooks', { url: hookUrl, events: ['invoice.signed'] })

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms))

// 1. State change -> receiver.
const irns: string[] = []
for (let i = 0; i < ROUNDS; i++) {
  const invoice = buildInvoice()
  irns.push(invoice.irn)
  await app.post('/api/v1/app/invoice/sign', invoice)
  await wait(50)
}
const until = Date.now() + 60_000
while (irns.some((irn) => !arrivals.has(irn)) && Date.now() < until) await wait(50)
const latencies = irns.map((irn) => arrivals.get(irn)).filter((x): x is number => x !== undefined)

// 2. A batch of 100 against 100 single signs, one after the other in the same run.
const batchInvoices = Array.from({ length: 100 }, () => buildInvoice())
const singleInvoices = Array.from({ length: 100 }, () => buildInvoice())
const batchStart = performance.now()
const accepted = await app.post<{ batch_id: string }>('/api/v1/app/invoice/batch', {
  action: 'sign',
  invoices: batchInvoices,
})
for (;;) {
  const status = await app.get<{ status: string; succeeded: number }>(
    `/api/v1/app/invoice/batch/${accepted.body.batch_id}`,
  )
  if (status.body.status === 'COMPLETED') break
  await wait(50)
}
const batchMs = performance.now() - batchStart
const singleStart = performance.now()
for (const invoice of singleInvoices) await app.post('/api/v1/app/invoice/sign', invoice)
const singleMs = performance.now() - singleStart

console.log(`events: state change -> receiver, ${latencies.length}/${ROUNDS} delivered`)
console.log(
  `  p50 ${percentile(latencies, 50)} ms   p99 ${percentile(latencies, 99)} ms   max ${Math.max(...latencies)} ms`,
)
console.log('batches: 100 signs')
console.log(
  `  one batch (POST -> COMPLETED)   ${Math.round(batchMs)} ms  (${(batchMs / 100).toFixed(1)} ms per invoice)`,
)
console.log(
  `  100 sequential single signs     ${Math.round(singleMs)} ms  (${(singleMs / 100).toFixed(1)} ms per invoice)`,
)
console.log(`  ratio batch / sequential        ${(batchMs / singleMs).toFixed(2)}`)

await workers.stop()
await server.close()
receiver.close()
await dynamo.stop()
process.exit(0)
