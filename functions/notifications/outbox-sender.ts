import type { AttributeValue } from '@aws-sdk/client-dynamodb'
import { unmarshall } from '@aws-sdk/util-dynamodb'
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda'
import { logger } from '#lib/platform/log.ts'
import { inMode, modeOfKey } from '#lib/platform/mode.ts'
import { isOutboxItem, type OutboxItem } from '#lib/notifications/outbox.ts'
import { deliver, emailSenderFromEnv } from '#lib/notifications/sender.ts'

/**
 * The table's stream (NEW_IMAGE) -> outcome notifications. Each newly inserted outbox item is sent to
 * the admin e-mail list (SES when SES_FROM_ADDRESS is set, the log otherwise) and marked SENT exactly
 * once, however often the stream delivers it. Failures are reported per record (ReportBatchItemFailures)
 * so only those are retried.
 */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const batchItemFailures: DynamoDBBatchResponse['batchItemFailures'] = []
  const sender = emailSenderFromEnv()
  for (const record of event.Records) {
    const image = record.dynamodb?.NewImage
    if (record.eventName !== 'INSERT' || !image) continue
    const item = unmarshall(image as Record<string, AttributeValue>)
    if (!isOutboxItem(item)) continue
    try {
      // In the item's mode: a test-mode notification is marked, never e-mailed (lib/notifications/sender.ts).
      const outcome = await inMode(modeOfKey(String(item.pk)), () => deliver(item as OutboxItem, sender))
      logger.info('outbox item delivered', {
        providerReference: item.providerReference,
        outcome,
        sender: sender.name,
      })
    } catch (error) {
      logger.error('outbox item not sent: the stream will retry it', {
        providerReference: item.providerReference,
        error,
      })
      batchItemFailures.push({ itemIdentifier: record.dynamodb?.SequenceNumber ?? record.eventID ?? '' })
    }
  }
  return { batchItemFailures }
}
