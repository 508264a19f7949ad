import { inMode, modeOfKey, parseMode } from '#lib/platform/mode.ts'
import { MODE_FIELD } from './queue.ts'
import type { AttributeValue } from '@aws-sdk/client-dynamodb'
import { unmarshall } from '@aws-sdk/util-dynamodb'
import type { DynamoDBBatchResponse, DynamoDBStreamEvent, SQSBatchResponse, SQSEvent } from 'aws-lambda'
import { logger } from '#lib/platform/log.ts'

/**
 * The two shapes of consumer handler (lib/service/consumers.ts), with partial batch failure reporting:
 * only the records that failed are retried, not the whole batch.
 */

/**
 * Each newly inserted item `accepts` takes goes to `process`, in stream order, in the mode its key
 * carries (lib/platform/mode.ts): whatever the consumer reads or writes for a test-mode item is test-mode too. At the first failure
 * it stops and reports that record: the stream resends from there (so order is kept per item key)
 * and the records after it are not processed twice in the meantime.
 */
export function streamHandler(
  name: string,
  accepts: (item: Record<string, unknown>) => boolean,
  process: (item: Record<string, unknown>) => Promise<unknown>,
) {
  return async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    for (const record of event.Records) {
      const image = record.dynamodb?.NewImage
      if (record.eventName !== 'INSERT' || !image) continue
      const item = unmarshall(image as Record<string, AttributeValue>)
      if (!accepts(item)) continue
      try {
        await inMode(modeOfKey(String(item.pk)), () => process(item))
      } catch (error) {
        logger.error(`${name}: record failed; the stream will retry it`, { pk: item.pk, error })
        return { batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' }] }
      }
    }
    return { batchItemFailures: [] }
  }
}

/**
 * Each message's JSON body goes to `process`, all at once, in the mode it was sent in (sendMessage
 * stamps it); the failed ones are reported.
 */
export function queueHandler<T>(name: string, process: (message: T) => Promise<unknown>) {
  return async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const results = await Promise.allSettled(
      event.Records.map((r) => {
        const { [MODE_FIELD]: mode, ...message } = JSON.parse(r.body) as Record<string, unknown>
        return inMode(parseMode(mode) ?? 'live', () => process(message as T))
      }),
    )
    const batchItemFailures: SQSBatchResponse['batchItemFailures'] = []
    results.forEach((result, i) => {
      if (result.status === 'rejected') {
        logger.error(`${name}: message failed; the queue will deliver it again`, {
          messageId: event.Records[i]!.messageId,
          error: result.reason,
        })
        batchItemFailures.push({ itemIdentifier: event.Records[i]!.messageId })
      }
    })
    return { batchItemFailures }
  }
}
