import { readRecord } from '#lib/platform/db/items.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { AGAIN, withRetries } from '#lib/platform/db/retry.ts'
import { writeIf } from '#lib/platform/db/write.ts'
import { type ChainRecord, emptyChain } from './chain.ts'

/** The device's chain item (./chain.ts), or an empty chain when none of its receipts arrived yet. */
export async function readChain(deviceId: string): Promise<ChainRecord> {
  return (
    (await readRecord<ChainRecord>(keys.receiptChain(deviceId), { consistent: true })) ?? emptyChain(deviceId)
  )
}

/**
 * Applies `change` to the device's chain: read, change (pure), put under the condition that the
 * revision is still the one read; a concurrent request's update in between means read and apply again.
 * One write per device per request, in the device's own partition.
 */
export async function updateChain(
  deviceId: string,
  change: (chain: ChainRecord) => ChainRecord,
): Promise<void> {
  await withRetries(async () => {
    const read = await readChain(deviceId)
    const next = change(read)
    if (next === read) return true
    const written = await writeIf({
      Put: {
        Item: { ...keys.receiptChain(deviceId), ...next, revision: read.revision + 1 },
        ConditionExpression: read.revision === 0 ? 'attribute_not_exists(pk)' : 'revision = :seen',
        ...(read.revision === 0 ? {} : { ExpressionAttributeValues: { ':seen': read.revision } }),
      },
    })
    return written.written ? true : AGAIN
  })
}
