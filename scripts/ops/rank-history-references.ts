import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { TEST_MARK } from '#lib/platform/mode.ts'
import { scanPages } from '#lib/platform/db/query.ts'
import { referenceHeadOf } from '#lib/merchant-history/items.ts'

/**
 * The one-off backfill of merchant reference numbering (docs/history-and-finance.md, "Reference"):
 * `npm run cli -- history rank-references`. History items recorded before references were numbered
 * have the bare `<seqAll>` as their reference sort key (gsi3sk) and are not counted by any reference
 * counter; until they are ranked, a lookup of their reference reads the whole reference as before.
 * This gives them, reference by reference and oldest first, the sort keys `L#1`, `L#2`... and sets
 * the reference counter's `legacy` to how many there are: they then sort before every ranked `R#`
 * item (they are older), and page N of the reference is a key range again.
 *
 * Each transaction moves up to 99 items and the counter together (the counter's condition says the
 * `legacy` it read, each item's that its key is still the bare one), so the job can stop anywhere and
 * be run again; a second run finds nothing left. Live indexing goes on meanwhile: it only sets the
 * counter's `all` and writes `R#` keys.
 */
export interface RankReport {
  references: number
  items: number
}

interface Unranked {
  pk: string
  sk: string
  gsi3sk: string
  seqAll: number
  merchantId: string
  merchantReference: string
}

/** Items moved per transaction, with the counter: DynamoDB's 100 actions. */
const CHUNK = 99

export async function rankHistoryReferences(
  options: { merchantId?: string; onProgress?: (report: RankReport, references: number) => void } = {},
): Promise<RankReport> {
  const byReference = new Map<string, Unranked[]>()
  for await (const page of scanPages({
    // Live items only: test-mode histories began after the numbering, so every item of theirs is ranked,
    // and this command writes live keys (lib/platform/mode.ts).
    FilterExpression: `entity = :txn AND NOT begins_with(pk, :test) AND NOT begins_with(gsi3sk, :legacy) AND NOT begins_with(gsi3sk, :ranked)${options.merchantId ? ' AND merchantId = :merchant' : ''}`,
    ExpressionAttributeValues: {
      ':txn': 'MERCHANT_TXN',
      ':test': `MHIST#${TEST_MARK}`,
      ':legacy': 'L#',
      ':ranked': 'R#',
      ...(options.merchantId ? { ':merchant': options.merchantId } : {}),
    },
    ProjectionExpression: 'pk, sk, gsi3sk, seqAll, merchantId, merchantReference',
  })) {
    for (const item of (page.Items ?? []) as Unranked[]) {
      const id = JSON.stringify([item.merchantId, item.merchantReference])
      byReference.set(id, [...(byReference.get(id) ?? []), item])
    }
  }
  const report: RankReport = { references: 0, items: 0 }
  for (const items of byReference.values()) {
    items.sort((a, b) => a.seqAll - b.seqAll)
    for (let i = 0; i < items.length; i += CHUNK) {
      await rankChunk(items.slice(i, i + CHUNK))
      report.items += Math.min(CHUNK, items.length - i)
    }
    report.references++
    options.onProgress?.(report, byReference.size)
  }
  return report
}

/** Ranks one run of a reference's items after the ones ranked before (the counter's `legacy`). */
async function rankChunk(chunk: Unranked[]): Promise<void> {
  const { merchantId, merchantReference } = chunk[0]!
  const counterKey = keys.historyReferenceHead(merchantId, merchantReference)
  const stored = (
    await db().send(new GetCommand({ TableName: tableName(), Key: counterKey, ConsistentRead: true }))
  ).Item
  const before = referenceHeadOf(stored).legacy
  const from = before ?? 0
  await db().send(
    new TransactWriteCommand({
      TransactItems: [
        ...chunk.map((item, i) => ({
          Update: {
            TableName: tableName(),
            Key: { pk: item.pk, sk: item.sk },
            UpdateExpression: 'SET gsi3sk = :ranked',
            ConditionExpression: 'gsi3sk = :bare',
            ExpressionAttributeValues: {
              ':ranked': keys.historyReferenceLegacyKey(from + i + 1),
              ':bare': item.gsi3sk,
            },
          },
        })),
        {
          Update: {
            TableName: tableName(),
            Key: counterKey,
            UpdateExpression:
              'SET legacy = :legacy, entity = :entity, merchantId = :merchant, merchantReference = :ref',
            ConditionExpression: before === undefined ? 'attribute_not_exists(legacy)' : 'legacy = :before',
            ExpressionAttributeValues: {
              ':legacy': from + chunk.length,
              ':entity': 'MERCHANT_HISTORY_REFERENCE',
              ':merchant': merchantId,
              ':ref': merchantReference,
              ...(before === undefined ? {} : { ':before': before }),
            },
          },
        },
      ],
    }),
  )
}
