import type { AttributeValue } from '@aws-sdk/client-dynamodb'
import { unmarshall } from '@aws-sdk/util-dynamodb'
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda'
import { BANK_REQUEST_PREFIX } from '#lib/platform/db/keys.ts'
import { logger } from '#lib/platform/log.ts'
import { type IndexedTransfer, indexTransfers, isTransferRecord } from '#lib/merchant-history/indexer.ts'
import { inMode, type Mode, modeOfKey } from '#lib/platform/mode.ts'

/**
 * The table's stream (NEW_IMAGE) -> the merchants' histories (lib/merchant-history/indexer.ts). Each
 * transfer record inserted, and each one modified to REVERSED, is recorded in its merchant's history;
 * records of a merchant that could not be recorded are reported (ReportBatchItemFailures), so the
 * stream delivers them again; doing it twice changes nothing.
 */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const transfers: { record: IndexedTransfer; sequence: string; mode: Mode }[] = []
  for (const record of event.Records) {
    const image = record.dynamodb?.NewImage
    if (!image || record.eventName === 'REMOVE') continue
    // Only bank request records are the indexer's (the event source's filter in AWS says the same):
    // judged by the key before anything else is read, so no other item's image can fail the batch.
    if (!record.dynamodb?.Keys?.pk?.S?.startsWith(BANK_REQUEST_PREFIX)) continue
    const item = unmarshall(image as Record<string, AttributeValue>)
    if (!isTransferRecord(item)) continue
    transfers.push({
      record: item as IndexedTransfer,
      sequence: record.dynamodb?.SequenceNumber ?? record.eventID ?? '',
      // A test-mode transfer goes into its merchant's test-mode history (lib/platform/mode.ts).
      mode: modeOfKey(String(item.pk)),
    })
  }
  if (!transfers.length) return { batchItemFailures: [] }
  const failures: DynamoDBBatchResponse['batchItemFailures'] = []
  for (const mode of new Set(transfers.map((t) => t.mode))) {
    const inThisMode = transfers.filter((t) => t.mode === mode)
    const { failed } = await inMode(mode, () => indexTransfers(inThisMode.map((t) => t.record)))
    for (const [merchantId, error] of failed)
      logger.error('merchant history not recorded: the stream will deliver it again', {
        merchantId,
        mode,
        error,
      })
    for (const t of inThisMode)
      if (failed.has(t.record.merchantId)) failures.push({ itemIdentifier: t.sequence })
  }
  return { batchItemFailures: failures }
}
