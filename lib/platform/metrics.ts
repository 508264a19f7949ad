import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics'

/**
 * CloudWatch metrics in the Embedded Metric Format (Powertools Metrics): each metric is one JSON line
 * on stdout, which Lambda's log agent turns into a metric, so publishing costs no API call and no
 * permission. Namespace `Einvoicing`, dimension `service` on every metric (Powertools' default).
 *
 * POWERTOOLS_METRICS_DISABLED=true turns them off (the test run and `npm start` do, unless a test
 * wants to read them).
 */
export const METRICS_NAMESPACE = 'Einvoicing'

/** The metric names, as the dashboard and docs/operations.md use them. */
export const METRIC = {
  /** Every API request: dimensions route, statusClass (2xx..5xx). */
  requests: 'Requests',
  /** Requests refused by authentication or authorisation: dimensions scheme, reason. */
  refusals: 'Refusals',
  /** Invoice validations and signings: dimension outcome (accepted, rejected). */
  invoices: 'Invoices',
  /** Rules an invoice broke: dimension ruleCode, one per code of a rejected invoice. */
  invoiceRuleFailures: 'InvoiceRuleFailures',
  /** Transfers and reversals: dimensions operation, responseCode. */
  transactions: 'Transactions',
} as const

let instance: Metrics | undefined

/** Made on first use, like the logger: the environment (disabled, service name) is read then. */
function current(): Metrics {
  instance ??= new Metrics({
    namespace: METRICS_NAMESPACE,
    serviceName: process.env.SERVICE_NAME ?? 'einvoicing-api',
  })
  return instance
}

/** One metric, written at once with its own dimensions (besides `service`). */
export function countMetric(name: string, dimensions: Record<string, string>, value = 1): void {
  const single = current().singleMetric()
  for (const [key, dimension] of Object.entries(dimensions)) single.addDimension(key, dimension)
  single.addMetric(name, MetricUnit.Count, value)
}

/** Powertools' `ColdStart` metric (dimension function_name), once per container. */
export function countColdStart(functionName: string): void {
  current().captureColdStartMetric(functionName)
}
