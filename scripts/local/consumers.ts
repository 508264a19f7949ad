import { randomUUID } from 'node:crypto'
import { pathToFileURL } from 'node:url'
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda'
import {
  consumers,
  HISTORY_INDEXER,
  type StreamConsumer as StreamConsumerSpec,
} from '#lib/service/consumers.ts'
import { asFunction } from './iam.ts'
import type { StreamConsumer } from './stream-drive.ts'

/**
 * The stream consumers the local stream drive runs: the same handler modules the CDK stack subscribes
 * to the table's stream (infra/constructs/history-indexer.ts, and infra/constructs/consumers.ts for
 * those of lib/service/consumers.ts), or with `bundles` their Lambda bundles (`npm start -- --bundles`).
 * `only` (function ids) picks some of them; all by default.
 */
export async function localStreamConsumers(
  only?: string[],
  bundles?: Record<string, string>,
): Promise<StreamConsumer[]> {
  const wanted = (id: string) => !only || only.includes(id)
  const out: StreamConsumer[] = []
  if (wanted(HISTORY_INDEXER.functionId)) {
    const handler = await loadConsumer<StreamFn>(HISTORY_INDEXER, bundles)
    // Each invocation with the function's role (scripts/local/iam.ts), as every consumer below.
    out.push({
      name: HISTORY_INDEXER.functionId,
      handler: (event) =>
        asFunction(HISTORY_INDEXER.functionId, () =>
          handler(event, lambdaContext(HISTORY_INDEXER.functionId, HISTORY_INDEXER.timeoutSeconds)),
        ),
    })
  }
  for (const spec of consumers) {
    if (spec.kind === 'stream' && wanted(spec.functionId)) out.push(await filtered(spec, bundles))
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

/** The event source mapping's filter (infra/constructs/consumers.ts builds the same one). */
function matches(spec: StreamConsumerSpec, record: DynamoDBRecord): boolean {
  if (record.eventName !== 'INSERT') return false
  const keys = record.dynamodb?.Keys
  return Boolean(keys?.pk?.S?.startsWith(spec.prefix) && (spec.sk === undefined || keys.sk?.S === spec.sk))
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
 * A consumer of lib/service/consumers.ts as its event source mapping sees the stream: only the records its
 * filter takes, in batches of its batchSize. The first failed record is reported back to the drive,
 * which delivers again from there (so, like Lambda's bisect-free retry, later batches wait).
 */
async function filtered(spec: StreamConsumerSpec, bundles?: Record<string, string>): Promise<StreamConsumer> {
  const fn = await loadConsumer<StreamFn>(spec, bundles)
  return {
    name: spec.functionId,
    handler: async (event) => {
      const records = event.Records.filter((r) => matches(spec, r))
      for (let i = 0; i < records.length; i += spec.batchSize) {
        const slice = records.slice(i, i + spec.batchSize)
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
