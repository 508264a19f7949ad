import type { App, Stack } from 'aws-cdk-lib'
import type { ThrottleSettings } from 'aws-cdk-lib/aws-apigatewayv2'
import type { IFunction } from 'aws-cdk-lib/aws-lambda'
import { consumers } from '#lib/service/consumers.ts'
import { functionsOf, type Route, routes as routeTable, UNROUTED } from '#lib/service/routes.ts'
import type { ApiFunction } from './constructs/api-function.ts'
import { AreaStack } from './stacks/area-stack.ts'
import { AREA_STACKS, type AreaStackName, stackOf, stackTitle } from './stacks/areas.ts'
import { DataStack } from './stacks/data-stack.ts'
import { EdgeStack } from './stacks/edge-stack.ts'
import { packageVersion } from './stacks/service.ts'
import { LOCAL_STAGE } from '#lib/platform/net/destination.ts'

/** Every asynchronous consumer of a stage by functionId (lib/service/consumers.ts). */
export const CONSUMER_FUNCTIONS: readonly string[] = consumers.map((c) => c.functionId)

export interface StageProps {
  stage: string
  protect?: boolean
  alarmEmails?: readonly string[]
  domainName?: string
  certificateArn?: string
  sesFromAddress?: string
  throttle?: ThrottleSettings
  serviceName?: string
  serviceVersion?: string
  /** The route table to deploy; lib/service/routes.ts unless a test passes another. */
  routes?: readonly Route[]
  /** The consumers to deploy (functionIds); all unless a test passes others. */
  consumers?: readonly string[]
  /** Stack names start with this; `Einvoicing-<stage>` unless given. */
  prefix?: string
}

/** The stacks of one stage, and each function wherever it lives. */
export interface Stage {
  data: DataStack
  /** `<prefix>-Api`: the HTTP API, stage, catch-all, API alarms, dashboard, ApiUrl. */
  edge: EdgeStack
  /** `<prefix>-<Area>`, only the areas that have something to deploy. */
  areas: Map<AreaStackName, AreaStack>
  /** Every API function by functionId, the catch-all included. */
  functions: Map<string, ApiFunction>
  /** Every consumer function by functionId. */
  consumerFunctions: Map<string, IFunction>
  /** Every stack, in deploy order. */
  stacks: Stack[]
}

/**
 * `local` is the local server's stage (npm start), and what the code takes for one: there a webhook
 * may be plain http to the loopback (lib/platform/net/destination.ts). A deployed stage of that name
 * would allow it in AWS, so no stage of that name is built (CONTRACT 18).
 */
function refuseLocalStage(stage: string): void {
  if (stage === LOCAL_STAGE) {
    throw new Error(
      `stage "${LOCAL_STAGE}" cannot be deployed: it is the local server's stage, whose webhooks may be plain http to the loopback. Choose another name (-c stage=dev, test, prod, ...)`,
    )
  }
}

/**
 * A stage: the data stack, the edge stack, then one stack per area (infra/stacks/areas.ts).
 * References flow one way, Data -> Edge -> areas and Data -> areas, so `cdk deploy --all` deploys
 * them in that order and no stack waits on one deployed after it (docs/operations.md).
 */
export function buildStage(app: App, props: StageProps): Stage {
  refuseLocalStage(props.stage)
  const prefix = props.prefix ?? `Einvoicing-${props.stage}`
  const table = props.routes ?? routeTable
  const consumerIds = props.consumers ?? CONSUMER_FUNCTIONS
  const undeclared = consumerIds.filter((id) => !CONSUMER_FUNCTIONS.includes(id))
  if (undeclared.length) throw new Error(`no consumer is declared as ${undeclared.join(', ')}`)
  const service = {
    serviceName: props.serviceName ?? 'einvoicing-api',
    serviceVersion: props.serviceVersion ?? packageVersion(),
  }
  const data = new DataStack(app, `${prefix}-Data`, {
    stage: props.stage,
    protect: props.protect,
    alarmEmails: props.alarmEmails,
    description: `E-invoicing table (${props.stage})`,
  })
  const edge = new EdgeStack(app, `${prefix}-Api`, {
    ...service,
    stage: props.stage,
    protect: props.protect,
    table: data.table,
    dataKey: data.dataKey,
    alarmTopic: data.alarmTopic,
    domainName: props.domainName,
    certificateArn: props.certificateArn,
    throttle: props.throttle,
    observedFunctions: [...functionsOf(table).keys(), ...consumerIds],
    description: `E-invoicing HTTP API, catch-all, API alarms and dashboard (${props.stage})`,
  })
  const functions = new Map<string, ApiFunction>([[UNROUTED.functionId, edge.unrouted]])
  const consumerFunctions: Stage['consumerFunctions'] = new Map()
  const areas = new Map<AreaStackName, AreaStack>()
  for (const area of AREA_STACKS) {
    const routes = table.filter((r) => stackOf(r) === area)
    const areaConsumers = consumers.filter((c) => c.stack === area && consumerIds.includes(c.functionId))
    if (routes.length === 0 && areaConsumers.length === 0) continue
    const stack = new AreaStack(app, `${prefix}-${stackTitle(area)}`, {
      ...service,
      stage: props.stage,
      area,
      api: edge.api,
      routes,
      consumers: areaConsumers,
      table: data.table,
      dataKey: data.dataKey,
      secrets: data.secrets,
      alarmTopic: data.alarmTopic,
      protect: props.protect,
      sesFromAddress: props.sesFromAddress,
      description: `E-invoicing ${area}: functions, routes, consumers and their alarms (${props.stage})`,
    })
    areas.set(area, stack)
    for (const [id, fn] of stack.functions) functions.set(id, fn)
    for (const [id, fn] of stack.consumerFunctions) consumerFunctions.set(id, fn)
  }
  return { data, edge, areas, functions, consumerFunctions, stacks: [data, edge, ...areas.values()] }
}
