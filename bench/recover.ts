/**
 * bench/recover: what a webhook recovery and the events API cost, locally (issue 35, CONTRACT 21).
 *   npx tsx bench/recover.ts           (or: npm run bench:recover; EVENTS=10000 by default)
 * Starts its own DynamoDB Local (behind a counting proxy, test/support/dynamo-read-meter.ts), the
 * local API and its consumers (the same handler modules Lambda runs, on in-process queues), and a
 * receiver that answers 204. A subscription to invoice.signed is DISABLED while EVENTS events of its
 * business are stored (so none is delivered: the fan-out skips it), then enabled, then recovered from
 * before the first. Prints:
 *  1. the time from POST .../recover to the task's COMPLETED, and to the receiver holding every event
 *     once (each with its original webhook-id: its event's id), and the delivery rate;
 *  2. the items DynamoDB read for one GET /api/v1/events page (size 50), first and deep, with and
 *     without a type filter: a page reads its own items and one more.
 * CONTRACT 21 asks for 10,000 events recovered within 5 minutes locally.
 */
import { createServer } from 'node:http'
import { cpus, loadavg } from 'node:os'
import type { AddressInfo } from 'node:net'
import { UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { ApiClient } from '#client/api-client.ts'
import { DEV } from '../scripts/local/dev-credentials.ts'
import { startDynamoDbLocal } from '../scripts/local/dynamodb-local.ts'
import { ensureTable } from '../scripts/local/table.ts'
import { startReadMeter } from '../test/support/dynamo-read-meter.ts'

const EVENTS = Number(process.env.EVENTS ?? 10_000)
const TABLE = 'bench-recover'
const dynamo = await startDynamoDbLocal({ heapMb: 1024 })
const meter = await startReadMeter(dynamo.endpoint, 'EVENTS#')
process.env.TABLE_NAME = TABLE
process.env.DYNAMODB_ENDPOINT = meter.endpoint
process.env.STAGE = 'local'
process.env.AWS_REGION ??= 'eu-west-1'
process.env.LOG_LEVEL = 'SILENT'
process.env.POWERTOOLS_METRICS_DISABLED = 'true'
await ensureTable(dynamo.endpoint, TABLE)
const { seedLocal } = await import('../scripts/local/seed.ts')
await seedLocal()
const { startServer } = await import('../scripts/local/server.ts')
const { startWorkers } = await import('../scripts/local/workers.ts')
const { db, tableName } = await import('#lib/platform/db/client.ts')
const { keys } = await import('#lib/platform/db/keys.ts')
const { putAll } = await import('#lib/platform/db/batch.ts')
const { eventPut, newEvent } = await import('#lib/events/event.ts')
const server = await startServer(0)
const workers = await startWorkers({ endpoint: dynamo.endpoint, tableName: TABLE })

const received = new Map<string, number>()
const receiver = createServer((req, res) => {
  const id = String(req.headers['webhook-id'])
  received.set(id, (received.get(id) ?? 0) + 1)
  req.resume()
  req.on('end', () => res.writeHead(204).end())
})
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
const admin = new ApiClient(server.url, { area: 'A', credentials: DEV.clients.admin })
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms))

const created = await admin.post<any>('/api/v1/webhooks', { url: hookUrl, events: ['invoice.signed'] })
const id = created.body.data.id as string
const businessId = DEV.supplier.businessId
const setStatus = (status: string) =>
  db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.webhookSubscription(businessId, id),
      UpdateExpression: 'SET #status = :status, failingSince = :since',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':status': status, ':since': new Date().toISOString() },
    }),
  )

// 1. EVENTS events the subscription missed while DISABLED.
await setStatus('DISABLED')
const since = new Date(Date.now() + 1000).toISOString()
const start = Date.parse(since)
const events = Array.from({ length: EVENTS }, (_, i) => {
  const at = new Date(start + i).toISOString()
  const event = newEvent(
    'invoice.signed',
    businessId,
    {
      irn: `BENCH${i}-94ND90NR-20261125`,
      status: 'SIGNED',
      payment_status: 'PENDING',
      sequence: 2,
      signed_at: at,
    },
    at,
  )
  return event
})
const phase = performance.now()
await putAll(events.map((event) => eventPut(event).Put.Item))
console.error(
  `stored ${EVENTS} events in ${((performance.now() - phase) / 1000).toFixed(1)} s; the fan-out skips them`,
)
await workers.drained(1_800_000)
console.error(`fan-out drained after ${((performance.now() - phase) / 1000).toFixed(1)} s; recovering`)
if (received.size) throw new Error('an event reached the disabled subscription')
const enabled = await admin.post<any>(`/api/v1/webhooks/${id}/enable`, {})
if (enabled.body.data?.status !== 'ACTIVE') throw new Error(`enable: ${JSON.stringify(enabled.body)}`)

const t0 = performance.now()
const task = await admin.post<any>(`/api/v1/webhooks/${id}/recover`, { since })
if (task.status !== 202) throw new Error(`recover: ${task.status} ${JSON.stringify(task.body)}`)
let completedMs = 0
let state: any
// Progress every 30 s on stderr: the rate of a run that cannot finish (a loaded machine) is still read.
let reported = 0
for (;;) {
  if (performance.now() - t0 >= reported + 30_000) {
    reported += 30_000
    console.error(`${reported / 1000} s: ${received.size} delivered, task ${state?.state ?? '?'}`)
  }
  if (!completedMs) {
    const reply = await admin.get<any>(`/api/v1/webhooks/${id}/recover/${task.body.data.id}`)
    // A refusal (a 503 while DynamoDB Local is busy) is asked again, never read as the task.
    if (reply.status === 200) state = reply.body.data
    else console.error(`recovery task: ${reply.status} ${JSON.stringify(reply.body).slice(0, 200)}`)
    if (state?.state === 'COMPLETED') completedMs = performance.now() - t0
  }
  if (completedMs && received.size >= EVENTS) break
  if (performance.now() - t0 > 15 * 60_000) break
  await wait(200)
}
const deliveredMs = performance.now() - t0
const twice = [...received.values()].filter((n) => n > 1).length
// Each with its original webhook-id: the id of the event it carries, the one a receiver deduplicates by.
const original = events.filter((e) => received.has(e.id)).length

console.log(`recovery of ${EVENTS} events (one subscription, one receiver answering 204)`)
console.log(
  `  task COMPLETED after ${(completedMs / 1000).toFixed(1)} s  (scanned ${state?.events_scanned}, queued ${state?.queued})`,
)
console.log(
  `  ${received.size >= EVENTS ? 'every event delivered' : 'stopped, not all delivered,'} after ${(deliveredMs / 1000).toFixed(1)} s  (${received.size} distinct webhook-ids, ${original} of them the events' original ids, ${twice} received twice)`,
)
console.log(
  `  ${(received.size / (deliveredMs / 1000)).toFixed(1)} events a second; load average at the end ${loadavg()
    .map((n) => n.toFixed(2))
    .join(', ')} (${cpus().length} cores)`,
)

// 2. Items read per events page.
await workers.drained(600_000)
const pageReads = async (query: string) => {
  meter.reset()
  const reply = await admin.get<any>(`/api/v1/events?${query}`)
  return { reads: meter.itemsRead, next: reply.body.data.page.next_cursor as string | null }
}
const first = await pageReads('size=50')
let deep = first
let deepNumber = 1
while (deep.next && deepNumber < 100) {
  deep = await pageReads(`size=50&cursor=${deep.next}`)
  deepNumber++
}
const typed = await pageReads(`size=50&type=invoice.signed&since=${since}`)

console.log('GET /api/v1/events, size 50: items DynamoDB read per page')
console.log(
  `  first page ${first.reads}   page ${deepNumber} (by cursor) ${deep.reads}   type + since filter ${typed.reads}`,
)

await workers.stop()
await server.close()
receiver.close()
await meter.close()
await dynamo.stop()
process.exit(0)
