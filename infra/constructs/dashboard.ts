import { Duration } from 'aws-cdk-lib'
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2'
import {
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  type Metric,
  TextWidget,
} from 'aws-cdk-lib/aws-cloudwatch'
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb'
import type { IFunction } from 'aws-cdk-lib/aws-lambda'
import { Construct } from 'constructs'
import { METRIC, METRICS_NAMESPACE } from '#lib/platform/metrics.ts'

export interface ServiceDashboardProps {
  stage: string
  serviceName: string
  api: HttpApi
  /** By name: every API function and every consumer. */
  functions: ReadonlyMap<string, IFunction>
  table: ITableV2
}

const period = Duration.minutes(5)

/**
 * One CloudWatch dashboard per stage: the API, the functions, the table and the business metrics
 * (lib/platform/metrics.ts). Business metrics are drawn with SEARCH, so new routes, reasons and codes appear
 * without a deploy.
 */
export class ServiceDashboard extends Construct {
  readonly dashboard: Dashboard

  constructor(scope: Construct, id: string, props: ServiceDashboardProps) {
    super(scope, id)
    const fns = [...props.functions.entries()]
    const perFunction = (metric: (fn: IFunction) => Metric): IMetric[] =>
      fns.map(([label, fn]) => metric(fn).with({ label, period }))
    const search = (metricName: string, dimensions: string[], label: string) =>
      new MathExpression({
        expression: `SEARCH('{${METRICS_NAMESPACE},${['service', ...dimensions].join(',')}} MetricName="${metricName}" service="${props.serviceName}"', 'Sum', 300)`,
        label,
        period,
      })
    const wide = { width: 12, height: 6 }

    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: `einvoicing-${props.stage}`,
      defaultInterval: Duration.hours(3),
      widgets: [
        [
          new TextWidget({
            markdown: `# E-invoicing ${props.stage}\nAlarms and what to do: docs/operations.md`,
            width: 24,
            height: 1,
          }),
        ],
        [
          new GraphWidget({
            title: 'API requests, 4xx, 5xx',
            left: [
              props.api.metricCount({ period, statistic: 'Sum' }),
              props.api.metricClientError({ period, statistic: 'Sum' }),
              props.api.metricServerError({ period, statistic: 'Sum' }),
            ],
            ...wide,
          }),
          new GraphWidget({
            title: 'API latency (p50, p99)',
            left: [
              props.api.metricLatency({ period, statistic: 'p50' }),
              props.api.metricLatency({ period, statistic: 'p99' }),
              props.api.metricIntegrationLatency({ period, statistic: 'p99' }),
            ],
            ...wide,
          }),
        ],
        [
          new GraphWidget({
            title: 'Function errors',
            left: perFunction((fn) => fn.metricErrors({ statistic: 'Sum' })),
            ...wide,
          }),
          new GraphWidget({
            title: 'Function duration p99 (ms)',
            left: perFunction((fn) => fn.metricDuration({ statistic: 'p99' })),
            ...wide,
          }),
        ],
        [
          new GraphWidget({
            title: 'Function throttles',
            left: perFunction((fn) => fn.metricThrottles({ statistic: 'Sum' })),
            ...wide,
          }),
          new GraphWidget({
            title: 'Table: throttle events, user errors; consumed capacity',
            left: [
              props.table.metric('ReadThrottleEvents', { period, statistic: 'Sum' }),
              props.table.metric('WriteThrottleEvents', { period, statistic: 'Sum' }),
              props.table.metricUserErrors({ period, statistic: 'Sum' }),
            ],
            right: [
              props.table.metricConsumedReadCapacityUnits({ period, statistic: 'Sum' }),
              props.table.metricConsumedWriteCapacityUnits({ period, statistic: 'Sum' }),
            ],
            ...wide,
          }),
        ],
        [
          new GraphWidget({
            title: 'Requests by route and status class',
            left: [search(METRIC.requests, ['route', 'statusClass'], 'requests')],
            ...wide,
          }),
          new GraphWidget({
            title: 'Refusals by scheme and reason',
            left: [search(METRIC.refusals, ['scheme', 'reason'], 'refusals')],
            ...wide,
          }),
        ],
        [
          new GraphWidget({
            title: 'Invoices by outcome; rule failures by code',
            left: [search(METRIC.invoices, ['outcome'], 'invoices')],
            right: [search(METRIC.invoiceRuleFailures, ['ruleCode'], 'rule failures')],
            ...wide,
          }),
          new GraphWidget({
            title: 'Transfers and reversals by response code; cold starts',
            left: [search(METRIC.transactions, ['operation', 'responseCode'], 'transactions')],
            right: [
              new MathExpression({
                expression: `SEARCH('{${METRICS_NAMESPACE},function_name,service} MetricName="ColdStart"', 'Sum', 300)`,
                label: 'cold starts',
                period,
              }),
            ],
            ...wide,
          }),
        ],
      ],
    })
  }
}
