import { consumers } from '#lib/service/consumers.ts'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Template } from 'aws-cdk-lib/assertions'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cdkApp } from '../support/cdk-app.ts'
import { functionsOf, routes, UNROUTED } from '#lib/service/routes.ts'
import { accessOfRoutes } from '#lib/service/function-access.ts'
import { addNagChecks } from '../../infra/constructs/nag.ts'
import { DATA_OUTPUTS } from '../../infra/stacks/data-stack.ts'
import { buildStage, type Stage } from '../../infra/stage.ts'
import { logicalIdOf, mergeTemplates } from './stage-templates.ts'

/**
 * What operations relies on, read from the synthesized templates of one stage (bundling skipped):
 * tracing, alarms and their topic, dashboard, access logs, dead-letter queues, least privilege, outputs,
 * and cdk-nag (AwsSolutions and Serverless) with no unacknowledged finding.
 */

const outdir = mkdtempSync(join(tmpdir(), 'cdk-nag-'))
afterAll(() => rmSync(outdir, { recursive: true, force: true }))

let stage: Stage
let apiTemplate: Template
let dataTemplate: Template
let topicRef: unknown
let synthError: unknown
beforeAll(() => {
  const app = cdkApp({ context: { 'aws:cdk:bundling-stacks': [] }, outdir })
  addNagChecks(app)
  // The prod stage's committed settings (infra/stages/prod.json) page oncall@example.com.
  stage = buildStage(app, { stage: 'prod', prefix: 'Ops-prod' })
  const data = stage.data
  try {
    app.synth()
  } catch (error) {
    synthError = error
  }
  // From the cloud assembly: written before the validation, so a nag finding fails only its own test.
  const templateOf = (stack: { artifactId: string }) =>
    Template.fromJSON(JSON.parse(readFileSync(join(outdir, `${stack.artifactId}.template.json`), 'utf8')))
  // The edge, area and API stage stacks as one (every function, alarm and queue of the stage).
  apiTemplate = mergeTemplates([stage.edge, ...stage.areas.values(), stage.apiStage].map(templateOf))
  dataTemplate = templateOf(data)
  topicRef = data.resolve(data.alarmTopic.topicArn)
}, 120_000)

type Statement = { Effect: string; Action: string | string[]; Resource: unknown; Condition?: unknown }
const actionsOf = (s: Statement): string[] => (Array.isArray(s.Action) ? s.Action : [s.Action])

function statementsOf(functionId: string): Statement[] {
  const fn = stage.functions.get(functionId)!
  const roleId = logicalIdOf(fn.function.role!)
  return Object.values(apiTemplate.findResources('AWS::IAM::Policy'))
    .filter((p) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[])
}
const tableActionsOf = (functionId: string) =>
  statementsOf(functionId)
    .flatMap(actionsOf)
    .filter((a) => a.startsWith('dynamodb:'))

const allFunctionIds = [...functionsOf(routes).keys(), UNROUTED.functionId]

describe('cdk-nag', () => {
  it('finds nothing unacknowledged in any stack of the stage (AwsSolutions and Serverless packs)', () => {
    if (synthError) {
      const report = readFileSync(join(outdir, 'validation-report.json'), 'utf8')
      const violations = (
        JSON.parse(report) as {
          pluginReports: {
            violations: { ruleName: string; violatingConstructs: { constructPath: string }[] }[]
          }[]
        }
      ).pluginReports.flatMap((r) =>
        r.violations.flatMap((v) => v.violatingConstructs.map((c) => `${v.ruleName} ${c.constructPath}`)),
      )
      expect(violations).toEqual([])
    }
    expect(synthError).toBeUndefined()
  })
})

describe('tracing and alarms', () => {
  it('traces every function actively (X-Ray)', () => {
    const functions = Object.values(apiTemplate.findResources('AWS::Lambda::Function'))
    // Plus every consumer of lib/service/consumers.ts.
    expect(functions.length).toBe(allFunctionIds.length + consumers.length)
    for (const fn of functions) expect(fn.Properties.TracingConfig).toEqual({ Mode: 'Active' })
  })

  it('gives every alarm of every stack the stage alarm topic, and only it, as its action', () => {
    const alarms = [
      ...Object.values(apiTemplate.findResources('AWS::CloudWatch::Alarm')),
      ...Object.values(dataTemplate.findResources('AWS::CloudWatch::Alarm')),
    ]
    expect(alarms.length).toBeGreaterThan(allFunctionIds.length * 3)
    // Every edge and area stack names the data stack's topic through the same export.
    const apiTopic = stage.edge.resolve(stage.edge.alarmTopic.topicArn)
    expect(JSON.stringify(apiTopic)).toContain('Fn::ImportValue')
    for (const alarm of alarms) expect(alarm.Properties.AlarmActions).toEqual([apiTopic])
    expect(JSON.stringify(topicRef)).toContain('Ref')
  })

  it('creates the stage topic with the e-mail subscription given in context', () => {
    dataTemplate.hasResourceProperties('AWS::SNS::Topic', { TopicName: 'einvoicing-prod-alarms' })
    dataTemplate.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'oncall@example.com',
    })
  })

  it('alarms on the 5xx and 4xx rates, p99 latency, errors and throttles, table throttles and system errors, lag and dead letters', () => {
    const descriptions = Object.values(apiTemplate.findResources('AWS::CloudWatch::Alarm')).map((a) =>
      String(a.Properties.AlarmDescription),
    )
    for (const expected of [
      /^API 5xx rate/,
      /^API 4xx rate/,
      /^DynamoDB throttled requests/,
      /^DynamoDB answered with system errors/,
      /^outbox-sender: the stream's oldest record waits/,
      /^outbox-sender: work failed after its retries/,
    ]) {
      expect(
        descriptions.filter((d) => expected.test(d)),
        String(expected),
      ).toHaveLength(1)
    }
    for (const id of allFunctionIds) {
      const mine = descriptions.filter((d) => d.startsWith(`${id}: `))
      expect(
        mine.some((d) => d.includes('p99 duration')),
        id,
      ).toBe(true)
      expect(
        mine.some((d) => d.includes('unhandled errors')),
        id,
      ).toBe(true)
      expect(
        mine.some((d) => d.includes('throttled')),
        id,
      ).toBe(true)
    }
  })

  it('has one dashboard for the stage', () => {
    apiTemplate.resourceCountIs('AWS::CloudWatch::Dashboard', 1)
    apiTemplate.hasResourceProperties('AWS::CloudWatch::Dashboard', { DashboardName: 'einvoicing-prod' })
    const body = JSON.stringify(Object.values(apiTemplate.findResources('AWS::CloudWatch::Dashboard'))[0])
    for (const metric of ['Requests', 'Refusals', 'Invoices', 'Transactions', 'ColdStart', 'Duration']) {
      expect(body, metric).toContain(metric)
    }
  })

  it('writes JSON access logs of the $default stage to their own log group', () => {
    const [stage] = Object.values(apiTemplate.findResources('AWS::ApiGatewayV2::Stage'))
    const settings = stage!.Properties.AccessLogSettings
    expect(settings.DestinationArn).toEqual({ 'Fn::GetAtt': [expect.stringMatching(/^AccessLogs/), 'Arn'] })
    expect(JSON.parse(settings.Format)).toMatchObject({
      requestId: '$context.requestId',
      routeKey: '$context.routeKey',
      status: '$context.status',
      latencyMs: '$context.responseLatency',
      integrationError: '$context.integrationErrorMessage',
    })
  })
})

describe('asynchronous consumers', () => {
  it('give every stream event source mapping an on-failure SQS destination, bisect on error and per-item failures', () => {
    // Stream mappings (they have a starting position); an SQS mapping's go to its queue's redrive DLQ (stacks.test.ts).
    const mappings = Object.values(apiTemplate.findResources('AWS::Lambda::EventSourceMapping')).filter(
      (m) => m.Properties.StartingPosition,
    )
    expect(mappings.length).toBeGreaterThan(0)
    const queues = apiTemplate.findResources('AWS::SQS::Queue')
    for (const mapping of mappings) {
      const destination = mapping.Properties.DestinationConfig?.OnFailure?.Destination
      expect(destination?.['Fn::GetAtt']?.[1]).toBe('Arn')
      expect(queues[destination['Fn::GetAtt'][0]]).toBeDefined()
      expect(mapping.Properties).toMatchObject({
        BisectBatchOnFunctionError: true,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      })
    }
  })

  it('outputs each dead-letter queue for the redrive command', () => {
    const outputs = apiTemplate.findOutputs('*')
    expect(
      Object.keys(outputs)
        .filter((k) => k.startsWith('DeadLetters'))
        .sort(),
    ).toEqual(
      [
        'DeadLettersOutboxSender',
        'DeadLettersHistoryIndexer',
        'DeadLettersWebhookFanOut',
        'DeadLettersWebhookDeliver',
        'DeadLettersWebhookDeliverTest',
        'DeadLettersWebhookRecover',
        'DeadLettersBatchDispatch',
        'DeadLettersBatchWorker',
        // The receipts' stream consumer (receipt.late, chain.fork); the chain watch is scheduled.
        'DeadLettersReceiptEvents',
      ].sort(),
    )
    expect(outputs.DeadLettersOutboxSender!.Description).toBe('Dead-letter queue of outbox-sender')
  })
})

describe('least privilege from the route table', () => {
  it('gives each function exactly the table actions of its Access (lib/service/function-access.ts)', () => {
    const table = functionsOf(routes)
    for (const [functionId, served] of table) {
      const grants = accessOfRoutes(served).table ?? []
      const expected = [...new Set(grants.flatMap((g) => g.actions.map((a) => `dynamodb:${a}`)))]
      expect([...new Set(tableActionsOf(functionId))].sort(), functionId).toEqual(expected.sort())
    }
    expect(tableActionsOf(UNROUTED.functionId)).toEqual([])
  })

  it('gives openapi and unrouted no table permission at all, and resource-public-keys a Query of the published keys only', () => {
    for (const functionId of ['openapi', UNROUTED.functionId]) {
      expect(tableActionsOf(functionId), functionId).toEqual([])
    }
    expect(
      statementsOf('resource-public-keys').filter((s) => actionsOf(s).some((a) => a.startsWith('dynamodb:'))),
    ).toEqual([
      expect.objectContaining({
        Action: 'dynamodb:Query',
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['SIGNING_KEYS*'] } },
      }),
    ])
  })

  it('gives no API function Scan or any stream action, and BatchWriteItem to batch submission only, on batch partitions', () => {
    for (const functionId of allFunctionIds) {
      const actions = tableActionsOf(functionId)
      for (const forbidden of [
        'dynamodb:Scan',
        'dynamodb:GetRecords',
        'dynamodb:GetShardIterator',
        'dynamodb:DescribeStream',
        'dynamodb:ListStreams',
        'dynamodb:*',
      ]) {
        expect(actions, functionId).not.toContain(forbidden)
      }
      const batchWrites = statementsOf(functionId).filter((s) =>
        ([] as string[]).concat(s.Action).includes('dynamodb:BatchWriteItem'),
      )
      if (functionId !== 'app-invoice-batch-submit') {
        expect(batchWrites, functionId).toEqual([])
        continue
      }
      expect(batchWrites).toHaveLength(1)
      expect(batchWrites[0]!.Action).toBe('dynamodb:BatchWriteItem')
      expect(batchWrites[0]!.Condition).toEqual({
        'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['BATCH#*'] },
      })
    }
  })

  it('names each index in table grants instead of index/*', () => {
    const resources = allFunctionIds.flatMap((id) => statementsOf(id).map((s) => JSON.stringify(s.Resource)))
    expect(resources.some((r) => r.includes('/index/*'))).toBe(false)
  })
})

describe('data stack outputs', () => {
  it('outputs the table name and ARN, the data key ARN and the alarm topic', () => {
    const outputs = dataTemplate.findOutputs('*')
    for (const name of Object.values(DATA_OUTPUTS)) expect(Object.keys(outputs), name).toContain(name)
    expect(outputs[DATA_OUTPUTS.alarmTopicArn]!.Value).toEqual(topicRef)
  })
})
