import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Match, Template } from 'aws-cdk-lib/assertions'
import { beforeAll, describe, expect, it } from 'vitest'
import { cdkApp } from '../support/cdk-app.ts'
import { defaultRateLimit } from '#lib/platform/auth/rate-limit.ts'
import { routeKey, routes } from '#lib/service/routes.ts'
import { stageFromContext } from '../../infra/context.ts'
import { loadStageSettings, parseStageSettings, type StageSettings } from '../../infra/settings.ts'
import type { Stage } from '../../infra/stage.ts'
import { throttleGroupOf } from '../../infra/throttles.ts'
import { logicalIdOf } from './stage-templates.ts'

/**
 * A stage's settings live in its committed file, infra/stages/<stage>.json (CONTRACT 20): validated
 * at synth (a missing setting stops it, naming the setting and the file), and what a deploy with no
 * flags but the stage's name builds (one synth, as `cdk deploy -c stage=prod` runs infra/app.ts).
 */

const root = fileURLToPath(new URL('../../', import.meta.url))
const committed = (stage: string) =>
  JSON.parse(readFileSync(join(root, `infra/stages/${stage}.json`), 'utf8')) as Record<string, unknown>

/** The committed prod file without one setting, as a dotted path. */
function without(path: string): unknown {
  const copy = structuredClone(committed('prod'))
  const keys = path.split('.')
  let node = copy as Record<string, unknown>
  for (const key of keys.slice(0, -1)) node = node[key] as Record<string, unknown>
  delete node[keys.at(-1)!]
  return copy
}

describe('stage settings, validated', () => {
  it('accepts every committed stage file', () => {
    for (const stage of ['dev', 'prod']) expect(() => loadStageSettings(stage), stage).not.toThrow()
  })

  it('refuses a file without a required setting, naming the setting and the file', () => {
    for (const path of [
      'alarmEmails',
      'domain',
      'ses',
      'throttles.transfers.burstLimit',
      'retention.logDays',
      'deletionProtection',
      'clientLimits.quota',
      'ledger.reversalWindowDays',
      'statements.accountServicer.institutionId',
    ]) {
      expect(() => parseStageSettings(without(path), 'infra/stages/prod.json'), path).toThrow(
        new RegExp(
          `infra/stages/prod\\.json[\\s\\S]*"${path.replaceAll('.', '\\.')}" is missing: it is required`,
        ),
      )
    }
  })

  it('refuses a stage that has no settings file, naming the file to write', () => {
    expect(() => loadStageSettings('qa')).toThrow(/stage "qa" has no settings file infra\/stages\/qa\.json/)
  })

  it('refuses wrong values: an unknown key, a bad address, a throttle under the per-client limit', () => {
    const prod = committed('prod')
    const refuse = (settings: unknown, message: RegExp) =>
      expect(() => parseStageSettings(settings, 'infra/stages/x.json')).toThrow(message)
    refuse({ ...prod, alarmEmail: ['a@example.com'] }, /alarmEmail/)
    refuse({ ...prod, alarmEmails: ['not an address'] }, /"alarmEmails\.0"/)
    refuse(
      { ...prod, retention: { logDays: 31, pointInTimeRecovery: true, keepOnDelete: true } },
      /"retention\.logDays"/,
    )
    refuse(
      { ...prod, ses: { fromAddress: 'notices@pay.example.com', identity: 'other.example.com' } },
      /"ses\.identity": notices@pay\.example\.com is not sent under other\.example\.com/,
    )
    refuse(
      { ...prod, clientLimits: { quota: 60_000, windowSeconds: 60 } },
      /"throttles\.admin\.rateLimit": 100\/s is below one client's default limit \(1000\/s/,
    )
  })

  it('sets the per-client default limit the functions apply from their environment', () => {
    expect(defaultRateLimit({ DEFAULT_RATE_QUOTA: '1200', DEFAULT_RATE_WINDOW_SECONDS: '30' })).toEqual({
      quota: 1200,
      windowSeconds: 30,
    })
    // Unset or not sane: the built-in default, never a zero or negative quota.
    expect(defaultRateLimit({})).toEqual({ quota: 6000, windowSeconds: 60 })
    expect(defaultRateLimit({ DEFAULT_RATE_QUOTA: '0', DEFAULT_RATE_WINDOW_SECONDS: '30' })).toEqual({
      quota: 6000,
      windowSeconds: 60,
    })
  })

  it('refuses the -c flags the settings file replaced, naming the setting to set instead', () => {
    const app = cdkApp({
      context: { stage: 'prod', alarmEmail: 'oncall@example.com', 'aws:cdk:bundling-stacks': [] },
    })
    expect(() => stageFromContext(app)).toThrow(
      /-c alarmEmail: no longer read\. A stage's settings are in infra\/stages\/prod\.json: set "alarmEmails" there/,
    )
  })
})

describe('a deploy with no flags but the stage (cdk deploy -c stage=prod)', () => {
  let stage: Stage
  let settings: StageSettings
  const template = (stack: { stackName: string }) => templates.get(stack.stackName)!
  const templates = new Map<string, Template>()
  beforeAll(() => {
    settings = loadStageSettings('prod')
    // The context `cdk deploy -c stage=prod` gives infra/app.ts, and nothing else (bundling skipped).
    const app = cdkApp({ context: { stage: 'prod', 'aws:cdk:bundling-stacks': [] } })
    stage = stageFromContext(app)
    for (const stack of stage.stacks) templates.set(stack.stackName, Template.fromStack(stack))
  }, 180_000)

  it("subscribes the settings' alarm e-mails to the alarm topic", () => {
    expect(settings.alarmEmails.length).toBeGreaterThan(0)
    for (const email of settings.alarmEmails) {
      template(stage.data).hasResourceProperties('AWS::SNS::Subscription', {
        Protocol: 'email',
        Endpoint: email,
      })
    }
  })

  it("throttles each route at its group's settings, and the catch-all at the default", () => {
    const [cfnStage] = Object.values(template(stage.apiStage).findResources('AWS::ApiGatewayV2::Stage'))
    const routeSettings = cfnStage!.Properties.RouteSettings as Record<string, unknown>
    expect(Object.keys(routeSettings).sort()).toEqual(routes.map(routeKey).sort())
    for (const route of routes) {
      const { rateLimit, burstLimit } = settings.throttles[throttleGroupOf(route)]
      expect(routeSettings[routeKey(route)], routeKey(route)).toEqual({
        ThrottlingRateLimit: rateLimit,
        ThrottlingBurstLimit: burstLimit,
      })
    }
    // The capacity plan's figures (docs/capacity.md): 2,000 transfers/s, 400 signs/s.
    expect(routeSettings['POST /api/v1/transactions/transfer']).toMatchObject({ ThrottlingRateLimit: 2000 })
    expect(routeSettings['POST /api/v1/app/invoice/sign']).toMatchObject({ ThrottlingRateLimit: 400 })
    expect(cfnStage!.Properties.DefaultRouteSettings).toMatchObject({
      ThrottlingRateLimit: settings.throttles.unrouted.rateLimit,
      ThrottlingBurstLimit: settings.throttles.unrouted.burstLimit,
    })
  })

  it('protects the data as the settings say: deletion protection, PITR, retained, termination protection', () => {
    expect(settings.deletionProtection).toBe(true)
    template(stage.data).hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        Replicas: [
          Match.objectLike({
            DeletionProtectionEnabled: true,
            PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
          }),
        ],
      }),
    })
    expect(stage.data.terminationProtection).toBe(true)
  })

  it("keeps logs for the settings' days and gives every API function the per-client default limit", () => {
    for (const stack of [stage.edge, ...stage.areas.values(), stage.apiStage]) {
      for (const group of Object.values(template(stack).findResources('AWS::Logs::LogGroup'))) {
        expect(group.Properties.RetentionInDays, stack.stackName).toBe(settings.retention.logDays)
      }
    }
    for (const [functionId, fn] of stage.functions) {
      const variables = template(fn.function.stack).toJSON().Resources[logicalIdOf(fn.function)].Properties
        .Environment.Variables
      expect(variables, functionId).toMatchObject({
        DEFAULT_RATE_QUOTA: String(settings.clientLimits.quota),
        DEFAULT_RATE_WINDOW_SECONDS: String(settings.clientLimits.windowSeconds),
      })
      // The ledger reads the stage's reversal window (the edge's unrouted function has no reversals).
      if (functionId.startsWith('transactions-'))
        expect(variables.REVERSAL_WINDOW_DAYS, functionId).toBe(String(settings.ledger.reversalWindowDays))
    }
  })

  it("gives the statement function, and it alone, the settings' account servicer", () => {
    const servicers = [...stage.functions].flatMap(([functionId, fn]) => {
      const variables = template(fn.function.stack).toJSON().Resources[logicalIdOf(fn.function)].Properties
        .Environment.Variables as Record<string, string>
      const value = variables.STATEMENT_ACCOUNT_SERVICER
      return value === undefined ? [] : [[functionId, JSON.parse(value)]]
    })
    expect(servicers).toEqual([['merchant-statement', settings.statements.accountServicer]])
  })
})
