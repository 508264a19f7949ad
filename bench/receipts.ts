/**
 * bench/receipts: a business's tills reporting a day of B2C receipts (issue 44, CONTRACT 23).
 *   npx tsx bench/receipts.ts       (RECEIPTS=100000 DEVICES=100 BATCH=450 CONCURRENCY=2 SEED=2026 RESENDS=3)
 * Starts its own DynamoDB Local and the local API with its consumers (as bench/events.ts does),
 * registers DEVICES tills of the dev business, signs RECEIPTS receipts across them with the faults
 * of test/support/receipt-faults.ts (gaps, forks, duplicates, late receipts: the plan records which),
 * and reports them in batches of BATCH, CONCURRENCY batches in flight; a batch whose reply fails (a 5xx:
 * the local gateway cuts a report at 29 s) is resent with the same bytes, as a till resends. Prints:
 *  1. receipts per second over the whole run, and the reply time of a batch (p50, p95, max);
 *  2. the time from the reply that carried a device's last receipt until its chain answers it
 *     (GET /api/v1/devices/{id}/chain, polled every 100 ms): p50 and max over the devices;
 *  3. every injected fault found or missed: each chain against the plan (gaps with their overdue
 *     flag, forks, late count, verified_through) and the results by status against the plan's totals.
 * Exits 1 when a fault is missed or a receipt is reported twice.
 */
import { ApiClient } from '#client/api-client.ts'
import { DEV } from '../scripts/local/dev-credentials.ts'
import { startDynamoDbLocal } from '../scripts/local/dynamodb-local.ts'
import { ensureTable } from '../scripts/local/table.ts'
import { chainMismatches, countResults, planFaultDay } from '../test/support/receipt-faults.ts'
import { hashOf, registerTill } from '../test/support/receipts.ts'

const RECEIPTS = Number(process.env.RECEIPTS ?? 100_000)
const DEVICES = Number(process.env.DEVICES ?? 100)
// 450: what fits the 1 MiB body at about 2.1 KB a receipt (CONTRACT 23: at most 1,000 or the body
// limit); 1,000 of these receipts are refused whole with 413.
const BATCH = Number(process.env.BATCH ?? 450)
// 2: every function of the local server shares this machine's cores (2 here); more batches in flight
// only stretch each reply towards the gateway's 29 s. In AWS each batch has a function of its own.
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 2)
const SEED = Number(process.env.SEED ?? 2026)
/** Resends of a batch whose reply failed before it counts as failed. */
const RESENDS = Number(process.env.RESENDS ?? 3)
const TABLE = 'bench-receipts'

const dynamo = await startDynamoDbLocal({ heapMb: 1024 })
process.env.TABLE_NAME = TABLE
process.env.DYNAMODB_ENDPOINT = dynamo.endpoint
process.env.STAGE = 'local'
process.env.AWS_REGION ??= 'eu-west-1'
process.env.LOG_LEVEL = 'SILENT'
process.env.POWERTOOLS_METRICS_DISABLED = 'true'
await ensureTable(dynamo.endpoint, TABLE)
const { seedLocal } = await import('../scripts/local/seed.ts')
await seedLocal()
const { startServer } = await import('../scripts/local/server.ts')
const { startWorkers } = await import('../scripts/local/workers.ts')
const server = await startServer(0)
const workers = await startWorkers({ endpoint: dynamo.endpoint, tableName: TABLE })

const client = (c: { apiKey: string; secret: string }) =>
  new ApiClient(server.url, { area: 'A', credentials: c })
const admin = client(DEV.clients.admin)
const si = client(DEV.clients.si)
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms))
const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] ?? Number.NaN

const tills = []
for (let i = 0; i < DEVICES; i++)
  tills.push((await registerTill(admin, i % 2 ? 'P-256' : 'Ed25519', `Till ${i + 1}`)).till)
const signStart = performance.now()
const plan = planFaultDay(tills, {
  perDevice: Math.floor(RECEIPTS / DEVICES),
  batchSize: BATCH,
  now: Date.now(),
  seed: SEED,
})
const signMs = performance.now() - signStart
console.log(
  `${plan.totals.sent} receipts to send from ${DEVICES} devices in ${plan.batches.length} batches (signed in ${(signMs / 1000).toFixed(1)} s): ` +
    `${plan.totals.gaps} gaps, ${plan.totals.forks} forks, ${plan.totals.duplicates} duplicates, ${plan.totals.late} late`,
)

// Where each receipt first occurs in the plan: its other occurrences are the planned duplicates.
const firstOccurrence = new Map<string, string>()
for (const [b, batch] of plan.batches.entries())
  for (const [i, receipt] of batch.entries()) {
    const hash = hashOf(receipt)
    if (!firstOccurrence.has(hash)) firstOccurrence.set(hash, `${b}:${i}`)
  }
/**
 * The results of a resent batch as its first send would have had them: a receipt stored by the cut
 * attempt answers DUPLICATE with its first result, which is what counts where the plan sends it first.
 */
const asFirstSent = (b: number, data: any[]) =>
  data.map((r, i) =>
    r.status === 'DUPLICATE' && r.first && firstOccurrence.get(r.hash) === `${b}:${i}`
      ? { ...r.first, hash: r.hash }
      : r,
  )

// 1. The reports, CONCURRENCY batches in flight, in the plan's order.
const results: { status: string; late?: boolean; hash: string }[][] = new Array(plan.batches.length)
const replyMs: number[] = []
const lastReplyOf = new Map<string, number>()
let next = 0
let failures = 0
let resent = 0
const start = performance.now()
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next < plan.batches.length) {
      const index = next++
      const batch = plan.batches[index]!
      let reply: Awaited<ReturnType<typeof si.post<any>>> | undefined
      let at = 0
      // A reply that did not come (a 5xx: the report cut at the gateway's 29 s) is resent with the
      // same bytes, as a till's ReceiptChain.report() resends: what was stored answers DUPLICATE.
      let attempt = 0
      for (; attempt <= RESENDS && reply?.status !== 200; attempt++) {
        if (attempt > 0) resent++
        const sent = performance.now()
        reply = await si.post<any>('/api/v1/receipts', { receipts: batch })
        at = performance.now()
        replyMs.push(at - sent)
        if (reply.status !== 200)
          console.error(`batch ${index}, attempt ${attempt + 1}: ${reply.status} ${reply.text.slice(0, 120)}`)
      }
      if (reply?.status !== 200) {
        failures++
        continue
      }
      results[index] = attempt > 1 ? asFirstSent(index, reply.body.data) : reply.body.data
      for (const receipt of batch) lastReplyOf.set(receipt.device.device_id, at)
    }
  }),
)
const totalMs = performance.now() - start

// 2. Until each chain is current: its last counter answered as the plan's.
const currentMs: number[] = []
const chains = new Map<string, Record<string, any>>()
await Promise.all(
  plan.devices.map(async (device) => {
    for (;;) {
      const chain = (await admin.get<any>(`/api/v1/devices/${device.deviceId}/chain`)).body.data
      if (chain?.last_counter === device.lastCounter || performance.now() - start > totalMs + 60_000) {
        currentMs.push(Math.max(0, performance.now() - (lastReplyOf.get(device.deviceId) ?? start)))
        chains.set(device.deviceId, chain)
        return
      }
      await wait(100)
    }
  }),
)

// 3. Every fault found?
const counted = countResults(results.flat().filter(Boolean))
const mismatches = plan.devices.flatMap((d) =>
  chainMismatches(d, chains.get(d.deviceId) ?? {}).map((m) => `${d.deviceId}: ${m}`),
)
const reportedHashes = results
  .flat()
  .filter((r) => r?.status === 'REPORTED')
  .map((r) => r.hash)
const reportedTwice = reportedHashes.length - new Set(reportedHashes).size
const expectedCounts = {
  REPORTED: plan.totals.reported,
  DUPLICATE: plan.totals.duplicates,
  FORK: plan.totals.forks,
  REJECTED: 0,
  late: plan.totals.late,
}
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`
console.log(
  `\nreceipts/s: ${Math.round((plan.totals.sent / totalMs) * 1000)} (${plan.totals.sent} in ${s(totalMs)}, ${CONCURRENCY} batches in flight)`,
)
console.log(
  `batch of ${BATCH} reply: p50 ${s(percentile(replyMs, 50))}, p95 ${s(percentile(replyMs, 95))}, max ${s(Math.max(...replyMs))}`,
)
console.log(
  `chain current after the device's last reply: p50 ${s(percentile(currentMs, 50))}, max ${s(Math.max(...currentMs))}`,
)
console.log(`results: ${JSON.stringify(counted)}; the plan: ${JSON.stringify(expectedCounts)}`)
console.log(
  `faults: gaps ${plan.totals.gaps}, forks ${plan.totals.forks}, duplicates ${plan.totals.duplicates}, late ${plan.totals.late}; ` +
    `chains that differ from the plan: ${new Set(mismatches.map((m) => m.split(':')[0])).size}, reported twice: ${reportedTwice}, failed batches: ${failures}, resends: ${resent}`,
)
for (const m of mismatches.slice(0, 20)) console.log(`  ${m}`)
const missed =
  mismatches.length +
  reportedTwice +
  failures +
  (JSON.stringify(counted) === JSON.stringify(expectedCounts) ? 0 : 1)
console.log(missed ? `MISSED: ${missed}` : '0 missed')

await workers.stop()
await server.close()
await dynamo.stop()
process.exit(missed ? 1 : 0)
