import { METRICS_NAMESPACE } from '#lib/platform/metrics.ts'

/**
 * The metric the daily reconciliation publishes (lib/platform/metrics.ts: EMF, namespace `Einvoicing`,
 * dimension `service`) and the stack alarms on: the number of differences found, 0 on a good day.
 * Shared by the function and the CDK construct so the two cannot name different metrics.
 */
export const RECONCILIATION_NAMESPACE = METRICS_NAMESPACE
export const RECONCILIATION_METRIC = 'ReconciliationDifferences'
