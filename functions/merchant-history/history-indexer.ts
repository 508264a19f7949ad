import type { AttributeValue } from '@aws-sdk/client-dynamodb'
import { unmarshall } from '@aws-sdk/util-dynamodb'
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda'
import { BANK_REQUEST_PREFIX } from '#lib/db/keys.ts'
import type { TransferRecord } from '#lib/ledger/repository.ts'
import { logger } from '#lib/log.ts'
import { indexTransfers, isTransferRecord } from '#lib/merchant-history/indexer.ts'

/**
 * The table's stream (NEW_IMAGE) -> the merchants' histories (lib/merchant-history/indexer.ts). Each
 * transfer record inserted, and each one modified to REVERSED, is recorded in its merchant's history;
 * records of a merchant that could not be recorded are reported (ReportBatchItemFailures), so the
 * stream delivers them again; doing it twice changes nothing.
 */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const transfers: { record: TransferRecord; sequence: string }[] = []
  for (const record of event.Records) {
    const image = record.dynamodb?.NewImage
    if (!image || record.eventName === 'REMOVE') continue
    // Only bank request records are the indexer's (the event source's filter in AWS says the same):
    // judged by the key before anything else is read, so no other item's image can fail the batch.
    if (!record.dynamodb?.Keys?.pk?.S?.startsWith(BANK_REQUEST_PREFIX)) continue
    const item = unmarshall(image as Record<string, AttributeValue>)
    if (!isTransferRecord(item)) continue
    transfers.push({
      record: item as TransferRecord,
      sequence: record.dynamodb?.SequenceNumber ?? record.eventID ?? '',
    })
  }
  if (!transfers.length) return { batchItemFailures: [] }
  const { failed } = await indexTransfers(transfers.map((t) => t.record))
  for (const [merchantId, error] of failed)
    logger.error('merchant history not recorded: the stream will deliver it again', { merchantId, error })
  return {
    batchItemFailures: transfers
      .filter((t) => failed.has(t.record.merchantId))
      .map((t) => ({ itemIdentifier: t.sequence })),
  }
}
