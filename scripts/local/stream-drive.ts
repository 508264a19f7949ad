import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams'
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb'
import { localDynamoConfig } from '#lib/platform/db/local.ts'
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda'
import type { LocalStateTable } from './local-state-table.ts'

/**
 * The local stand-in for Lambda's DynamoDB stream event source: reads the table's real stream from
 * DynamoDB Local (shard by shard, in order) and hands each batch to the same handler modules Lambda
 * runs, in-process, in Lambda's event shape. Like the event source, a batch a handler fails (it throws,
 * or lists batchItemFailures) is delivered again from the first failed record, so the handlers must be
 * idempotent, as they must be in AWS.
 *
 * With `state`, each consumer's position is kept there (scripts/local/local-state-table.ts) after each
 * batch it took, and a new drive of the same consumers starts from it, as an event source mapping
 * resumes where it stopped: a restart does not read the stream again from its start.
 *
 * `settled()` waits for one full pass over the stream that started after the call: the local server
 * calls it after each write request, so locally a transfer's history is there when its reply is.
 */
export interface StreamConsumer {
  name: string
  handler: (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse | undefined>
}

export interface StreamDrive {
  /** Resolves after a complete pass that began after this call (or after `timeoutMs`, whatever happens). */
  settled(timeoutMs?: number): Promise<void>
  stop(): Promise<void>
}

interface ShardState {
  iterator?: string
  /** The last record handed over successfully: where to pick up after an error or a restart. */
  after?: string
  closed: boolean
}

/** How often the stream is read while it has records: a write outside the server lags about this. */
const PASS_INTERVAL_MS = 100
/**
 * While passes find nothing the wait doubles, up to this: an idle drive (most of a test file's life,
 * with up to a dozen drives per file) would otherwise cost DynamoDB Local ten reads a second each.
 * A `settled()` call, which the local server makes after every write request, starts a pass at once.
 */
const IDLE_INTERVAL_MS = 1_000
const MAX_RECORDS = 1000
const ERROR_PAUSE_MS = 500

export async function startStreamDrive(options: {
  endpoint: string
  tableName: string
  consumers: StreamConsumer[]
  /** Where the drive's position is kept between runs (absent: from the stream's start each run). */
  state?: LocalStateTable
}): Promise<StreamDrive> {
  const config = { ...localDynamoConfig(options.endpoint), maxAttempts: 1 }
  const tables = new DynamoDBClient(config)
  const streams = new DynamoDBStreamsClient(config)
  const shards = new Map<string, ShardState>()
  let streamArn: string | undefined
  let running = true
  let lastError = ''
  let wake: (() => void) | undefined
  /** Whether writes landed while the last pass ran. */
  let burst = false
  /** Waiters for the next pass to start, and for the pass after it to finish. */
  let waiting: (() => void)[] = []
  const positionOf = options.consumers.map((c) => c.name).join('+')
  const kept = (await options.state?.checkpoints(positionOf)) ?? new Map<string, string>()

  async function discover() {
    if (!streamArn) {
      const { Table } = await tables.send(new DescribeTableCommand({ TableName: options.tableName }))
      streamArn = Table?.LatestStreamArn
      if (!streamArn) throw new Error(`table ${options.tableName} has no stream`)
    }
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }))
    for (const shard of StreamDescription?.Shards ?? []) {
      if (shard.ShardId && !shards.has(shard.ShardId)) {
        const after = kept.get(shard.ShardId)
        shards.set(shard.ShardId, { closed: false, ...(after ? { after } : {}) })
      }
    }
  }

  const toLambda = (record: StreamRecord): DynamoDBRecord =>
    ({
      ...record,
      eventSourceARN: streamArn,
      dynamodb: {
        ...record.dynamodb,
        ApproximateCreationDateTime: record.dynamodb?.ApproximateCreationDateTime
          ? Math.floor(record.dynamodb.ApproximateCreationDateTime.getTime() / 1000)
          : undefined,
      },
    }) as DynamoDBRecord

  /** Hands the records to every consumer; returns how many were delivered before the first failure. */
  async function deliver(records: StreamRecord[]): Promise<number> {
    const event: DynamoDBStreamEvent = { Records: records.map(toLambda) }
    let delivered = records.length
    for (const consumer of options.consumers) {
      try {
        const result = await consumer.handler(event)
        for (const failure of result?.batchItemFailures ?? []) {
          const at = records.findIndex((r) => r.dynamodb?.SequenceNumber === failure.itemIdentifier)
          if (at >= 0) delivered = Math.min(delivered, at)
        }
      } catch (error) {
        report(`${consumer.name} failed a batch: ${(error as Error).message}`)
        return 0
      }
    }
    return delivered
  }

  /** Where a shard is read from: after its last delivered record, else its start. */
  async function iteratorOf(shardId: string, state: ShardState): Promise<string | undefined> {
    const at = (after?: string) =>
      streams.send(
        new GetShardIteratorCommand({
          StreamArn: streamArn,
          ShardId: shardId,
          ...(after
            ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: after }
            : { ShardIteratorType: 'TRIM_HORIZON' }),
        }),
      )
    try {
      return (await at(state.after)).ShardIterator
    } catch (error) {
      // A kept position the stream no longer has (trimmed after 24 h): from what it still holds.
      // Anything else (DynamoDB Local away) is retried from the same position.
      const name = (error as Error).name
      if (!state.after || !['TrimmedDataAccessException', 'ValidationException'].includes(name)) throw error
      report(`position ${state.after} of shard ${shardId} is gone: reading the shard from its start`)
      state.after = undefined
      return (await at()).ShardIterator
    }
  }

  /** One pass: every open shard read to its current end; true when it handed any record over. */
  async function pass(): Promise<boolean> {
    let handed = false
    if (!shards.size || [...shards.values()].every((s) => s.closed)) await discover()
    for (const [shardId, state] of shards) {
      if (state.closed) continue
      for (;;) {
        if (!state.iterator) state.iterator = await iteratorOf(shardId, state)
        const out = await streams.send(
          new GetRecordsCommand({ ShardIterator: state.iterator, Limit: MAX_RECORDS }),
        )
        const records = out.Records ?? []
        if (records.length) {
          handed = true
          const delivered = await deliver(records)
          if (delivered > 0) {
            state.after = records[delivered - 1]!.dynamodb?.SequenceNumber
            if (state.after) await options.state?.saveCheckpoint(positionOf, shardId, state.after)
          }
          if (delivered < records.length) {
            // Delivered again from the first failure, after a pause.
            state.iterator = undefined
            await new Promise((r) => setTimeout(r, ERROR_PAUSE_MS))
            return handed
          }
        }
        state.iterator = out.NextShardIterator
        if (!state.iterator) {
          state.closed = true
          break
        }
        // Fewer than asked for: this shard's end as of this read (the pass is complete for it).
        if (records.length < MAX_RECORDS) break
      }
    }
    if ([...shards.values()].some((s) => s.closed)) await discover()
    return handed
  }

  function report(message: string) {
    if (message !== lastError) console.error(`local stream drive (${options.tableName}): ${message}`)
    lastError = message
  }

  const loop = (async () => {
    let lastStart = 0
    let interval = PASS_INTERVAL_MS
    while (running) {
      // A waiter (a reply held for its history) is served by a pass at once, unless writes came in a
      // burst (some landed while the last pass ran): a burst's replies share one pass per
      // PASS_INTERVAL_MS (one indexer batch, as before) instead of every reply paying for its own.
      // Without waiters, a pass each interval.
      const wait = lastError
        ? lastStart + ERROR_PAUSE_MS - Date.now()
        : waiting.length
          ? burst
            ? lastStart + PASS_INTERVAL_MS - Date.now()
            : 0
          : lastStart + interval - Date.now()
      if (wait > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, wait)
          wake = () => {
            clearTimeout(timer)
            resolve()
          }
        })
        wake = undefined
        if (!running) break
      }
      lastStart = Date.now()
      const waiters = waiting
      waiting = []
      try {
        interval = (await pass()) ? PASS_INTERVAL_MS : Math.min(interval * 2, IDLE_INTERVAL_MS)
        lastError = ''
      } catch (error) {
        // DynamoDB Local away, an iterator expired: start the shards again from the last delivered record.
        report((error as Error).message)
        for (const state of shards.values()) state.iterator = undefined
        if (/no stream|ResourceNotFound/i.test((error as Error).message)) streamArn = undefined
      }
      burst = waiting.length > 0
      for (const resolve of waiters) resolve()
    }
  })()

  return {
    settled(timeoutMs = 5_000) {
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs)
        waiting.push(() => {
          clearTimeout(timer)
          resolve()
        })
        // Not during a burst, nor while DynamoDB Local is away: their pauses hold.
        if (!lastError && !burst) wake?.()
      })
    },
    async stop() {
      running = false
      wake?.()
      await loop
      for (const resolve of waiting) resolve()
      tables.destroy()
      streams.destroy()
    },
  }
}
