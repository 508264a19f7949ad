import { Aspects, CfnOutput, Duration, type RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib'
import { DomainName, HttpApi, PayloadFormatVersion } from 'aws-cdk-lib/aws-apigatewayv2'
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations'
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager'
import {
  Alarm,
  ComparisonOperator,
  type IMetric,
  MathExpression,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch'
import { type ITableV2, Operation } from 'aws-cdk-lib/aws-dynamodb'
import type { IKey } from 'aws-cdk-lib/aws-kms'
import { Function as LambdaFunction, type IFunction } from 'aws-cdk-lib/aws-lambda'
import type { RetentionDays } from 'aws-cdk-lib/aws-logs'
import type { ITopic } from 'aws-cdk-lib/aws-sns'
import type { Construct } from 'constructs'
import { UNROUTED } from '#lib/service/routes.ts'
import { AlarmsNotify } from '../constructs/alarms.ts'
import { ApiFunction, physicalFunctionName } from '../constructs/api-function.ts'
import { ServiceDashboard } from '../constructs/dashboard.ts'
import { acknowledge } from '../constructs/nag.ts'
import { constructId, NO_AUTHORIZER_REASON, type ServiceInfo } from './service.ts'

export interface EdgeStackProps extends StackProps, ServiceInfo {
  stage: string
  table: ITableV2
  /** Every function is told the data key (DATA_KEY_ARN); the catch-all is granted nothing on it. */
  dataKey?: IKey
  /** The stage's settings (infra/stages/<stage>.json): what the catch-all's log group keeps, and how long. */
  logRetention: RetentionDays
  logRemovalPolicy: RemovalPolicy
  clientLimits: { quota: number; windowSeconds: number }
  /** The stage's custom domain (the certificate must be in the stack's region); its mapping is the stage stack's. */
  domain?: { name: string; certificateArn: string }
  /** The stage's alarm topic (DataStack's): every alarm notifies it. */
  alarmTopic: ITopic
  /**
   * Every function of the stage by functionId, the dashboard's lines. By name only: the functions
   * live in the area stacks, which import the API's id from this one, so this stack must not import
   * anything from them (a cycle). Function names are fixed for that reason (physicalFunctionName).
   */
  observedFunctions: readonly string[]
}

/**
 * The stage's front door: the HTTP API, the catch-all function that answers every request no route
 * matches, the custom domain, the API-level alarms and the dashboard. The area stacks (area-stack.ts)
 * add their routes to this API; the `$default` stage, with its throttles, access logs and ApiUrl, is
 * the stage stack's (api-stage-stack.ts), deployed after them.
 */
export class EdgeStack extends Stack {
  readonly api: HttpApi
  readonly domain?: DomainName
  /** The 404/405 catch-all on `$default`. */
  readonly unrouted: ApiFunction
  readonly alarmTopic: ITopic

  constructor(scope: Construct, id: string, props: EdgeStackProps) {
    super(scope, id, props)
    this.alarmTopic = props.alarmTopic
    // Every alarm of this stack, including those other constructs add later, notifies the topic.
    Aspects.of(this).add(new AlarmsNotify(this.alarmTopic))

    // The catch-all answers 404/405 in the caller's area record; it authenticates nobody and writes nothing.
    this.unrouted = new ApiFunction(this, constructId(UNROUTED.functionId), {
      table: props.table,
      dataKey: props.dataKey,
      stage: props.stage,
      serviceName: props.serviceName,
      serviceVersion: props.serviceVersion,
      logRetention: props.logRetention,
      logRemovalPolicy: props.logRemovalPolicy,
      clientLimits: props.clientLimits,
      functionId: UNROUTED.functionId,
      handler: UNROUTED.handler,
      // No routes: it keeps the whole route table, and reads and writes nothing.
      routes: [],
    })

    this.api = new HttpApi(this, 'HttpApi', {
      apiName: `einvoicing-${props.stage}`,
      description: `E-invoicing API (${props.stage})`,
      defaultIntegration: new HttpLambdaIntegration(
        `${constructId(UNROUTED.functionId)}Integration`,
        this.unrouted.function,
        { payloadFormatVersion: PayloadFormatVersion.VERSION_2_0 },
      ),
      // The stage is the stage stack's: its route throttles need the area stacks' routes to exist.
      createDefaultStage: false,
    })
    acknowledge(this.api, 'AwsSolutions-APIG4', NO_AUTHORIZER_REASON)

    this.domain = props.domain
      ? new DomainName(this, 'DomainName', {
          domainName: props.domain.name,
          certificate: Certificate.fromCertificateArn(this, 'Certificate', props.domain.certificateArn),
        })
      : undefined

    this.apiAlarms(props.table)
    // The area stacks' functions, by their fixed names (no reference into those stacks).
    const observed = new Map<string, IFunction>(
      props.observedFunctions.map((functionId) => [
        functionId,
        LambdaFunction.fromFunctionName(
          this,
          `Observed${constructId(functionId)}`,
          physicalFunctionName(props.stage, functionId),
        ),
      ]),
    )
    observed.set(UNROUTED.functionId, this.unrouted.function)
    new ServiceDashboard(this, 'Dashboard', {
      stage: props.stage,
      serviceName: props.serviceName,
      api: this.api,
      functions: observed,
      table: props.table,
    })

    if (this.domain) {
      new CfnOutput(this, 'CustomDomainTarget', {
        description: `Point ${props.domain!.name} (CNAME or alias) at this name`,
        value: this.domain.regionalDomainName,
      })
    }
  }

  /** The stage's API and table alarms (each function has its own, in its area stack). */
  private apiAlarms(table: ITableV2): void {
    const period = Duration.minutes(5)
    const rate = (id: string, errors: 'metricServerError' | 'metricClientError', label: string) =>
      new MathExpression({
        expression: 'IF(requests > 0, 100 * errors / requests, 0)',
        usingMetrics: {
          errors: this.api[errors]({ period, statistic: 'Sum' }),
          requests: this.api.metricCount({ period, statistic: 'Sum' }),
        },
        label: `${label} (% of requests)`,
        period,
      }).createAlarm(this, id, {
        alarmDescription: `${label} above the threshold: see docs/operations.md (${id})`,
        threshold: id === 'Api5xxRate' ? 1 : 25,
        evaluationPeriods: id === 'Api5xxRate' ? 1 : 3,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      })
    rate('Api5xxRate', 'metricServerError', 'API 5xx rate: a bug, or a dependency down (503)')
    rate(
      'Api4xxRate',
      'metricClientError',
      'API 4xx rate: a broken integrator, expired credentials or probing',
    )
    const tableAlarm = (id: string, description: string, metric: IMetric) =>
      new Alarm(this, id, {
        alarmDescription: description,
        metric,
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      })
    tableAlarm(
      'TableThrottles',
      'DynamoDB throttled requests on the table (hot partition or account limit)',
      table.metricThrottledRequestsForOperations({ period, operations: SERVED_OPERATIONS }),
    )
    tableAlarm(
      'TableSystemErrors',
      'DynamoDB answered with system errors (500s on the AWS side)',
      table.metricSystemErrorsForOperations({ period, operations: SERVED_OPERATIONS }),
    )
  }
}

/** The operations the service sends (a CloudWatch alarm takes at most 10 metrics: one per operation). */
const SERVED_OPERATIONS = [
  Operation.GET_ITEM,
  Operation.BATCH_GET_ITEM,
  Operation.QUERY,
  Operation.PUT_ITEM,
  Operation.UPDATE_ITEM,
  Operation.DELETE_ITEM,
  Operation.TRANSACT_WRITE_ITEMS,
  Operation.GET_RECORDS,
]
