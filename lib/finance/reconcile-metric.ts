/**
 * The metric the daily reconciliation publishes (CloudWatch embedded metric format, through
 * Powertools Metrics) and the stack alarms on: the number of differences found, 0 on a good day.
 * Shared by the function and the CDK construct so the two cannot name different metrics.
 */
export const RECONCILIATION_NAMESPACE = 'Einvoicing/Finance'
export const RECONCILIATION_METRIC = 'ReconciliationDifferences'
