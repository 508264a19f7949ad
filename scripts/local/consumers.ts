import { randomUUID } from 'node:crypto'
import { pathToFileURL } from 'node:url'
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda'
import {
  consumers,
  type StreamConsumer as StreamConsumerSpec,
  type StreamTrigger,
} from '#lib/service/consumers.ts'
import { asFunction } from './iam.ts'
import type { StreamConsumer } from './stream-drive.ts'

/**
 * The stream consumers the local stream drive runs: the same handler modules the CDK stack subscribes
 * to the table's stream (infra/constructs/consumers.ts, from lib/service/consumers.ts), or with
 * `bundles` their Lambda bundles (`npm start -- --bundles`). `only` (function ids) picks some of
 * them; all by default.
 */
export async function localStreamConsumers(
  only?: string[],
  bundles?: Record<string, string>,
): Promise<StreamConsumer[]> {
  const out: StreamConsumer[] = []
  for (const spec of consumers) {
    if (spec.trigger.kind === 'stream' && (!only || only.includes(spec.functionId)))
      out.push(await filtered(spec as StreamConsumerSpec, bundles))
  }
  return out
}

type StreamFn = (event: DynamoDBStreamEvent, context: Context) => Promise<DynamoDBBatchResponse | undefined>

const projectRoot = new URL('../../', import.meta.url)

/**
 * A consumer's `handler`: from its Lambda bundle when `bundles` is given (and then it must have one:
 * running the sources instead would test something other than what deploys), else from its module.
 */
export async function loadConsumer<T>(
  consumer: { functionId: string; handler: string },
  bundles?: Record<string, string>,
): Promise<T> {
  const bundle = bundles?.[consumer.functionId]
  if (bundles && !bundle) throw new Error(`no bundle for the consumer ${consumer.functionId}`)
  const url = bundle ? pathToFileURL(bundle).href : new URL(consumer.handler, projectRoot).href
  return ((await import(url)) as { handler: T }).handler
}

/** The event source mapping's filter (infra/constructs/consumer-triggers.ts builds the same one). */
function matches(trigger: StreamTrigger, record: DynamoDBRecord): boolean {
  if (!trigger.events.includes(record.eventName as StreamTrigger['events'][number])) return false
  const keys = record.dynamodb?.Keys
  if (!keys?.pk?.S?.startsWith(trigger.prefix)) return false
  if (trigger.sk !== undefined && keys.sk?.S !== trigger.sk) return false
  const image = record.dynamodb?.NewImage
  return Object.entries(trigger.newImage ?? {}).every(([name, value]) => image?.[name]?.S === value)
}

/** A Lambda context for one invocation, with the consumer's timeout as its deadline. */
export function lambdaContext(functionId: string, timeoutSeconds: number): Context {
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

/**
 * A stream consumer as its event source mapping sees the stream: only the records its filter takes,
 * in batches of its batchSize, each invocation with the function's role (scripts/local/iam.ts). The
 * first failed record is reported back to the drive, which delivers again from there (so, like
 * Lambda's bisect-free retry, later batches wait).
 */
async function filtered(spec: StreamConsumerSpec, bundles?: Record<string, string>): Promise<StreamConsumer> {
  const fn = await loadConsumer<StreamFn>(spec, bundles)
  return {
    name: spec.functionId,
    handler: async (event) => {
      const { batchSize } = spec.trigger
      const records = event.Records.filter((r) => matches(spec.trigger, r))
      for (let i = 0; i < records.length; i += batchSize) {
        const slice = records.slice(i, i + batchSize)
        let failedId: string | undefined
        try {
          const result = await asFunction(spec.functionId, () =>
            fn({ Records: slice }, lambdaContext(spec.functionId, spec.timeoutSeconds)),
          )
          failedId = result?.batchItemFailures?.[0]?.itemIdentifier
        } catch {
          failedId = slice[0]!.dynamodb?.SequenceNumber
        }
        if (failedId !== undefined) return { batchItemFailures: [{ itemIdentifier: failedId }] }
      }
      return { batchItemFailures: [] }
    },
  }
}
