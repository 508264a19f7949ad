import { type App, RemovalPolicy, type Stack } from 'aws-cdk-lib'
import type { IFunction } from 'aws-cdk-lib/aws-lambda'
import type { RetentionDays } from 'aws-cdk-lib/aws-logs'
import { consumers } from '#lib/service/consumers.ts'
import { functionsOf, type Route, routes as routeTable, UNROUTED } from '#lib/service/routes.ts'
import type { ApiFunction } from './constructs/api-function.ts'
import { loadStageSettings, type StageSettings } from './settings.ts'
import { ApiStageStack } from './stacks/api-stage-stack.ts'
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
  /**
   * The stage's settings; its committed file `infra/stages/<stage>.json` (infra/settings.ts) unless a
   * test passes others. Never from the command line: a deploy with no flags keeps them.
   */
  settings?: StageSettings
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
  /** `<prefix>-Api`: the HTTP API, catch-all, custom domain, API alarms, dashboard. */
  edge: EdgeStack
  /** `<prefix>-<Area>`, only the areas that have something to deploy. */
  areas: Map<AreaStackName, AreaStack>
  /** `<prefix>-ApiStage`: the `$default` stage (throttles, access logs, domain mapping), ApiUrl. */
  apiStage: ApiStageStack
  /** The settings it was built with. */
  settings: StageSettings
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
 * A stage: the data stack, the edge stack, one stack per area (infra/stacks/areas.ts), then the API's
 * stage. References flow one way, Data -> Edge -> areas, Data -> areas and Edge -> ApiStage (which
 * also waits for every area: its route throttles name their routes), so `cdk deploy --all` deploys
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
  const settings = props.settings ?? loadStageSettings(props.stage)
  const logs = {
    logRetention: settings.retention.logDays as RetentionDays,
    logRemovalPolicy: settings.retention.keepOnDelete ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
  }
  const data = new DataStack(app, `${prefix}-Data`, {
    stage: props.stage,
    settings,
    description: `E-invoicing table (${props.stage})`,
  })
  const edge = new EdgeStack(app, `${prefix}-Api`, {
    ...service,
    ...logs,
    stage: props.stage,
    table: data.table,
    dataKey: data.dataKey,
    alarmTopic: data.alarmTopic,
    domain: settings.domain ?? undefined,
    clientLimits: settings.clientLimits,
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
      ...logs,
      clientLimits: settings.clientLimits,
      reversalWindowDays: settings.ledger.reversalWindowDays,
      accountServicer: settings.statements.accountServicer,
      ses: settings.ses,
      description: `E-invoicing ${area}: functions, routes, consumers and their alarms (${props.stage})`,
    })
    areas.set(area, stack)
    for (const [id, fn] of stack.functions) functions.set(id, fn)
    for (const [id, fn] of stack.consumerFunctions) consumerFunctions.set(id, fn)
  }
  const apiStage = new ApiStageStack(app, `${prefix}-ApiStage`, {
    ...logs,
    stage: props.stage,
    api: edge.api,
    routes: table,
    throttles: settings.throttles,
    domain: edge.domain,
    description: `E-invoicing API stage: throttles, access logs, domain mapping, ApiUrl (${props.stage})`,
  })
  // Its RouteSettings name the areas' routes, which API Gateway wants to exist first.
  for (const area of areas.values())
    apiStage.addStackDependency(area, 'its RouteSettings name the routes of this stack')
  return {
    data,
    edge,
    areas,
    apiStage,
    settings,
    functions,
    consumerFunctions,
    stacks: [data, edge, ...areas.values(), apiStage],
  }
}
