import { logger } from '#lib/platform/log.ts'
import { countMetric } from '#lib/platform/metrics.ts'
import { GAPS_OVERDUE_METRIC, type WatchReport, watchChains } from '#lib/receipts/events-chain-watch.ts'

/**
 * Run every 15 minutes by EventBridge Scheduler (lib/service/consumers.ts), and on the local workers'
 * timer: chain.gap_overdue and device.silent for every watched device. Publishes the overdue gaps it
 * saw (the operator's alarm fires on any, and on a period with no figure).
 */
export async function handler(): Promise<WatchReport> {
  const report = await watchChains()
  if (report.gapsOverdue) logger.warn('receipt chains with overdue gaps', { ...report })
  countMetric(GAPS_OVERDUE_METRIC, {}, report.gapsOverdue)
  return report
}
