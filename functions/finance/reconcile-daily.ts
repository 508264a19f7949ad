import { reconcile } from '#lib/finance/reconcile.ts'
import { RECONCILIATION_METRIC } from '#lib/finance/reconcile-metric.ts'
import { logger } from '#lib/platform/log.ts'
import { countMetric } from '#lib/platform/metrics.ts'

/**
 * Run daily by EventBridge Scheduler (its declaration in lib/service/consumers.ts): the same reconcile() as
 * `npm run cli -- ledger reconcile`. Publishes the number of differences (the alarm fires on any, and
 * on a day with no figure at all) and logs each difference; it writes nothing to the table.
 */
export async function handler(): Promise<{ differences: number }> {
  const report = await reconcile({ segments: 8 })
  const { differences, ...counts } = report
  for (const d of differences) {
    logger.error('reconciliation difference', { subject: d.subject, difference: d.message })
  }
  logger.info('reconciliation finished', { ...counts, differences: differences.length })
  countMetric(RECONCILIATION_METRIC, {}, differences.length)
  return { differences: differences.length }
}
