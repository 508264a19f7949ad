import { CfnOutput, type RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib'
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway'
import {
  type CfnStage,
  type IDomainName,
  type IHttpApi,
  HttpStage,
  LogGroupLogDestination,
} from 'aws-cdk-lib/aws-apigatewayv2'
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs'
import type { Construct } from 'constructs'
import type { Route } from '#lib/service/routes.ts'
import type { StageSettings } from '../settings.ts'
import { routeThrottles } from '../throttles.ts'

export interface ApiStageStackProps extends StackProps {
  stage: string
  /** The edge stack's HTTP API. */
  api: IHttpApi
  /** Every route the area stacks add: each gets its group's throttle. */
  routes: readonly Route[]
  throttles: StageSettings['throttles']
  /** The edge stack's custom domain, mapped to this stage. */
  domain?: IDomainName
  logRetention: RetentionDays
  logRemovalPolicy: RemovalPolicy
}

/**
 * The HTTP API's `$default` stage: its throttles (the stage's default and one per route, from the
 * stage's settings), JSON access logs, the custom domain's mapping and the ApiUrl output.
 *
 * A stack of its own, deployed after every area stack (infra/stage.ts): API Gateway refuses a stage
 * whose RouteSettings name a route that does not exist yet ("Unable to find Route by key ... within
 * the provided RouteSettings"), and the routes are the area stacks' (docs/operations.md).
 */
export class ApiStageStack extends Stack {
  readonly stage: HttpStage
  readonly accessLogs: LogGroup

  constructor(scope: Construct, id: string, props: ApiStageStackProps) {
    super(scope, id, props)
    this.accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: props.logRetention,
      removalPolicy: props.logRemovalPolicy,
    })
    const unrouted = props.throttles.unrouted
    this.stage = new HttpStage(this, 'DefaultStage', {
      httpApi: props.api,
      stageName: '$default',
      // Also what makes the routes the area stacks add go live: any change to the API redeploys it.
      autoDeploy: true,
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLogs),
        format: ACCESS_LOG_FORMAT,
      },
      // The default route settings: the catch-all's ($default route), and any route not listed below.
      throttle: { rateLimit: unrouted.rateLimit, burstLimit: unrouted.burstLimit },
      ...(props.domain ? { domainMapping: { domainName: props.domain } } : {}),
    })
    ;(this.stage.node.defaultChild as CfnStage).routeSettings = routeThrottles(props.routes, props.throttles)

    new CfnOutput(this, 'ApiUrl', {
      description: 'base_url, merchant_base_url and notification_base_url',
      value: this.stage.url,
    })
  }
}

/**
 * The access log line of each request (JSON): API Gateway's ids, route, status, latency and any
 * integration error. The caller's key id is not among API Gateway's variables (no authorizer): the
 * function's own request log line carries it (masked) under the same requestId. A request the stage
 * throttled has status 429 and no integration status (docs/capacity.md, "Stage throttles").
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
