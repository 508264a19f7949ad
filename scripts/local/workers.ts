import { randomUUID } from 'node:crypto'
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb'
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type Shard,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams'
import type {
  Context,
  DynamoDBBatchResponse,
  DynamoDBRecord,
  DynamoDBStreamEvent,
  SQSBatchResponse,
  SQSEvent,
} from 'aws-lambda'
import { type QueueName, useLocalQueues } from '#lib/async/queue.ts'
import { type Consumer, consumers, type QueueConsumer, type StreamConsumer } from '#lib/consumers.ts'

/**
 * The local stand-in for Lambda's event source mappings (as scripts/local/server.ts is for API
 * Gateway): it reads DynamoDB Local's own stream of the table and runs in-process queues, and hands
 * the consumer modules of lib/consumers.ts the same events Lambda would, with the same partial
 * batch failure semantics. Nothing here decides what a consumer does; it only delivers.
 *
 * Differences from AWS, on purpose: stream positions and queued messages live in this process's
 * memory (a restart reads the stream again from its start, which the consumers tolerate since they
 * are idempotent), and the queue's redelivery wait starts at LOCAL_VISIBILITY_SECONDS (default 1 s)
 * and doubles per receive, rather than the queue's fixed visibility timeout, so a local failure is
 * retried quickly and a longer outage still fits in maxReceiveCount receives.
 */
type StreamFn = (event: DynamoDBStreamEvent, context: Context) => Promise<DynamoDBBatchResponse | undefined>
type QueueFn = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | undefined>

const projectRoot = new URL('../../', import.meta.url)
const load = <T>(module: string): Promise<T> =>
  import(new URL(module, projectRoot).href).then((m: { handler: T }) => m.handler)

function context(functionId: string, timeoutSeconds: number): Context {
  const deadline = Date.now() + timeoutSeconds * 1000
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: functionId,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionId}`,
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionId}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => {},
    fail: () => {},
    succeed: () => {},
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The event source mapping's filter (infra/constructs/consumers.ts builds the same one). */
function matches(consumer: StreamConsumer, record: StreamRecord): boolean {
  if (record.eventName !== 'INSERT') return false
  const keys = record.dynamodb?.Keys
  return Boolean(
    keys?.pk?.S?.startsWith(consumer.prefix) && (consumer.sk === undefined || keys.sk?.S === consumer.sk),
  )
}

export interface WorkersOptions {
  endpoint: string
  tableName: string
  /** Only these consumers (by functionId); all by default. */
  only?: string[]
  /** How often an idle stream is polled. */
  pollMs?: number
}

export interface Workers {
  /** Resolves once every stream has been read to its end and no queued message is waiting or running. */
  drained(timeoutMs?: number): Promise<void>
  /** Messages that used up their receives (the queue's DLQ). */
  deadLetters: { queue: QueueName; body: string }[]
  stop(): Promise<void>
}

export async function startWorkers(options: WorkersOptions): Promise<Workers> {
  const selected = consumers.filter((c) => !options.only || options.only.includes(c.functionId))
  const credentials = { accessKeyId: 'local', secretAccessKey: 'local' }
  const dynamo = new DynamoDBClient({ endpoint: options.endpoint, region: 'local', credentials })
  const streams = new DynamoDBStreamsClient({ endpoint: options.endpoint, region: 'local', credentials })
  const pollMs = options.pollMs ?? 100
  let running = true
  const deadLetters: Workers['deadLetters'] = []

  // ---- queues ----
  const queueConsumers = new Map<QueueName, QueueConsumer>()
  for (const c of selected) if (c.kind === 'queue') queueConsumers.set(c.queue, c)
  const timers = new Set<NodeJS.Timeout>()
  let queued = 0
  const visibilityMs = Number(process.env.LOCAL_VISIBILITY_SECONDS ?? 1) * 1000

  const later = (ms: number, fn: () => Promise<void>) => {
    const timer = setTimeout(() => {
      timers.delete(timer)
      void fn()
    }, ms)
    timers.add(timer)
  }

  function receive(queue: QueueName, consumer: QueueConsumer, body: string, receiveCount: number) {
    queued++
    later(0, async () => {
      const messageId = randomUUID()
      const event: SQSEvent = {
        Records: [
          {
            messageId,
            receiptHandle: messageId,
            body,
            attributes: {
              ApproximateReceiveCount: String(receiveCount),
              SentTimestamp: String(Date.now()),
              SenderId: 'local',
              ApproximateFirstReceiveTimestamp: String(Date.now()),
            },
            messageAttributes: {},
            md5OfBody: '',
            eventSource: 'aws:sqs',
            eventSourceARN: `arn:aws:sqs:local:000000000000:${queue}`,
            awsRegion: 'local',
          },
        ],
      }
      let failed = false
      try {
        const fn = await load<QueueFn>(consumer.handler)
        const result = await fn(event, context(consumer.functionId, consumer.timeoutSeconds))
        failed = Boolean(result?.batchItemFailures?.length)
      } catch {
        failed = true
      }
      queued--
      if (!failed || !running) return
      if (receiveCount >= consumer.maxReceiveCount) {
        deadLetters.push({ queue, body })
        console.error(
          `local queue ${queue}: message moved to the dead-letter list after ${receiveCount} receives`,
        )
        return
      }
      queued++
      // Waits double per receive (1, 2, 4 ... 32 s): maxReceiveCount receives then span minutes, so
      // a DynamoDB Local restart does not exhaust them as AWS's 90 s visibility timeout would not.
      later(visibilityMs * 2 ** Math.min(receiveCount - 1, 5), async () => {
        queued--
        receive(queue, consumer, body, receiveCount + 1)
      })
    })
  }

  useLocalQueues({
    send: async (queue, body, delaySeconds) => {
      const consumer = queueConsumers.get(queue)
      if (!consumer) throw new Error(`No local consumer for queue ${queue}`)
      queued++
      later(delaySeconds * 1000, async () => {
        queued--
        receive(queue, consumer, body, 1)
      })
    },
  })

  // ---- the table's stream, one reader per consumer (as each event source mapping has its own) ----
  let streamArn: string | undefined
  const caughtUp = new Map<string, boolean>()

  async function streamShards(): Promise<Shard[]> {
    if (!streamArn) {
      const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: options.tableName }))
      streamArn = Table?.LatestStreamArn
      if (!streamArn) throw new Error(`Table ${options.tableName} has no stream`)
    }
    const shards: Shard[] = []
    let start: string | undefined
    do {
      const out = await streams.send(
        new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: start }),
      )
      shards.push(...(out.StreamDescription?.Shards ?? []))
      start = out.StreamDescription?.LastEvaluatedShardId
    } while (start)
    return shards.sort((a, b) =>
      (a.SequenceNumberRange?.StartingSequenceNumber ?? '').localeCompare(
        b.SequenceNumberRange?.StartingSequenceNumber ?? '',
        undefined,
        { numeric: true },
      ),
    )
  }

  async function readStream(consumer: StreamConsumer) {
    const fn = await load<StreamFn>(consumer.handler)
    /** Per shard: the last sequence number handled, and whether the shard is closed and read. */
    const checkpoint = new Map<string, string>()
    const finished = new Set<string>()
    const iterators = new Map<string, string>()
    let failures = 0
    while (running) {
      let progressed = false
      let pending = false
      try {
        const shards = await streamShards()
        const listed = new Set(shards.map((s) => s.ShardId))
        for (const shard of shards) {
          const id = shard.ShardId!
          if (finished.has(id)) continue
          // A child shard waits for its parent to be read to its end, as Lambda keeps key order.
          if (shard.ParentShardId && listed.has(shard.ParentShardId) && !finished.has(shard.ParentShardId))
            continue
          let iterator = iterators.get(id)
          if (!iterator) {
            const done = checkpoint.get(id)
            iterator = (
              await streams.send(
                new GetShardIteratorCommand({
                  StreamArn: streamArn,
                  ShardId: id,
                  ...(done
                    ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: done }
                    : { ShardIteratorType: 'TRIM_HORIZON' }),
                }),
              )
            ).ShardIterator
          }
          if (!iterator) continue
          const out = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }))
          const records = out.Records ?? []
          let retryFrom: string | undefined
          for (let i = 0; i < records.length && !retryFrom; i += consumer.batchSize) {
            const slice = records.slice(i, i + consumer.batchSize)
            const wanted = slice.filter((r) => matches(consumer, r))
            if (wanted.length) {
              const event = { Records: wanted as DynamoDBRecord[] } as DynamoDBStreamEvent
              let failedId: string | undefined
              try {
                const result = await fn(event, context(consumer.functionId, consumer.timeoutSeconds))
                failedId = result?.batchItemFailures?.[0]?.itemIdentifier
              } catch {
                failedId = wanted[0]!.dynamodb?.SequenceNumber
              }
              if (failedId !== undefined) {
                retryFrom = failedId
                break
              }
            }
            const last = slice[slice.length - 1]!.dynamodb?.SequenceNumber
            if (last) checkpoint.set(id, last)
            progressed = true
          }
          if (retryFrom) {
            // As the event source mapping does: start again at the failed record, after a pause.
            const failedIndex = records.findIndex((r) => r.dynamodb?.SequenceNumber === retryFrom)
            const before = records[failedIndex - 1]?.dynamodb?.SequenceNumber
            if (before) checkpoint.set(id, before)
            iterators.delete(id)
            pending = true
            failures++
            continue
          }
          if (out.NextShardIterator) {
            iterators.set(id, out.NextShardIterator)
            if (records.length) pending = true
          } else {
            iterators.delete(id)
            finished.add(id)
          }
        }
        if (!pending) failures = 0
      } catch {
        // DynamoDB Local down or an iterator expired: read again from the checkpoints after a pause.
        iterators.clear()
        streamArn = undefined
        pending = true
        failures++
      }
      caughtUp.set(consumer.functionId, !pending)
      if (!progressed || pending)
        await sleep(failures ? Math.min(2000, 100 * 2 ** Math.min(failures, 5)) : pollMs)
    }
  }

  const readers = selected.filter((c): c is StreamConsumer => c.kind === 'stream').map((c) => readStream(c))
  for (const c of selected) if (c.kind === 'stream') caughtUp.set(c.functionId, false)

  return {
    deadLetters,
    async drained(timeoutMs = 60_000) {
      const until = Date.now() + timeoutMs
      let quietSince = 0
      while (Date.now() < until) {
        const quiet = queued === 0 && [...caughtUp.values()].every(Boolean)
        if (quiet) {
          quietSince ||= Date.now()
          // Quiet for a few polls in a row: nothing is in flight between a stream and a queue.
          if (Date.now() - quietSince > 4 * pollMs + 50) return
        } else quietSince = 0
        await sleep(pollMs / 2)
      }
      throw new Error(`Local workers still busy after ${timeoutMs} ms (${queued} queued messages)`)
    },
    async stop() {
      running = false
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
      useLocalQueues(undefined)
      await Promise.allSettled(readers)
      dynamo.destroy()
      streams.destroy()
    },
  }
}

export type { Consumer }
