import { Aspects, Duration, type RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib'
import {
  HttpMethod,
  HttpRoute,
  HttpRouteKey,
  type IHttpApi,
  PayloadFormatVersion,
} from 'aws-cdk-lib/aws-apigatewayv2'
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations'
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb'
import type { IKey } from 'aws-cdk-lib/aws-kms'
import type { RetentionDays } from 'aws-cdk-lib/aws-logs'
import type { IFunction } from 'aws-cdk-lib/aws-lambda'
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager'
import type { ITopic } from 'aws-cdk-lib/aws-sns'
import type { Construct } from 'constructs'
import type { AccountServicer } from '#lib/finance/account-servicer.ts'
import type { Consumer } from '#lib/service/consumers.ts'
import { merchantStatement } from '#lib/service/endpoints/merchant.ts'
import { functionsOf, type ModeSecret, type Route } from '#lib/service/routes.ts'
import { AlarmsNotify } from '../constructs/alarms.ts'
import { ApiFunction, INTEGRATION_TIMEOUT_SECONDS } from '../constructs/api-function.ts'
import { Consumers } from '../constructs/consumers.ts'
import { acknowledge } from '../constructs/nag.ts'
import type { AreaStackName } from './areas.ts'
import { constructId, NO_AUTHORIZER_REASON, type ServiceInfo } from './service.ts'

export interface AreaStackProps extends StackProps, ServiceInfo {
  stage: string
  area: AreaStackName
  /** The edge stack's HTTP API: this stack adds its routes to it (the one reference to the edge). */
  api: IHttpApi
  /** The endpoints of this area (infra/stacks/areas.ts stackOf). */
  routes: readonly Route[]
  /** The consumers of this area (lib/service/consumers.ts, those whose `stack` it is). */
  consumers: readonly Consumer[]
  /** From DataStack: CDK turns each reference into an export/import pair it manages itself. */
  table: ITableV2
  dataKey?: IKey
  secrets?: Partial<Record<ModeSecret, ISecret>>
  alarmTopic: ITopic
  /** From the stage's settings (infra/stages/<stage>.json). */
  logRetention: RetentionDays
  logRemovalPolicy: RemovalPolicy
  clientLimits: { quota: number; windowSeconds: number }
  /** Days a transfer may be reversed after it (`ledger.reversalWindowDays`). */
  reversalWindowDays: number
  /** The institution the statement function's statements name (`statements.accountServicer`). */
  accountServicer: AccountServicer
  /** A verified SES identity for the consumers that e-mail (outcome notifications); without it they only log. */
  ses?: { fromAddress: string; identity: string } | null
}

/**
 * One area of the API: a function per functionId of its routes (ApiFunction, with its alarms), each
 * route added to the edge's HTTP API with its integration and invoke permission (all created here,
 * so the edge never refers to this stack), and the area's asynchronous consumers with their queues,
 * dead-letter queues (whose `DeadLetters*` outputs are this stack's) and alarms.
 */
export class AreaStack extends Stack {
  readonly area: AreaStackName
  /** The API functions, by functionId. */
  readonly functions = new Map<string, ApiFunction>()
  /** The consumers' functions, by functionId. */
  readonly consumerFunctions = new Map<string, IFunction>()
  /** The consumers of this area, when it has any. */
  readonly consumers?: Consumers

  constructor(scope: Construct, id: string, props: AreaStackProps) {
    super(scope, id, props)
    this.area = props.area
    // Every alarm of this stack notifies the stage's topic.
    Aspects.of(this).add(new AlarmsNotify(props.alarmTopic))
    const common = {
      table: props.table,
      secrets: props.secrets,
      dataKey: props.dataKey,
      stage: props.stage,
      serviceName: props.serviceName,
      serviceVersion: props.serviceVersion,
      logRetention: props.logRetention,
      logRemovalPolicy: props.logRemovalPolicy,
      clientLimits: props.clientLimits,
      reversalWindowDays: props.reversalWindowDays,
    }

    for (const [functionId, served] of functionsOf(props.routes)) {
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
        // Only the statement function writes statements: only it is given their servicer.
        accountServicer: functionId === merchantStatement.functionId ? props.accountServicer : undefined,
      })
      this.functions.set(functionId, fn)
      const integration = new HttpLambdaIntegration(`${id}Integration`, fn.function, {
        payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
        timeout: Duration.seconds(INTEGRATION_TIMEOUT_SECONDS),
      })
      for (const route of served) {
        // In this stack, not through the API's addRoutes (which would make them the edge's).
        const made = new HttpRoute(fn, `${route.method}${route.path}`, {
          httpApi: props.api,
          routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
          integration,
        })
        acknowledge(made, 'AwsSolutions-APIG4', NO_AUTHORIZER_REASON)
      }
    }

    if (props.consumers.length) {
      this.consumers = new Consumers(this, 'Consumers', {
        ...common,
        consumers: props.consumers,
        ses: props.ses,
        apiFunctions: this.functions,
      })
      for (const [functionId, fn] of this.consumers.functions) this.consumerFunctions.set(functionId, fn)
    }
  }
}
