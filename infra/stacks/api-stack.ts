import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib'
import {
  DomainName,
  HttpApi,
  HttpMethod,
  type HttpStage,
  PayloadFormatVersion,
  type ThrottleSettings,
} from 'aws-cdk-lib/aws-apigatewayv2'
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations'
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager'
import { Alarm, ComparisonOperator, type IAlarmAction, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch'
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions'
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb'
import type { IKey } from 'aws-cdk-lib/aws-kms'
import { Topic } from 'aws-cdk-lib/aws-sns'
import type { Construct } from 'constructs'
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager'
import { functionsOf, type Route, routes as routeTable, type ServiceSecret, UNROUTED } from '#lib/routes.ts'
import { ApiFunction, PROJECT_ROOT } from '../constructs/api-function.ts'
import { HistoryIndexer } from '../constructs/history-indexer.ts'
import { OutboxSender } from '../constructs/outbox-sender.ts'
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
  /** An SNS topic the alarms notify; without it the alarms only show in the console. */
  alarmTopicArn?: string
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
  readonly historyIndexer: HistoryIndexer

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props)
    if (Boolean(props.domainName) !== Boolean(props.certificateArn)) {
      throw new Error('domainName and certificateArn must be given together')
    }
    const table = props.routes ?? routeTable
    const alarmAction: IAlarmAction | undefined = props.alarmTopicArn
      ? new SnsAction(Topic.fromTopicArn(this, 'AlarmTopic', props.alarmTopicArn))
      : undefined
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
      alarmAction,
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
      routes: [{ auth: 'none', tableAccess: 'read' }],
    })
    this.functions.set(UNROUTED.functionId, unrouted)

    this.api = new HttpApi(this, 'HttpApi', {
      apiName: `einvoicing-${props.stage}`,
      description: `E-invoicing API (${props.stage})`,
      defaultIntegration: integrationOf(unrouted, constructId(UNROUTED.functionId)),
      // HttpApi's own default stage takes no throttling settings: the stage is declared below instead.
      createDefaultStage: false,
    })

    const domain =
      props.domainName && props.certificateArn
        ? new DomainName(this, 'DomainName', {
            domainName: props.domainName,
            certificate: Certificate.fromCertificateArn(this, 'Certificate', props.certificateArn),
          })
        : undefined

    this.stage = this.api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: 100, burstLimit: 200, ...props.throttle },
      ...(domain ? { domainMapping: { domainName: domain } } : {}),
    })

    for (const [functionId, served] of functionsOf(table)) {
      const handlers = new Set(served.map((r) => r.handler))
      if (handlers.size !== 1) {
        throw new Error(`${functionId} is served by several handler modules: ${[...handlers].join(', ')}`)
      }
      const id = constructId(functionId)
      const fn = new ApiFunction(this, id, {
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

    this.historyIndexer = new HistoryIndexer(this, 'HistoryIndexer', {
      table: props.table,
      stage: props.stage,
      serviceName: common.serviceName,
      serviceVersion: common.serviceVersion,
      logRemovalPolicy: common.logRemovalPolicy,
      alarmAction,
    })

    const serverErrors = new Alarm(this, 'Api5xx', {
      alarmDescription: 'The API answered 5xx: a bug, or a dependency down (503)',
      metric: this.api.metricServerError({ period: Duration.minutes(5), statistic: 'Sum' }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    })
    if (alarmAction) serverErrors.addAlarmAction(alarmAction)

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
}

/** `resource-invoice-types` -> `ResourceInvoiceTypes`: readable logical ids. */
function constructId(functionId: string): string {
  return functionId
    .split(/[^A-Za-z0-9]+/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('')
}
