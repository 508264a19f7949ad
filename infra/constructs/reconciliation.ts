import { type CfnElement, Duration, type RemovalPolicy, Stack, TimeZone } from 'aws-cdk-lib'
import { Alarm, ComparisonOperator, Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch'
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb'
import { Effect, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam'
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs'
import { Schedule, ScheduleExpression } from 'aws-cdk-lib/aws-scheduler'
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets'
import { Construct } from 'constructs'
import { DAILY_RECONCILIATION } from '#lib/service/consumers.ts'
import { RECONCILIATION_METRIC, RECONCILIATION_NAMESPACE } from '#lib/finance/reconcile-metric.ts'
import { houseFunction } from './api-function.ts'
import { acknowledge } from './nag.ts'

export interface ReconciliationProps {
  table: ITableV2
  stage: string
  serviceName: string
  serviceVersion: string
  logRemovalPolicy: RemovalPolicy
}

/**
 * The daily reconciliation (CONTRACT section 12): EventBridge Scheduler invokes a function running
 * the CLI's reconcile() at 02:00 Lagos time, when the day before is closed. The function may only
 * scan the table. Its metric is the count of differences; the alarm fires on any difference, and on
 * a day without the figure (the run failed or did not happen), since silence proves nothing.
 */
export class Reconciliation extends Construct {
  readonly function: NodejsFunction
  readonly schedule: Schedule
  readonly alarm: Alarm

  constructor(scope: Construct, id: string, props: ReconciliationProps) {
    super(scope, id)
    this.function = houseFunction(this, {
      ...props,
      name: DAILY_RECONCILIATION.functionId,
      handler: DAILY_RECONCILIATION.handler,
      // A whole-table scan: the most memory (and so CPU and network) and time Lambda gives.
      memorySize: 3008,
      timeout: Duration.seconds(DAILY_RECONCILIATION.timeoutSeconds),
    }).function
    // reconcile() only scans the table (no index, no other action): read-only by construction.
    this.function.addToRolePolicy(
      new PolicyStatement({
        sid: 'TableScanOnly',
        effect: Effect.ALLOW,
        actions: ['dynamodb:Scan'],
        resources: [props.table.tableArn],
      }),
    )
    acknowledge(
      this,
      'Serverless-LambdaDLQ',
      "Invoked once a day by EventBridge Scheduler, without retries: a run that fails leaves the day without its figure, which the alarm treats as breaching; a dead-letter queue would hold nothing the alarm and the function's log do not show",
    )
    const schedulerRole = new Role(this, 'SchedulerRole', {
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com'),
      description: `${props.serviceName} ${props.stage}: EventBridge Scheduler invokes reconcile-daily`,
    })
    const functionLogicalId = Stack.of(this).getLogicalId(this.function.node.defaultChild as CfnElement)
    acknowledge(
      schedulerRole,
      `AwsSolutions-IAM5[Resource::<${functionLogicalId}.Arn>:*]`,
      "LambdaInvoke's grant: invoke this one function, in any of its versions (`<arn>:*`)",
    )

    this.schedule = new Schedule(this, 'Daily', {
      description: `${props.serviceName} ${props.stage}: reconcile the ledger, histories and daily totals`,
      schedule: ScheduleExpression.cron({ minute: '0', hour: '2', timeZone: TimeZone.AFRICA_LAGOS }),
      // One attempt: a second run while the first still scans would only double the read cost.
      target: new LambdaInvoke(this.function, { retryAttempts: 0, role: schedulerRole }),
    })

    this.alarm = new Alarm(this, 'Differences', {
      alarmDescription:
        'Reconciliation found differences between balances, transfers, histories or daily totals (see the reconcile-daily log), or did not report today',
      metric: new Metric({
        namespace: RECONCILIATION_NAMESPACE,
        metricName: RECONCILIATION_METRIC,
        dimensionsMap: { service: props.serviceName },
        statistic: 'Maximum',
        period: Duration.days(1),
      }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.BREACHING,
    })
  }
}
