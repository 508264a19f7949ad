import { QueryCommand } from '@aws-sdk/lib-dynamodb'
import { db, tableName } from '#lib/platform/db/client.ts'
import { recordOf } from '#lib/platform/db/items.ts'
import { withAttributes } from '#lib/platform/db/index-reads.ts'
import { LISTED } from '#lib/platform/db/table.ts'
import { keys } from '#lib/platform/db/keys.ts'
import type { Delivery } from './delivery-records.ts'
import { attemptMessage, queueAttempt } from './delivery-worker.ts'
import { MAX_SUBSCRIPTIONS, subscriptionPage } from './subscriptions.ts'

/**
 * After a test clock advance (lib/platform/test-clock.ts): every PENDING test-mode delivery of the business whose next attempt is
 * now due in test time is queued at once (delay 0), to the same queue and the same delivery worker
 * that run every attempt (lib/webhooks/delivery-worker.ts), which judges due-ness on the test clock itself.
 * The sweep only saves the wait: a delivery it leaves out (past the bound) is still attempted when its
 * own delayed message arrives, at most 15 minutes later, and found due then. A message it queues for
 * an attempt another message also carries is harmless: the attempt count and the claim let one run.
 *
 * Bounded per call: a page of subscriptions (live ones only: a deleted one moves out of their
 * prefix), and SWEEP_LIMIT due deliveries of each.
 */
export const SWEEP_LIMIT = 100

export async function queueDueDeliveries(businessId: string, testNowMs: number): Promise<number> {
  const { subscriptions } = await subscriptionPage(businessId, MAX_SUBSCRIPTIONS * 4)
  const now = new Date(testNowMs).toISOString()
  const queued = await Promise.all(
    subscriptions
      .filter((s) => s.status !== 'DELETED')
      .map(async (s) => {
        // The subscription's PENDING listing (its own index partition): the due ones only.
        const out = await db().send(
          new QueryCommand({
            TableName: tableName(),
            IndexName: 'gsi1',
            KeyConditionExpression: 'gsi1pk = :pk',
            FilterExpression: 'nextAttemptAt <= :now',
            ExpressionAttributeValues: {
              ':pk': keys.webhookDeliveryStatusPartition(s.id, 'PENDING'),
              ':now': now,
            },
            Limit: SWEEP_LIMIT,
          }),
        )
        const listed = await withAttributes<Record<string, unknown>>('gsi1', LISTED.delivery, out.Items ?? [])
        const due = listed.map((item) => recordOf<Delivery>(item))
        await Promise.all(due.map((d) => queueAttempt(attemptMessage(d, d.attempts))))
        return due.length
      }),
  )
  return queued.reduce((a, b) => a + b, 0)
}
