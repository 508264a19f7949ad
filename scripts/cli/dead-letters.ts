import {
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams'
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda'
import {
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SQSClient,
  StartMessageMoveTaskCommand,
} from '@aws-sdk/client-sqs'
import type { Command } from './command.ts'
import { stackNames, stackOutputs } from './stage.ts'

/**
 * `dlq list` and `dlq redrive`: the dead-letter queues of a stage's asynchronous consumers
 * (infra/constructs/consumer-triggers.ts), found by the area stacks' `DeadLetters<Consumer>` outputs.
 *
 * A stream consumer's queue holds failure records (which shard, which sequence numbers), not the
 * items: redrive reads those records back from the stream (kept 24 hours) and invokes the consumer
 * with them, deleting the failure record only when every item succeeded. A queue consumer's messages
 * are moved back to their source queue by SQS itself (StartMessageMoveTask).
 */

export interface DeadLetterQueue {
  consumer: string
  url: string
}

export async function deadLetterQueues(stage: string): Promise<DeadLetterQueue[]> {
  // Each consumer's queue is an output of its area's stack; an area not deployed yet has none.
  const outputs = (
    await Promise.all(
      stackNames(stage).areas.map((name) =>
        stackOutputs(name).catch((error: Error) => {
          if (/not found|does not exist/i.test(error.message)) return []
          throw error
        }),
      ),
    )
  ).flat()
  return outputs
    .filter((o) => o.key.startsWith('DeadLetters'))
    .map((o) => ({ consumer: (o.description ?? '').replace(/^Dead-letter queue of /, ''), url: o.value }))
}

/** What Lambda writes to an on-failure destination for a DynamoDB stream batch. */
interface StreamFailure {
  requestContext: { functionArn: string; condition?: string }
  DDBStreamBatchInfo: {
    shardId: string
    streamArn: string
    startSequenceNumber: string
    endSequenceNumber: string
    batchSize?: number
  }
}

export interface RedriveClients {
  sqs: SQSClient
  streams: DynamoDBStreamsClient
  lambda: LambdaClient
}

const defaultClients = (): RedriveClients => ({
  sqs: new SQSClient({}),
  streams: new DynamoDBStreamsClient({}),
  lambda: new LambdaClient({}),
})

/** The failed batch's records, read back from the stream by their sequence numbers. */
async function recordsOf(failure: StreamFailure, streams: DynamoDBStreamsClient): Promise<StreamRecord[]> {
  const info = failure.DDBStreamBatchInfo
  const end = BigInt(info.endSequenceNumber)
  let { ShardIterator: iterator } = await streams.send(
    new GetShardIteratorCommand({
      StreamArn: info.streamArn,
      ShardId: info.shardId,
      ShardIteratorType: 'AT_SEQUENCE_NUMBER',
      SequenceNumber: info.startSequenceNumber,
    }),
  )
  const records: StreamRecord[] = []
  while (iterator) {
    const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator }))
    for (const record of page.Records ?? []) {
      const sequence = BigInt(record.dynamodb?.SequenceNumber ?? '0')
      if (sequence > end) return records
      records.push(record)
      if (sequence === end) return records
    }
    if (!page.Records?.length) break
    iterator = page.NextShardIterator
  }
  return records
}

/** Redrives every message of one queue; returns how many were redriven and how many are left. */
export async function redrive(
  queue: DeadLetterQueue,
  clients: RedriveClients = defaultClients(),
  log: (line: string) => void = console.log,
): Promise<{ redriven: number; left: number }> {
  let redriven = 0
  let left = 0
  for (;;) {
    const { Messages } = await clients.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queue.url, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
    )
    if (!Messages?.length) break
    for (const message of Messages) {
      const failure = JSON.parse(message.Body ?? '{}') as Partial<StreamFailure>
      if (!failure.DDBStreamBatchInfo || !failure.requestContext) {
        // Not a stream failure record: a queue consumer's message, which SQS moves back itself.
        const { Attributes } = await clients.sqs.send(
          new GetQueueAttributesCommand({ QueueUrl: queue.url, AttributeNames: ['QueueArn'] }),
        )
        await clients.sqs.send(new StartMessageMoveTaskCommand({ SourceArn: Attributes?.QueueArn }))
        log(`${queue.consumer}: SQS is moving the queue's messages back to their source queue`)
        return { redriven, left: 0 }
      }
      const records = await recordsOf(failure as StreamFailure, clients.streams)
      const info = failure.DDBStreamBatchInfo
      if (records.length === 0) {
        log(
          `${queue.consumer}: ${info.startSequenceNumber}..${info.endSequenceNumber} has left the stream (24 h): kept`,
        )
        left++
        continue
      }
      const reply = await clients.lambda.send(
        new InvokeCommand({
          FunctionName: failure.requestContext.functionArn,
          Payload: new TextEncoder().encode(JSON.stringify({ Records: records })),
        }),
      )
      const body = reply.Payload
        ? (JSON.parse(new TextDecoder().decode(reply.Payload)) as unknown)
        : undefined
      const failures = (body as { batchItemFailures?: unknown[] } | undefined)?.batchItemFailures ?? []
      if (reply.FunctionError || failures.length > 0) {
        log(
          `${queue.consumer}: ${records.length} record(s) still failing (${reply.FunctionError ?? `${failures.length} item(s)`}): kept`,
        )
        left++
        continue
      }
      await clients.sqs.send(
        new DeleteMessageCommand({ QueueUrl: queue.url, ReceiptHandle: message.ReceiptHandle }),
      )
      log(`${queue.consumer}: ${records.length} record(s) redriven`)
      redriven++
    }
  }
  return { redriven, left }
}

export const commands: Command[] = [
  {
    name: 'dlq list',
    summary: "A stage's dead-letter queues and how many messages each holds",
    help: `Usage: npm run cli -- dlq list --stage <stage>

Lists the dead-letter queue of every asynchronous consumer of the stage (the API stack's
DeadLetters* outputs) with its approximate depth. Uses your AWS profile and region.`,
    options: { stage: { type: 'string' } },
    usesTable: false,
    async run(values) {
      const stage = String(values.stage ?? '')
      if (!stage) throw new Error('--stage is required')
      const sqs = new SQSClient({})
      for (const queue of await deadLetterQueues(stage)) {
        const { Attributes } = await sqs.send(
          new GetQueueAttributesCommand({
            QueueUrl: queue.url,
            AttributeNames: ['ApproximateNumberOfMessages'],
          }),
        )
        console.log(
          `${queue.consumer}\t${Attributes?.ApproximateNumberOfMessages ?? '?'} message(s)\t${queue.url}`,
        )
      }
    },
  },
  {
    name: 'dlq redrive',
    summary: 'Replays what a consumer gave up on, once its cause is fixed',
    help: `Usage: npm run cli -- dlq redrive --stage <stage> --consumer <name>

For a stream consumer (e.g. outbox-sender): reads each failed batch back from the table's stream
and invokes the consumer with it; a failure record is deleted only when every item succeeded (the
consumers are idempotent, so an item already handled is handled again harmlessly). Records older
than the stream's 24 hours cannot be read back and are kept, to be handled by hand
(docs/operations.md). For a queue consumer: SQS moves the messages back to the source queue.

Example: npm run cli -- dlq redrive --stage prod --consumer outbox-sender`,
    options: { stage: { type: 'string' }, consumer: { type: 'string' } },
    usesTable: false,
    async run(values) {
      const stage = String(values.stage ?? '')
      if (!stage) throw new Error('--stage is required')
      const queues = await deadLetterQueues(stage)
      const queue = queues.find((q) => q.consumer === values.consumer)
      if (!queue) {
        throw new Error(
          `--consumer must be one of: ${queues.map((q) => q.consumer).join(', ') || '(none deployed)'}`,
        )
      }
      const { redriven, left } = await redrive(queue)
      console.log(`${queue.consumer}: ${redriven} redriven, ${left} left in the queue`)
      if (left > 0) process.exitCode = 1
    },
  },
]
