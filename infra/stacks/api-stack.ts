import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Aspects, CfnOutput, Duration, NestedStack, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib'
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway'
import {
  DomainName,
  HttpApi,
  LogGroupLogDestination,
  HttpMethod,
  type HttpStage,
  PayloadFormatVersion,
  type ThrottleSettings,
} from 'aws-cdk-lib/aws-apigatewayv2'
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
import type { IFunction } from 'aws-cdk-lib/aws-lambda'
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs'
import type { ITopic } from 'aws-cdk-lib/aws-sns'
import type { Construct } from 'constructs'
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager'
import { functionsOf, type Route, routes as routeTable, type ServiceSecret, UNROUTED } from '#lib/routes.ts'
import { AlarmsNotify, AlarmTopic } from '../constructs/alarms.ts'
import { ApiFunction, PROJECT_ROOT } from '../constructs/api-function.ts'
import { Consumers } from '../constructs/consumers.ts'
import { HistoryIndexer } from '../constructs/history-indexer.ts'
import { acknowledge } from '../constructs/nag.ts'
import { ServiceDashboard } from '../constructs/dashboard.ts'
import { OutboxSender } from '../constructs/outbox-sender.ts'
import { Reconciliation } from '../constructs/reconciliation.ts'
import { isProtectedStage } from './data-stack.ts'

export interface ApiStackProps extends StackProps {
  stage: string
  /** Passed from DataStack: CDK turns the reference into an export/import pair it manages itself. */
  table: ITableV2
  /** DataStack's field-encryption key (DATA_KEY_ARN); without it functions cannot open secrets. */
  dataKey?: IKey
  /** The service's key secrets from DataStack. */
  secrets?: Partial<Record<ServiceSecret, ISecret>>
  /** Same meaning as DataStack's: production-like stages keep their log groups. */
  protect?: boolean
  /** Default stage throttling; 100 requests/s, burst 200 unless given. */
  throttle?: ThrottleSettings
  /** Optional custom domain: both must be given (the certificate must be in the stack's region). */
  domainName?: string
  certificateArn?: string
  /** The stage's alarm topic (DataStack's); every alarm notifies it. A stack made alone makes its own. */
  alarmTopic?: ITopic
  serviceName?: string
  serviceVersion?: string
  /** A verified SES identity for outcome notifications; without it they are only logged. */
  sesFromAddress?: string
  /** The route table to deploy; lib/routes.ts unless a test passes another. */
  routes?: readonly Route[]
}

const packageVersion = (): string =>
  (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version

/** The HTTP API: one Lambda function per functionId of the route table, one route per entry. */
export class ApiStack extends Stack {
  readonly api: HttpApi
  readonly stage: HttpStage
  /** By functionId, the unrouted function included. */
  readonly functions = new Map<string, ApiFunction>()
  readonly outboxSender: OutboxSender
  /** Webhook fan-out and delivery, batches (lib/consumers.ts). */
  readonly consumers?: Consumers
  /** The nested stack of the webhook and batch functions and the consumers (full route table only). */
  readonly events?: NestedStack
  readonly historyIndexer: HistoryIndexer
  readonly alarmTopic: ITopic
  /** JSON access logs of the $default stage. */
  readonly accessLogs: LogGroup
  /** The daily ledger reconciliation (schedule, read-only function, alarm). */
  readonly reconciliation: Reconciliation

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props)
    if (Boolean(props.domainName) !== Boolean(props.certificateArn)) {
      throw new Error('domainName and certificateArn must be given together')
    }
    const table = props.routes ?? routeTable
    this.alarmTopic = props.alarmTopic ?? new AlarmTopic(this, 'Alarms', { stage: props.stage }).topic
    // Every alarm of this stack, including those other constructs add later, notifies the topic.
    Aspects.of(this).add(new AlarmsNotify(this.alarmTopic))
    const common = {
      table: props.table,
      secrets: props.secrets,
      dataKey: props.dataKey,
      stage: props.stage,
      serviceName: props.serviceName ?? 'einvoicing-api',
      serviceVersion: props.serviceVersion ?? packageVersion(),
      logRemovalPolicy: isProtectedStage(props.stage, props.protect)
        ? RemovalPolicy.RETAIN
        : RemovalPolicy.DESTROY,
    }
    const integrationOf = (fn: ApiFunction, id: string) =>
      new HttpLambdaIntegration(`${id}Integration`, fn.function, {
        payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
      })

    // The catch-all answers 404/405 in the caller's area record; it authenticates nobody and writes nothing.
    const unrouted = new ApiFunction(this, constructId(UNROUTED.functionId), {
      ...common,
      functionId: UNROUTED.functionId,
      handler: UNROUTED.handler,
      // No routes: it keeps the whole route table, and reads and writes nothing.
      routes: [],
    })
    this.functions.set(UNROUTED.functionId, unrouted)

    this.api = new HttpApi(this, 'HttpApi', {
      apiName: `einvoicing-${props.stage}`,
      description: `E-invoicing API (${props.stage})`,
      defaultIntegration: integrationOf(unrouted, constructId(UNROUTED.functionId)),
      // HttpApi's own default stage takes no throttling settings: the stage is declared below instead.
      createDefaultStage: false,
    })
    acknowledge(
      this.api,
      'AwsSolutions-APIG4',
      'Every route authenticates in its function, on the exact bytes received (HMAC request signatures, bearer keys: CONTRACT sections 2 and 6), which an API Gateway authorizer cannot check; the public routes (JWKS, OpenAPI, the 404/405 catch-all) are public by design',
    )

    const domain =
      props.domainName && props.certificateArn
        ? new DomainName(this, 'DomainName', {
            domainName: props.domainName,
            certificate: Certificate.fromCertificateArn(this, 'Certificate', props.certificateArn),
          })
        : undefined

    this.accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: common.logRemovalPolicy,
    })
    this.stage = this.api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLogs),
        format: ACCESS_LOG_FORMAT,
      },
      throttle: { rateLimit: 100, burstLimit: 200, ...props.throttle },
      ...(domain ? { domainMapping: { domainName: domain } } : {}),
    })

    // Webhooks and batches (their endpoints' functions and the consumers of lib/consumers.ts) and the
    // history indexer live in a nested stack: with them the API stack would pass CloudFormation's 500
    // resources per stack.
    // A stack built from another route table (tests of single concerns) has none of them.
    const events = props.routes
      ? undefined
      : new NestedStack(this, 'Events', { description: 'Webhooks and batches' })
    this.events = events
    for (const [functionId, served] of functionsOf(table)) {
      const handlers = new Set(served.map((r) => r.handler))
      if (handlers.size !== 1) {
        throw new Error(`${functionId} is served by several handler modules: ${[...handlers].join(', ')}`)
      }
      const id = constructId(functionId)
      const fn = new ApiFunction(events && isEventsFunction(served) ? events : this, id, {
        ...common,
        functionId,
        handler: served[0]!.handler,
        routes: served,
      })
      this.functions.set(functionId, fn)
      const integration = integrationOf(fn, id)
      for (const route of served) {
        this.api.addRoutes({ path: route.path, methods: [HttpMethod[route.method]], integration })
      }
    }

    this.outboxSender = new OutboxSender(this, 'OutboxSender', {
      table: props.table,
      stage: props.stage,
      serviceName: common.serviceName,
      serviceVersion: common.serviceVersion,
      logRemovalPolicy: common.logRemovalPolicy,
      sesFromAddress: props.sesFromAddress,
    })

    // In the nested stack too when there is one: the API stack alone is near CloudFormation's 500.
    this.historyIndexer = new HistoryIndexer(events ?? this, 'HistoryIndexer', {
      table: props.table,
      stage: props.stage,
      serviceName: common.serviceName,
      serviceVersion: common.serviceVersion,
      logRemovalPolicy: common.logRemovalPolicy,
    })

    this.reconciliation = new Reconciliation(this, 'Reconciliation', {
      table: props.table,
      stage: props.stage,
      serviceName: common.serviceName,
      serviceVersion: common.serviceVersion,
      logRemovalPolicy: common.logRemovalPolicy,
    })

    // The consumers serve the real route table's webhooks and batches; a stack built from another
    // table (tests of single concerns) has none.
    if (events) {
      this.consumers = new Consumers(events, 'Consumers', {
        ...common,
        apiFunctions: this.functions,
        skip: ['outbox-sender'],
      })
    }

    this.apiAlarms(props.table)
    const observed = new Map<string, IFunction>([...this.functions].map(([id, fn]) => [id, fn.function]))
    observed.set('outbox-sender', this.outboxSender.function)
    for (const [id, fn] of this.consumers?.functions ?? []) observed.set(id, fn)
    observed.set('reconcile-daily', this.reconciliation.function)
    observed.set('history-indexer', this.historyIndexer.function)
    new ServiceDashboard(this, 'Dashboard', {
      stage: props.stage,
      serviceName: common.serviceName,
      api: this.api,
      functions: observed,
      table: props.table,
    })

    new CfnOutput(this, 'ApiUrl', {
      description: 'base_url, merchant_base_url and notification_base_url',
      value: this.stage.url,
    })
    if (domain) {
      new CfnOutput(this, 'CustomDomainTarget', {
        description: `Point ${props.domainName} (CNAME or alias) at this name`,
        value: domain.regionalDomainName,
      })
    }
  }

  /** The stage's API and table alarms (each function has its own, in ApiFunction and the consumers). */
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

/**
 * The access log line of each request (JSON): API Gateway's ids, route, status, latency and any
 * integration error. The caller's key id is not among API Gateway's variables (no authorizer): the
 * function's own request log line carries it (masked) under the same requestId.
 */
const ACCESS_LOG_FORMAT = AccessLogFormat.custom(
  JSON.stringify({
    requestId: '$context.requestId',
    extendedRequestId: '$context.extendedRequestId',
    ip: '$context.identity.sourceIp',
    requestTime: '$context.requestTime',
    routeKey: '$context.routeKey',
    method: '$context.httpMethod',
    path: '$context.path',
    status: '$context.status',
    responseLength: '$context.responseLength',
    latencyMs: '$context.responseLatency',
    integrationLatencyMs: '$context.integrationLatency',
    integrationStatus: '$context.integrationStatus',
    integrationError: '$context.integrationErrorMessage',
    error: '$context.error.message',
  }),
)

/** The endpoints of webhooks and batches (CONTRACT section 11), deployed in the Events nested stack. */
function isEventsFunction(served: readonly Route[]): boolean {
  return served.some(
    (r) => r.handler.startsWith('functions/webhooks/') || r.handler.startsWith('functions/batches/'),
  )
}

/** `resource-invoice-types` -> `ResourceInvoiceTypes`: readable logical ids. */
function constructId(functionId: string): string {
  return functionId
    .split(/[^A-Za-z0-9]+/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('')
}
