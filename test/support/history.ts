import { keys } from '#lib/platform/db/keys.ts'
import { queryAll } from '#lib/platform/db/query.ts'
import { STRIPES } from '#lib/merchant-history/items.ts'

/**
 * Every item of a merchant's ALL list as stored (strongly consistent), for tests that check the
 * numbering itself: every seqAll, seqOk and seqFailed, which the API's pages only show in part.
 * From every stripe, in seqAll order.
 */
export async function storedHistory(merchantId: string) {
  const stripes = await Promise.all(
    Array.from({ length: STRIPES }, (_, stripe) =>
      queryAll<Record<string, any>>({
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :txn)',
        ExpressionAttributeValues: { ':pk': keys.historyListPartition(merchantId, stripe), ':txn': 'TXN#' },
        ConsistentRead: true,
      }),
    ),
  )
  return stripes.flat().sort((a, b) => a.seqAll - b.seqAll)
}

/** The numbers 1..n, and numbers in ascending order: what a dense numbering is compared with. */
export const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1)
export const ascending = (values: number[]) => [...values].sort((a, b) => a - b)
