import { tableName } from '#lib/platform/db/client.ts'
import { transact } from '#lib/platform/db/transact.ts'
import { logger } from '#lib/platform/log.ts'
import { adminNoticeItem } from '#lib/notifications/outbox.ts'
import { type AttemptLog, type Delivery, outcomeUpdate } from './delivery-records.ts'
import { disableSubscriptionItem, markFailing, type Subscription } from './subscriptions.ts'

/**
 * Endpoint health (CONTRACT 21): a subscription whose attempts have all failed for the health window
 * (5 days by default; WEBHOOK_DISABLE_AFTER_HOURS replaces it) is DISABLED. The window opens at the
 * first failed attempt after a success (`failingSince`, in the delivery's clock: the business's test
 * clock in test mode, so advancing it drives this) and a delivered attempt closes it. Disabling records
 * the attempt FAILED, marks the subscription and writes the admin list's notice in one transaction,
 * conditional on the window it saw, so the notice is written once per disabling. From then on the
 * fan-out makes no deliveries for it and pending ones stop at their next attempt, until
 * POST /api/v1/webhooks/{id}/enable; a recovery then sends what it missed.
 */
const DEFAULT_HOURS = 5 * 24

/** The health window in milliseconds. */
export function disableAfterMs(env: NodeJS.ProcessEnv = process.env): number {
  const hours = Number(env.WEBHOOK_DISABLE_AFTER_HOURS)
  return (Number.isFinite(hours) && hours > 0 ? hours : DEFAULT_HOURS) * 3_600_000
}

/** The outbox reference of a subscription's disabled notice (one per disabling). */
export const disabledNoticeReference = (subscriptionId: string, at: string) =>
  `WEBHOOK-DISABLED-${subscriptionId}-${at}`

/**
 * After a failed attempt: opens the failure window if none is open, or disables the subscription when
 * the window has lasted long enough. True when it disabled it (the attempt is then recorded FAILED
 * here, and nothing more is to be done for this delivery).
 */
export async function disabledAfterFailure(
  subscription: Subscription,
  d: Delivery,
  entry: AttemptLog,
): Promise<boolean> {
  const since = subscription.failingSince
  if (!since) {
    await markFailing(subscription, entry.at)
    return false
  }
  if (Date.parse(entry.at) - Date.parse(since) < disableAfterMs()) return false
  const notice = adminNoticeItem({
    reference: disabledNoticeReference(subscription.id, entry.at),
    createdAt: entry.at,
    subject: `Webhook subscription ${subscription.id} of business ${subscription.businessId} DISABLED`,
    body: [
      `Webhook subscription ${subscription.id} of business ${subscription.businessId} has failed every delivery since ${since} and is now DISABLED (${entry.at}).`,
      `The last attempt (event ${d.eventId}, ${d.eventType}) got ${entry.error ?? 'no answer'}.`,
      'No deliveries are made to it until it is enabled: POST /api/v1/webhooks/{id}/enable. Then POST /api/v1/webhooks/{id}/recover {since} sends every event it missed, with their original webhook-id.',
    ].join('\n'),
  })
  const outcome = await transact({
    delivery: { Update: outcomeUpdate(d, { status: 'FAILED', entry }) },
    subscription: disableSubscriptionItem(subscription, since, entry.at),
    notice: {
      Put: { TableName: tableName(), Item: notice, ConditionExpression: 'attribute_not_exists(pk)' },
    },
  })
  if (outcome.ok) {
    logger.warn('webhook subscription disabled after its failure window: admin list notified', {
      subscriptionId: subscription.id,
      failingSince: since,
    })
    return true
  }
  // Another worker recorded this attempt, or the window closed (a success) or the subscription moved
  // on meanwhile: the attempt goes on as any failed one.
  if (outcome.failed.includes('delivery')) return true
  if (outcome.failed.includes('subscription') || outcome.failed.includes('notice')) return false
  throw outcome.error
}
