import { writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams'
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb'
import type { DynamoDBRecord } from 'aws-lambda'
import { ApiClient } from '#client/api-client.ts'
import { useLocalQueues } from '#lib/platform/async/queue.ts'
import { db } from '#lib/platform/db/client.ts'
import { localDynamoConfig } from '#lib/platform/db/local.ts'
import { consumers, type QueueConsumer } from '#lib/service/consumers.ts'
import { DEV } from '../local/dev-credentials.ts'
import { lambdaContext, loadConsumer, localStreamConsumers } from '../local/consumers.ts'
import { asFunction, installLocalIam } from '../local/iam.ts'
import type { StreamConsumer } from '../local/stream-drive.ts'
import { seeded } from '../local/seeded-random.ts'
import { type FaultCounts, type FaultRates, injectFaults, installFakeClock } from './faults.ts'
import { checkInvariants, type Model } from './invariants.ts'
import { type Workload, workload } from './workload.ts'

/**
 * The seeded fault simulation (CONTRACT section 19, `npm run sim`): the real handler modules, the
 * API's behind the local server in this process and the consumers' called here, driven by a random
 * workload of transfers, reversals, balance enquiries, signed invoices and webhook subscriptions,
 * one operation at a time, while DynamoDB calls fail (scripts/sim/faults.ts), stream records arrive
 * twice, late or to a consumer killed mid-batch, queue messages arrive twice, late or to a worker
 * killed after its work, and a fake clock runs the retry schedules and claims out. Every decision is
 * the seed's, so a failing seed replays the same operations, faults and deliveries. At the end, with
 * the faults off, everything left is drained and the invariants are checked (scripts/sim/invariants.ts).
 */
export interface SimOptions {
  seed: number
  ops: number
  endpoint: string
  tableName: string
  rates?: Partial<FaultRates>
  /** Progress lines (every 10 % of the run), for long runs. */
  progress?: (line: string) => void
}

export interface SimReport {
  seed: number
  ops: number
  seconds: number
  opsPerSecond: number
  faults: FaultCounts & {
    streamDuplicates: number
    streamLate: number
    streamKilled: number
    queueDuplicates: number
    queueLate: number
    queueKilled: number
    clockAdvances: number
  }
  requests: { total: number; unavailable: number; tooMany: number }
  counts: Record<string, number>
  invariantsChecked: number
  violations: string[]
  /** A digest of every decision and outcome of the run: the same seed gives the same trace. */
  trace: string
}

const DEFAULT_RATES: FaultRates = {
  throttling: 0.02,
  transactionCanceled: 0.05,
  timeoutAfterCommit: 0.02,
  connectionReset: 0.01,
}

/** The table's stream, read to its current end, from where the last read stopped. */
function streamReader(endpoint: string, tableName: string) {
  const config = { ...localDynamoConfig(endpoint), maxAttempts: 3 }
  const tables = new DynamoDBClient(config)
  const streams = new DynamoDBStreamsClient(config)
  let arn: string | undefined
  const shards = new Map<string, { after?: string; done: boolean }>()
  return {
    async read(): Promise<StreamRecord[]> {
      arn ??= (await tables.send(new DescribeTableCommand({ TableName: tableName }))).Table?.LatestStreamArn
      const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: arn }))
      for (const s of StreamDescription?.Shards ?? [])
        if (s.ShardId && !shards.has(s.ShardId)) shards.set(s.ShardId, { done: false })
      const out: StreamRecord[] = []
      for (const [shardId, state] of shards) {
        if (state.done) continue
        let iterator = (
          await streams.send(
            new GetShardIteratorCommand({
              StreamArn: arn,
              ShardId: shardId,
              ...(state.after
                ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: state.after }
                : { ShardIteratorType: 'TRIM_HORIZON' }),
            }),
          )
        ).ShardIterator
        while (iterator) {
          const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }))
          const records = page.Records ?? []
          out.push(...records)
          if (records.length) state.after = records[records.length - 1]!.dynamodb?.SequenceNumber
          iterator = page.NextShardIterator
          if (!iterator) state.done = true
          if (records.length < 1000) break
        }
      }
      return out
    },
    close() {
      tables.destroy()
      streams.destroy()
    },
  }
}

const toLambda = (record: StreamRecord): DynamoDBRecord =>
  ({
    ...record,
    dynamodb: {
      ...record.dynamodb,
      ApproximateCreationDateTime: record.dynamodb?.ApproximateCreationDateTime
        ? Math.floor(record.dynamodb.ApproximateCreationDateTime.getTime() / 1000)
        : undefined,
    },
  }) as DynamoDBRecord

interface Message {
  id: number
  /** The queue it was sent to: its consumer takes it. */
  queue: string
  body: string
  dueAt: number
}

export async function runSimulation(options: SimOptions): Promise<SimReport> {
  const random = seeded(options.seed)
  const rates = { ...DEFAULT_RATES, ...options.rates }
  const counts: FaultCounts = {
    throttling: 0,
    transactionCanceled: 0,
    timeoutAfterCommit: 0,
    connectionReset: 0,
  }
  const faults = {
    ...counts,
    streamDuplicates: 0,
    streamLate: 0,
    streamKilled: 0,
    queueDuplicates: 0,
    queueLate: 0,
    queueKilled: 0,
    clockAdvances: 0,
  }
  const trace: string[] = []
  let faultsOn = false
  const clock = installFakeClock(seeded(options.seed ^ 0x9e3779b9))
  const dbCounts: FaultCounts = counts
  const removeFaults = injectFaults(db().middlewareStack as never, random, rates, dbCounts, () => faultsOn)

  // The receiver of every subscription: answers 500 to 30 % of the attempts, by the seed.
  const received = new Map<string, number>()
  const receiver: Server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      const id = String(req.headers['webhook-id'] ?? '')
      const fail = faultsOn && random() < 0.3
      if (!fail) received.set(id, (received.get(id) ?? 0) + 1)
      res.writeHead(fail ? 500 : 204).end()
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`

  installLocalIam()
  const { startServer } = await import('../local/server.ts')
  const server = await startServer(0, {})
  const stream = streamReader(options.endpoint, options.tableName)
  const streamConsumers: StreamConsumer[] = await localStreamConsumers()
  // Each queue's consumer, loaded when its first message comes (the workload's are the deliveries).
  type QueueFn = (e: unknown, c: unknown) => Promise<{ batchItemFailures: unknown[] }>
  const queueConsumers = new Map<string, { consumer: QueueConsumer; fn: Promise<QueueFn> }>()
  const consumerOf = (queue: string) => {
    let found = queueConsumers.get(queue)
    if (!found) {
      const consumer = consumers.find(
        (c) => c.trigger.kind === 'queue' && c.trigger.queue === queue,
      ) as QueueConsumer
      found = { consumer, fn: loadConsumer<QueueFn>(consumer) }
      queueConsumers.set(queue, found)
    }
    return found
  }
  const sweep = consumers.find((c) => c.functionId === 'webhook-overdue-sweep')!
  const sweepFn = await loadConsumer<() => Promise<unknown>>(sweep)

  // The queue: messages held here, handed over by pumpQueue when due on the fake clock.
  const queue: Message[] = []
  let messageIds = 0
  useLocalQueues({
    send: async (name, body, delaySeconds) => {
      queue.push({ id: ++messageIds, queue: name, body, dueAt: Date.now() + delaySeconds * 1000 })
    },
  })

  // Records read from the stream but not yet taken by every consumer (a failed or late batch waits).
  const pendingRecords = new Map<string, StreamRecord[]>(streamConsumers.map((c) => [c.name, []]))
  async function pumpStream(): Promise<void> {
    const fresh = await stream.read()
    for (const consumer of streamConsumers) {
      const waiting = pendingRecords.get(consumer.name)!
      waiting.push(...fresh)
      if (!waiting.length) continue
      if (faultsOn && random() < 0.1) {
        faults.streamLate++
        continue
      }
      const batch = waiting.slice(0, 100)
      if (faultsOn && random() < 0.05) {
        // Killed mid-batch: a prefix handled, nothing reported; the whole batch comes again.
        faults.streamKilled++
        const cut = Math.floor(random() * batch.length)
        await consumer.handler({ Records: batch.slice(0, cut).map(toLambda) }).catch(() => undefined)
        continue
      }
      let taken = batch.length
      try {
        const result = await consumer.handler({ Records: batch.map(toLambda) })
        for (const failure of result?.batchItemFailures ?? []) {
          const at = batch.findIndex((r) => r.dynamodb?.SequenceNumber === failure.itemIdentifier)
          if (at >= 0) taken = Math.min(taken, at)
        }
      } catch {
        taken = 0
      }
      if (faultsOn && taken > 0 && random() < 0.05) {
        // Delivered twice: the checkpoint was lost after the work.
        faults.streamDuplicates++
        continue
      }
      waiting.splice(0, taken)
    }
  }

  async function pumpQueue(limit = 50): Promise<void> {
    const now = Date.now()
    const due = queue.filter((m) => m.dueAt <= now).slice(0, limit)
    for (const message of due) {
      if (faultsOn && random() < 0.05) {
        faults.queueLate++
        message.dueAt = now + 30_000
        continue
      }
      let ok = false
      const { consumer, fn } = consumerOf(message.queue)
      try {
        const handler = await fn
        const reply = await asFunction(consumer.functionId, () =>
          handler(
            { Records: [{ messageId: String(message.id), body: message.body, attributes: {} }] },
            lambdaContext(consumer.functionId, consumer.timeoutSeconds),
          ),
        )
        ok = reply.batchItemFailures.length === 0
      } catch {
        ok = false
      }
      const killed = faultsOn && random() < 0.03
      if (killed) faults.queueKilled++
      const twice = faultsOn && !killed && ok && random() < 0.05
      if (twice) faults.queueDuplicates++
      if (ok && !killed && !twice) queue.splice(queue.indexOf(message), 1)
      // Not deleted: seen again after the visibility timeout.
      else message.dueAt = Date.now() + (killed ? consumer.trigger.visibilityTimeoutSeconds * 1000 : 1000)
    }
  }

  let pumpMs = 0
  const pump = async () => {
    const t0 = performance.now()
    await pumpStream()
    await pumpQueue()
    pumpMs += performance.now() - t0
  }

  const area = {
    switch: new ApiClient(server.url, {
      area: 'B',
      credentials: { token: DEV.switch.token, secret: DEV.switch.secret },
    }),
    app: new ApiClient(server.url, { area: 'A', credentials: DEV.clients.app }),
    admin: new ApiClient(server.url, { area: 'A', credentials: DEV.clients.admin }),
  }
  const requests = { total: 0, unavailable: 0, tooMany: 0 }
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
  const load: Workload = workload({
    random,
    clients: area,
    model,
    receiverUrl,
    trace,
    requests,
    setFaults: (on) => {
      faultsOn = on
    },
    tick: () => clock.advance(1000),
    pump,
    advance: async (ms) => {
      faults.clockAdvances++
      clock.advance(ms)
      // A scheduled run the faults fail is only missed: the next one comes.
      await sweepFn().catch(() => undefined)
    },
  })

  const started = performance.now()
  try {
    await load.setup()
    options.progress?.(`seed ${options.seed}: set up in ${Math.round(performance.now() - started)} ms`)
    faultsOn = true
    const step = Math.max(1, Math.floor(options.ops / 10))
    for (let i = 0; i < options.ops; i++) {
      await load.operation(i)
      clock.advance(10)
      if (random() < 0.3) await pump()
      if (options.progress && (i + 1) % step === 0)
        options.progress(`seed ${options.seed}: ${i + 1} of ${options.ops} operations`)
    }
    await load.flush()
    // The faults stop; everything still queued, delayed or unread is handed over, the schedules run out.
    faultsOn = false
    let drainRounds = 0
    for (let round = 0; round < 200; round++) {
      drainRounds++
      await pump()
      while (queue.some((m) => m.dueAt <= Date.now())) await pumpQueue(1000)
      const unread = [...pendingRecords.values()].some((r) => r.length)
      if (!queue.length && !unread && round > 2) {
        clock.advance(10 * 60_000)
        await sweepFn()
        if (!queue.length) break
        continue
      }
      clock.advance(
        queue.length ? Math.max(0, Math.min(...queue.map((m) => m.dueAt)) - Date.now()) + 1 : 1000,
      )
    }
    options.progress?.(
      `seed ${options.seed}: ms by kind ${JSON.stringify(load.timing, (_k, v) => (typeof v === 'number' ? Math.round(v) : v))}, pumps ${Math.round(pumpMs)} ms`,
    )
    options.progress?.(
      `seed ${options.seed}: drained in ${drainRounds} rounds, ${queue.length} messages left`,
    )
    const seconds = (performance.now() - started) / 1000
    const checked = await checkInvariants(model, { received, now: Date.now() })
    trace.push(`end ${checked.violations.length}`)
    // The trace line by line, to find where two runs of one seed part ways (the digest only says they do).
    if (process.env.SIM_TRACE_FILE) writeFileSync(process.env.SIM_TRACE_FILE, `${trace.join('\n')}\n`)
    return {
      seed: options.seed,
      ops: options.ops,
      seconds,
      opsPerSecond: Math.round(options.ops / seconds),
      faults: { ...faults, ...dbCounts },
      requests,
      counts: load.counts,
      invariantsChecked: checked.checked,
      violations: [...model.violations, ...checked.violations],
      trace: digest(trace),
    }
  } finally {
    faultsOn = false
    await load.teardown().catch(() => undefined)
    useLocalQueues(undefined)
    await server.close()
    await new Promise((resolve) => receiver.close(resolve))
    stream.close()
    removeFaults()
    clock.restore()
  }
}

function digest(lines: string[]): string {
  let h = 2166136261
  for (const line of lines)
    for (let i = 0; i < line.length; i++) h = Math.imul(h ^ line.charCodeAt(i), 16777619) >>> 0
  return h.toString(16).padStart(8, '0')
}
