import { logger } from '#lib/platform/log.ts'
import { countMetric } from '#lib/platform/metrics.ts'
import { OVERDUE_METRIC, type SweepReport, sweepOverdueDeliveries } from '#lib/webhooks/overdue-sweep.ts'

/**
 * Run every 5 minutes by EventBridge Scheduler (its declaration in lib/service/consumers.ts), and on
 * the local workers' timer: every PENDING webhook delivery overdue past the bound queued again.
 * Publishes how many it found (the alarm fires on any, and on a period with no figure at all).
 */
export async function handler(): Promise<SweepReport> {
  const report = await sweepOverdueDeliveries()
  if (report.requeued) logger.warn('webhook deliveries overdue: their attempts queued again', { ...report })
  countMetric(OVERDUE_METRIC, {}, report.requeued)
  return report
}
