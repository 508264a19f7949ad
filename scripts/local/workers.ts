import { randomUUID } from 'node:crypto'
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda'
import { type QueueName, useLocalQueues } from '#lib/platform/async/queue.ts'
import { consumers, type QueueConsumer } from '#lib/service/consumers.ts'
import { lambdaContext, loadConsumer, localStreamConsumers } from './consumers.ts'
import { asFunction, type Grants, installLocalIam } from './iam.ts'
import { openLocalStateTable, type PersistedMessage } from './local-state-table.ts'
import { type StreamDrive, startStreamDrive } from './stream-drive.ts'

/**
 * The local stand-in for Lambda's event source mappings (as scripts/local/server.ts is for API
 * Gateway): the table's stream is read by one local stream drive per consumer (scripts/local/stream-drive.ts),
 * which hands the stream consumers (scripts/local/consumers.ts) Lambda's event shape; the queue
 * consumers' queues run in-process here, with SQS's partial batch failure semantics; a consumer
 * scheduled every few minutes runs on a timer, a daily one when invoke() is called. All from the
 * declarations of lib/service/consumers.ts, each invocation with the function's role
 * (scripts/local/iam.ts). Nothing here decides what a consumer does; it only delivers.
 *
 * Stream positions and queued and delayed messages are kept in DynamoDB Local beside the table
 * (scripts/local/local-state-table.ts), so a restart resumes the stream where it stopped and hands
 * over what was queued, as AWS would. A difference from AWS, on purpose: the queue's redelivery wait starts at LOCAL_VISIBILITY_SECONDS (default 1 s)
 * and doubles per receive, rather than the queue's fixed visibility timeout, so a local failure is
 * retried quickly and a longer outage still fits in maxReceiveCount receives.
 *
 * With `bundles` (`npm start -- --bundles`, API_BUNDLES in the tests) every consumer runs from its
 * Lambda bundle, as the API's functions do: the engine is the same, only what it loads differs.
 */
type QueueFn = (
  event: SQSEvent,
  context: ReturnType<typeof lambdaContext>,
) => Promise<SQSBatchResponse | undefined>

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export interface WorkersOptions {
  endpoint: string
  tableName: string
  /** Only these consumers (by functionId, 'history-indexer' among them); all by default. */
  only?: string[]
  /** How long drained() waits between looks while something is queued. */
  pollMs?: number
  /** Each consumer's grants, which its AWS calls are held to (scripts/local/iam.ts); the sources' by default. */
  grants?: Grants
  /** functionId -> Lambda bundle file (scripts/local/bundles.ts): consumers run from these. */
  bundles?: Record<string, string>
}

export interface Workers {
  /** Resolves once every stream has been read to its end and no queued message is waiting or running. */
  drained(timeoutMs?: number): Promise<void>
  /** Resolves once every stream consumer has made a complete pass that began after the call. */
  settled(timeoutMs?: number): Promise<void>
  /**
   * The same for the merchant history indexer alone: the local server's afterWrite, so that locally
   * a transfer's history is there when its reply is (in AWS it trails by about a second).
   */
  historySettled(timeoutMs?: number): Promise<void>
  /** Messages that used up their receives (the queue's DLQ). */
  deadLetters: { queue: QueueName; body: string }[]
  /**
   * Invokes a consumer once with `event`, as a schedule or `aws lambda invoke` does (the daily
   * reconciliation has no stream or queue), from its bundle when the workers run from bundles.
   */
  invoke(functionId: string, event?: unknown): Promise<unknown>
  stop(): Promise<void>
}

export async function startWorkers(options: WorkersOptions): Promise<Workers> {
  const selected = consumers.filter((c) => !options.only || options.only.includes(c.functionId))
  const pollMs = options.pollMs ?? 100
  installLocalIam(options.grants)
  let running = true
  const deadLetters: Workers['deadLetters'] = []

  // ---- queues ----
  const queueConsumers = new Map<QueueName, QueueConsumer>()
  for (const c of selected)
    if (c.trigger.kind === 'queue') queueConsumers.set(c.trigger.queue, c as QueueConsumer)
  const timers = new Set<NodeJS.Timeout>()
  const state = await openLocalStateTable(options.endpoint, options.tableName)
  let queued = 0
  const visibilityMs = Number(process.env.LOCAL_VISIBILITY_SECONDS ?? 1) * 1000

  const later = (ms: number, fn: () => Promise<void>) => {
    const timer = setTimeout(() => {
      timers.delete(timer)
      void fn()
    }, ms)
    timers.add(timer)
  }

  /** Kept until its consumer took it: a restart (the same DynamoDB Local) hands it over again. */
  const keep = (message: PersistedMessage) => state.saveMessage(message)
  const forget = (id: string) =>
    state.deleteMessage(id).catch((error: unknown) => {
      // DynamoDB Local away: the message is handed over once more after a restart (at least once).
      console.error(`local queue: could not forget message ${id}: ${(error as Error).message}`)
    })

  function receive(queue: QueueName, consumer: QueueConsumer, message: PersistedMessage) {
    const { body, receiveCount } = message
    queued++
    later(0, async () => {
      const messageId = message.id
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
        const fn = await loadConsumer<QueueFn>(consumer, options.bundles)
        const result = await asFunction(consumer.functionId, () =>
          fn(event, lambdaContext(consumer.functionId, consumer.timeoutSeconds)),
        )
        failed = Boolean(result?.batchItemFailures?.length)
      } catch {
        failed = true
      }
      queued--
      if (!failed) return forget(messageId)
      // Stopped meanwhile: the message stays kept, for the next run (SQS's visibility timeout).
      if (!running) return
      if (receiveCount >= consumer.trigger.maxReceiveCount) {
        deadLetters.push({ queue, body })
        console.error(
          `local queue ${queue}: message moved to the dead-letter list after ${receiveCount} receives`,
        )
        return forget(messageId)
      }
      // Waits double per receive (1, 2, 4 ... 32 s): maxReceiveCount receives then span minutes, so
      // a DynamoDB Local restart does not exhaust them as AWS's 90 s visibility timeout would not.
      const waitMs = visibilityMs * 2 ** Math.min(receiveCount - 1, 5)
      const next = { ...message, receiveCount: receiveCount + 1, dueAt: Date.now() + waitMs }
      await keep(next).catch(() => undefined)
      queued++
      later(waitMs, async () => {
        queued--
        receive(queue, consumer, next)
      })
    })
  }

  // Only when a queue consumer runs here: otherwise a send goes where it would without these workers.
  if (queueConsumers.size) {
    useLocalQueues({
      send: async (queue, body, delaySeconds) => {
        const consumer = queueConsumers.get(queue)
        if (!consumer) throw new Error(`No local consumer for queue ${queue}`)
        const message = {
          id: randomUUID(),
          queue,
          body,
          dueAt: Date.now() + delaySeconds * 1000,
          receiveCount: 1,
        }
        // Kept for a restart as well as held here. SQS does not go down with DynamoDB: a send while
        // DynamoDB Local is away still queues (only a restart before it is due would lose it).
        await keep(message).catch((error: unknown) => {
          console.error(`local queue ${queue}: message not kept for a restart: ${(error as Error).message}`)
        })
        queued++
        later(delaySeconds * 1000, async () => {
          queued--
          receive(queue, consumer, message)
        })
      },
    })
    // What an earlier run left queued or delayed (a restart on the same DynamoDB Local), each when due.
    for (const message of await state.messages()) {
      const consumer = queueConsumers.get(message.queue as QueueName)
      if (!consumer) continue
      queued++
      later(Math.max(0, message.dueAt - Date.now()), async () => {
        queued--
        receive(message.queue as QueueName, consumer, message)
      })
    }
  }

  // ---- the table's stream: one drive per consumer, as each has its own event source mapping in AWS,
  // so a long batch in one (the batch worker's 100 invoices) never holds up another ----
  const drives = new Map<string, StreamDrive>()
  for (const consumer of await localStreamConsumers(options.only, options.bundles)) {
    drives.set(
      consumer.name,
      await startStreamDrive({
        endpoint: options.endpoint,
        tableName: options.tableName,
        consumers: [consumer],
        state,
      }),
    )
  }
  // ---- schedules: a consumer run every few minutes (EventBridge Scheduler's rate in AWS) runs on a
  // timer here, LOCAL_SCHEDULE_SECONDS apart when set; a daily one only when invoked ----
  const scheduleSeconds = Number(process.env.LOCAL_SCHEDULE_SECONDS ?? 0)
  const schedules: NodeJS.Timeout[] = []
  for (const consumer of selected) {
    if (consumer.trigger.kind !== 'schedule' || !consumer.trigger.everyMinutes) continue
    const everyMs = (scheduleSeconds || consumer.trigger.everyMinutes * 60) * 1000
    let busy = false
    const timer = setInterval(() => {
      if (busy || !running) return
      busy = true
      void runScheduled(consumer)
        .catch((error: unknown) => console.error(`local schedule ${consumer.functionId}: run failed`, error))
        .finally(() => {
          busy = false
        })
    }, everyMs)
    timer.unref()
    schedules.push(timer)
  }
  async function runScheduled(consumer: (typeof consumers)[number], event: unknown = {}): Promise<unknown> {
    const fn = await loadConsumer<(event: unknown, context: unknown) => Promise<unknown>>(
      consumer,
      options.bundles,
    )
    return asFunction(consumer.functionId, () =>
      fn(event, lambdaContext(consumer.functionId, consumer.timeoutSeconds)),
    )
  }

  const allSettled = async (timeoutMs?: number) => {
    await Promise.all([...drives.values()].map((d) => d.settled(timeoutMs)))
  }

  return {
    deadLetters,
    async invoke(functionId, event = {}) {
      const consumer = consumers.find((c) => c.functionId === functionId)
      if (!consumer) throw new Error(`${functionId} is not a consumer (lib/service/consumers.ts)`)
      return runScheduled(consumer, event)
    },
    settled: allSettled,
    historySettled: (timeoutMs?: number) =>
      drives.get('history-indexer')?.settled(timeoutMs) ?? Promise.resolve(),
    async drained(timeoutMs = 60_000) {
      const until = Date.now() + timeoutMs
      let quietPasses = 0
      while (Date.now() < until) {
        const before = queued
        await allSettled(Math.max(1, until - Date.now()))
        // Two stream passes in a row with no queued message: nothing is in flight between them.
        if (before === 0 && queued === 0) {
          if (++quietPasses >= 2) return
        } else {
          quietPasses = 0
          await sleep(pollMs / 2)
        }
      }
      throw new Error(`Local workers still busy after ${timeoutMs} ms (${queued} queued messages)`)
    },
    async stop() {
      running = false
      for (const timer of schedules) clearInterval(timer)
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
      if (queueConsumers.size) useLocalQueues(undefined)
      await Promise.all([...drives.values()].map((d) => d.stop()))
      state.close()
    },
  }
}
