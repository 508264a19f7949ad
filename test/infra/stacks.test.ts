import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { RemovalPolicy, Stack } from 'aws-cdk-lib'
import { consumers } from '#lib/service/consumers.ts'
import { Match, Template } from 'aws-cdk-lib/assertions'
import { RetentionDays } from 'aws-cdk-lib/aws-logs'
import { beforeAll, describe, expect, it } from 'vitest'
import { cdkApp } from '../support/cdk-app.ts'
import { indexInput, tableDefinition } from '#lib/platform/db/table.ts'
import { functionsOf, type Route, routeKey, routes, UNROUTED } from '#lib/service/routes.ts'
import { accessOfFunctions } from '#lib/service/function-access.ts'
import { physicalFunctionName } from '../../infra/constructs/api-function.ts'
import { Consumers } from '../../infra/constructs/consumers.ts'
import { AREA_STACKS, stackOf, stackTitle } from '../../infra/stacks/areas.ts'
import { loadStageSettings } from '../../infra/settings.ts'
import { buildStage, CONSUMER_FUNCTIONS } from '../../infra/stage.ts'
import { logicalIdOf, type SynthesizedStage as Synthesized, synthStage } from './stage-templates.ts'

/** Every stack of one stage. */
const synth = (stage: string): Synthesized => synthStage({ stage })

type Statement = { Effect: string; Action: string | string[]; Condition?: Record<string, unknown> }
const actionsOf = (s: Statement): string[] => (Array.isArray(s.Action) ? s.Action : [s.Action])

/** Every IAM statement attached to a function's execution role (its inline and default policies). */
function statementsOf({ stage, apiTemplate }: Synthesized, functionId: string): Statement[] {
  const fn = stage.functions.get(functionId)
  if (!fn) throw new Error(`no function ${functionId}`)
  const roleId = logicalIdOf(fn.function.role!)
  const policies = Object.values(apiTemplate.findResources('AWS::IAM::Policy')).filter((p) =>
    (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId),
  )
  const inline = apiTemplate.findResources('AWS::IAM::Role')[roleId]?.Properties?.Policies ?? []
  return [
    ...policies.map((p) => p.Properties.PolicyDocument),
    ...inline.map((p: any) => p.PolicyDocument),
  ].flatMap((doc) => doc.Statement as Statement[])
}

const WRITE_ACTIONS = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
]
const functionIds = [...functionsOf(routes).keys()]

let prod: Synthesized
let dev: Synthesized
beforeAll(() => {
  prod = synth('prod')
  dev = synth('dev')
  // Two stages with their alarms and dashboards: over a minute on a loaded machine.
}, 180_000)

describe('DataStack', () => {
  it('builds the table from tableDefinition: pk/sk, every GSI as declared (keys and projection), TTL on expiresAt', () => {
    prod.dataTemplate.resourceCountIs('AWS::DynamoDB::GlobalTable', 1)
    prod.dataTemplate.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
      StreamSpecification: { StreamViewType: 'NEW_IMAGE' },
      SSESpecification: { SSEEnabled: true, SSEType: 'KMS' },
    })
    const [table] = Object.values(prod.dataTemplate.findResources('AWS::DynamoDB::GlobalTable'))
    const indexes = table!.Properties.GlobalSecondaryIndexes
    expect(indexes).toHaveLength(tableDefinition.globalSecondaryIndexes.length)
    for (const gsi of tableDefinition.globalSecondaryIndexes) {
      // Each index as declared: its keys and what it projects.
      expect(indexes).toContainEqual(indexInput(gsi))
    }
  })

  it('protects the prod table: deletion protection, PITR, DeletionPolicy Retain', () => {
    prod.dataTemplate.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        Replicas: [
          Match.objectLike({
            DeletionProtectionEnabled: true,
            PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
          }),
        ],
      }),
    })
  })

  it('lets a dev table be destroyed, with PITR still on', () => {
    dev.dataTemplate.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'Delete',
      Properties: Match.objectLike({
        Replicas: [
          Match.objectLike({
            DeletionProtectionEnabled: false,
            PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
          }),
        ],
      }),
    })
  })
})

/** The consumer a function (by its description, which ends with its functionId) is, if any. */
const consumerOf = (description: unknown) =>
  consumers.find((c) => String(description).endsWith(` ${c.functionId}`))
/** The timeout an API function's routes declare (Area B's bound), if any. */
const declaredTimeoutOf = (description: unknown) =>
  routes.find((r) => String(description).endsWith(` ${r.functionId}`))?.timeoutSeconds

describe('one stack per area (CONTRACT section 13)', () => {
  it("keeps every template of the stage at most 300 resources (60% of CloudFormation's 500)", () => {
    const counts = Object.fromEntries(
      [...prod.templates].map(([name, t]) => [name, Object.keys(t.toJSON().Resources).length]),
    )
    expect(Object.keys(counts).sort()).toEqual(
      ['Data', 'Api', ...AREA_STACKS.map(stackTitle), 'ApiStage'].map((s) => `Einvoicing-prod-${s}`).sort(),
    )
    for (const [name, count] of Object.entries(counts)) expect(count, name).toBeLessThanOrEqual(300)
  })

  it('fails the check that guards the limit when a stack is over it', () => {
    // The same count on a stage whose route table is many times the real one: the largest area
    // stack passes 300, so the assertion above can fail.
    const many = Array.from({ length: 2 }, (_, copy) =>
      routes.map((r) => ({ ...r, path: `${r.path}/copy${copy}`, functionId: `${r.functionId}-c${copy}` })),
    ).flat()
    const big = synthStage({ stage: 'dev', routes: many, consumers: [] })
    const largest = Math.max(
      ...[...big.templates.values()].map((t) => Object.keys(t.toJSON().Resources).length),
    )
    expect(largest).toBeGreaterThan(300)
  })

  it("deploys each endpoint in the stack stackOf names, and each consumer in its declaration's", () => {
    for (const route of routes) {
      const fn = prod.stage.functions.get(route.functionId)!
      expect(Stack.of(fn).stackName, route.functionId).toBe(`Einvoicing-prod-${stackTitle(stackOf(route))}`)
    }
    for (const c of consumers) {
      const fn = prod.stage.consumerFunctions.get(c.functionId)
      expect(fn?.stack.stackName, c.functionId).toBe(`Einvoicing-prod-${stackTitle(c.stack)}`)
    }
    expect(Stack.of(prod.stage.functions.get(UNROUTED.functionId)!)).toBe(prod.stage.edge)
  })

  it('lets references flow one way: the edge imports only from the data stack, the areas from data and edge, the stage from the edge', () => {
    const importsOf = (name: string) =>
      [...JSON.stringify(prod.templates.get(name)!.toJSON()).matchAll(/"Fn::ImportValue":"([^:"]+):/g)].map(
        (m) => m[1],
      )
    expect(new Set(importsOf('Einvoicing-prod-Api'))).toEqual(new Set(['Einvoicing-prod-Data']))
    for (const area of AREA_STACKS) {
      const from = new Set(importsOf(`Einvoicing-prod-${stackTitle(area)}`))
      expect(from, area).toEqual(new Set(['Einvoicing-prod-Data', 'Einvoicing-prod-Api']))
    }
    expect(prod.stage.edge.dependencies.map((s) => s.stackName)).toEqual(['Einvoicing-prod-Data'])
    // The API's stage: the API's id from the edge, and deployed after every area (its route throttles).
    expect(new Set(importsOf('Einvoicing-prod-ApiStage'))).toEqual(new Set(['Einvoicing-prod-Api']))
    expect(prod.stage.apiStage.dependencies.map((s) => s.stackName).sort()).toEqual(
      ['Api', ...AREA_STACKS.map(stackTitle)].map((s) => `Einvoicing-prod-${s}`).sort(),
    )
  })

  it('names every function einvoicing-<stage>-<functionId>, which the edge dashboard reads', () => {
    const names = Object.values(prod.apiTemplate.findResources('AWS::Lambda::Function')).map(
      (fn) => fn.Properties.FunctionName,
    )
    expect(names.sort()).toEqual(
      [...functionIds, UNROUTED.functionId, ...CONSUMER_FUNCTIONS]
        .map((id) => `einvoicing-prod-${id}`)
        .sort(),
    )
    const dashboard = JSON.stringify(
      prod.templates.get('Einvoicing-prod-Api')!.findResources('AWS::CloudWatch::Dashboard'),
    )
    for (const id of [...functionIds, ...CONSUMER_FUNCTIONS])
      expect(dashboard, id).toContain(`einvoicing-prod-${id}`)
    // Lambda takes names of at most 64 characters, with the longest stage name app.ts allows (20).
    for (const id of [...functionIds, UNROUTED.functionId, ...CONSUMER_FUNCTIONS])
      expect(physicalFunctionName('s'.repeat(20), id).length, id).toBeLessThanOrEqual(64)
  })
})

describe('the stage', () => {
  it('refuses the stage name local, which would allow plain-http loopback webhooks in AWS', () => {
    expect(() => synth('local')).toThrow(/stage "local" cannot be deployed: it is the local server's stage/)
  })

  it('deploys one function per functionId of the route table, plus the unrouted catch-all and the consumers', () => {
    prod.apiTemplate.resourceCountIs('AWS::Lambda::Function', functionIds.length + 1 + consumers.length)
    expect([...prod.stage.functions.keys()].sort()).toEqual([...functionIds, UNROUTED.functionId].sort())
  })

  it('runs every function on nodejs22.x, arm64, with the house settings and environment', () => {
    const functions = Object.values(prod.apiTemplate.findResources('AWS::Lambda::Function'))
    expect(functions).toHaveLength(functionIds.length + 1 + consumers.length)
    for (const fn of functions) {
      // A consumer's memory and timeout are its declaration's (the stream consumers work in batches,
      // the daily reconciliation scans the whole table); an API function's the house defaults, or
      // the timeout its declaration gives (Area B's, test/infra/area-b-timeouts.test.ts).
      const consumer = consumerOf(fn.Properties.Description)
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        MemorySize: consumer?.memoryMB ?? 1024,
        Timeout: consumer?.timeoutSeconds ?? declaredTimeoutOf(fn.Properties.Description) ?? 10,
        Environment: {
          Variables: {
            TABLE_NAME: expect.anything(),
            STAGE: 'prod',
            SERVICE_NAME: 'einvoicing-api',
            SERVICE_VERSION: expect.stringMatching(/^\d+\.\d+\.\d+/),
            NODE_OPTIONS: '--enable-source-maps',
            LOG_LEVEL: 'INFO',
          },
        },
        // JSON, so that Lambda's INFO platform lines (START, END, REPORT) can be left out of the bill.
        LoggingConfig: {
          LogGroup: { Ref: expect.any(String) },
          LogFormat: 'JSON',
          SystemLogLevel: 'WARN',
          ApplicationLogLevel: 'INFO',
        },
      })
      expect(fn.Properties.TracingConfig).toEqual({ Mode: 'Active' })
    }
  })

  it('creates one route per route-table entry, wired to its function with payload 2.0, plus $default', () => {
    const { stage, apiTemplate } = prod
    const routeResources = Object.values(apiTemplate.findResources('AWS::ApiGatewayV2::Route'))
    expect(routeResources).toHaveLength(routes.length + 1)
    const integrations = apiTemplate.findResources('AWS::ApiGatewayV2::Integration')
    const targetFunction = (routeKeyValue: string): string => {
      const matches = routeResources.filter((r) => r.Properties.RouteKey === routeKeyValue)
      expect(matches, routeKeyValue).toHaveLength(1)
      const integrationId = matches[0]!.Properties.Target['Fn::Join'][1][1].Ref as string
      const integration = integrations[integrationId]!.Properties
      expect(integration.PayloadFormatVersion).toBe('2.0')
      return integration.IntegrationUri['Fn::GetAtt'][0]
    }
    const functionOf = (functionId: string) => logicalIdOf(stage.functions.get(functionId)!.function)

    for (const route of routes) {
      expect(targetFunction(routeKey(route)), routeKey(route)).toBe(functionOf(route.functionId))
    }
    expect(targetFunction('$default')).toBe(functionOf(UNROUTED.functionId))
  })

  it("throttles the $default stage's catch-all as its settings say", () => {
    const { unrouted } = loadStageSettings('prod').throttles
    prod.apiTemplate.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: {
        ThrottlingRateLimit: unrouted.rateLimit,
        ThrottlingBurstLimit: unrouted.burstLimit,
      },
    })
  })

  it('outputs the API URL', () => {
    const outputs = prod.apiTemplate.findOutputs('ApiUrl')
    expect(JSON.stringify(outputs.ApiUrl?.Value)).toMatch(/https:\/\/.*execute-api/)
  })

  it("creates a custom domain and its mapping only when the stage's settings give one", () => {
    prod.apiTemplate.resourceCountIs('AWS::ApiGatewayV2::DomainName', 0)
    prod.apiTemplate.resourceCountIs('AWS::ApiGatewayV2::ApiMapping', 0)

    const certificateArn =
      'arn:aws:acm:eu-west-1:123456789012:certificate/00000000-0000-0000-0000-000000000000'
    const { stage } = synthStage({
      stage: 'dev',
      prefix: 'Domain',
      routes: routes.slice(0, 1),
      consumers: [],
      settings: { ...loadStageSettings('dev'), domain: { name: 'api.example.com', certificateArn } },
    })
    Template.fromStack(stage.edge).hasResourceProperties('AWS::ApiGatewayV2::DomainName', {
      DomainName: 'api.example.com',
      DomainNameConfigurations: [Match.objectLike({ CertificateArn: certificateArn })],
    })
    Template.fromStack(stage.apiStage).hasResourceProperties('AWS::ApiGatewayV2::ApiMapping', {
      Stage: Match.anyValue(),
    })
  })

  it('keeps one month of logs in an explicit log group per function, and of the access logs', () => {
    const groups = Object.values(prod.apiTemplate.findResources('AWS::Logs::LogGroup'))
    expect(groups).toHaveLength(functionIds.length + 1 + 1 + consumers.length)
    for (const group of groups) expect(group.Properties.RetentionInDays).toBe(30)
  })

  it('alarms on every function errors, throttles and p99 latency, and on the API 5xx rate', () => {
    // The daily reconciliation's alarm has its own period and rules (test/infra/reconciliation.test.ts),
    // the consumers' theirs (below).
    const alarms = Object.entries(prod.apiTemplate.findResources('AWS::CloudWatch::Alarm'))
      .filter(([id]) => !id.startsWith('Consumers'))
      .map(([, a]) => a.Properties)
      .filter((a) => a.MetricName !== 'ReconciliationDifferences')
    const count = (metric: string) => alarms.filter((a) => a.MetricName === metric).length
    expect(count('Errors')).toBe(functionIds.length + 3)
    expect(count('Throttles')).toBe(functionIds.length + 1)
    expect(alarms.filter((a) => a.MetricName === 'Duration' && a.ExtendedStatistic === 'p99')).toHaveLength(
      functionIds.length + 1,
    )
    const rate = alarms.find((a) => String(a.AlarmDescription).startsWith('API 5xx rate'))
    expect(rate?.Metrics).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Expression: 'IF(requests > 0, 100 * errors / requests, 0)' }),
      ]),
    )
    for (const alarm of alarms.filter((a) => a.MetricName === 'Errors' || a.MetricName === 'Throttles')) {
      expect(alarm).toMatchObject({
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        Period: 300,
        Statistic: 'Sum',
      })
    }
  })

  describe('least privilege on the table', () => {
    it('gives a read function no write action except PutItem on its replay keys and UpdateItem on its rate limit windows', () => {
      expect(
        functionsOf(routes)
          .get('resource-states')
          ?.every((r) => !r.writes),
      ).toBe(true)
      const statements = statementsOf(prod, 'resource-states')
      const actions = statements.flatMap(actionsOf)
      expect(actions).toContain('dynamodb:GetItem')
      expect(actions).toContain('dynamodb:Query')
      for (const forbidden of ['dynamodb:DeleteItem', 'dynamodb:BatchWriteItem']) {
        expect(actions).not.toContain(forbidden)
      }
      // Authentication counts every request in the client's rate limit window (lib/platform/auth/rate-limit.ts).
      const updates = statements.filter((s) => actionsOf(s).includes('dynamodb:UpdateItem'))
      expect(updates).toHaveLength(1)
      expect(actionsOf(updates[0]!)).toEqual(['dynamodb:UpdateItem'])
      expect(updates[0]!.Condition).toEqual({
        'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RATE#*'] },
      })
      expect(actions.some((a) => a === 'dynamodb:*' || a === '*')).toBe(false)
      const puts = statements.filter((s) => actionsOf(s).includes('dynamodb:PutItem'))
      expect(puts).toHaveLength(1)
      expect(actionsOf(puts[0]!)).toEqual(['dynamodb:PutItem'])
      expect(puts[0]!.Condition).toEqual({
        'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['REPLAY#*'] },
      })
    })

    it('scopes a read function to the replay or nonce keys of its auth scheme, and a public one to none', () => {
      // The route table has no Area B or public read route today: a small table exercises each scheme.
      const route = (functionId: string, auth: Route['auth']): Route => ({
        method: 'GET',
        path: `/${functionId}`,
        functionId,
        handler: 'functions/meta/unrouted.ts',
        area: 'A',
        auth,
        roles: [],
        reply: 'record',
        profile: 'seed',
        stack: 'invoicing',
        access: { table: [{ actions: ['GetItem', 'Query'] }] },
        writes: false,
      })
      const synthesized = synthStage({
        stage: 'dev',
        prefix: 'Schemes',
        consumers: [],
        routes: [
          route('signed', 'api-signature'),
          route('switch', 'switch-signature'),
          route('merchant', 'merchant-bearer'),
          route('public', 'none'),
        ],
      })
      const writes = (id: string) =>
        statementsOf(synthesized, id).filter((s) => actionsOf(s).some((a) => WRITE_ACTIONS.includes(a)))
      const grant = (action: string, prefix: string) => ({
        Sid: expect.any(String),
        Effect: 'Allow',
        Action: action,
        Resource: expect.anything(),
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [prefix] } },
      })
      // Every authenticated request is counted in its client's rate limit window (RATE#).
      const rate = grant('dynamodb:UpdateItem', 'RATE#*')
      expect(writes('signed')).toEqual(expect.arrayContaining([grant('dynamodb:PutItem', 'REPLAY#*'), rate]))
      expect(writes('signed')).toHaveLength(2)
      expect(writes('switch')).toEqual(expect.arrayContaining([grant('dynamodb:PutItem', 'NONCE#*'), rate]))
      expect(writes('switch')).toHaveLength(2)
      expect(writes('merchant')).toEqual([rate])
      expect(writes('public')).toEqual([])
      expect(writes(UNROUTED.functionId)).toEqual([])
    })

    it('gives a write function PutItem and UpdateItem on the record kinds it declares only', () => {
      expect(
        functionsOf(routes)
          .get('si-generate-irn')
          ?.some((r) => r.writes),
      ).toBe(true)
      const dynamo = statementsOf(prod, 'si-generate-irn').filter((s) =>
        actionsOf(s).some((a) => a.startsWith('dynamodb:')),
      )
      // No table statement without a dynamodb:LeadingKeys condition (lib/service/endpoints/irn.ts).
      expect(dynamo.filter((s) => !s.Condition)).toEqual([])
      const writing = dynamo.filter((s) => actionsOf(s).includes('dynamodb:UpdateItem'))
      expect(writing.flatMap(actionsOf)).toEqual(expect.arrayContaining(['dynamodb:PutItem']))
      expect(writing.map((s) => s.Condition)).toContainEqual({
        'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['IRN#*', 'AUDIT#*'] },
      })
    })
  })
})

describe('service key secrets', () => {
  const readsSecret = (functionId: string) =>
    statementsOf(dev, functionId).some((s) => actionsOf(s).includes('secretsmanager:GetSecretValue'))
  const envOf = (functionId: string) => {
    const fn = dev.stage.functions.get(functionId)!
    return dev.apiTemplate.findResources('AWS::Lambda::Function')[logicalIdOf(fn.function)]!.Properties
      .Environment.Variables
  }

  it('creates the signing and QR authority secrets of each mode in the data stack, retained in prod', () => {
    // Live and test (CONTRACT 18): a test-mode artefact is made with keys of its own.
    prod.dataTemplate.resourceCountIs('AWS::SecretsManager::Secret', 4)
    for (const name of ['signing-key', 'qr-authority-key', 'test-signing-key', 'test-qr-authority-key'])
      prod.dataTemplate.hasResourceProperties('AWS::SecretsManager::Secret', {
        Name: `einvoicing/prod/${name}`,
      })
    prod.dataTemplate.hasResource('AWS::SecretsManager::Secret', { DeletionPolicy: 'Retain' })
    dev.dataTemplate.hasResource('AWS::SecretsManager::Secret', { DeletionPolicy: 'Delete' })
  })

  it('lets exactly the functions whose routes name a key read it, and tells them its ARN', () => {
    const users = new Map<string, Set<string>>()
    for (const r of routes)
      for (const name of r.access.secrets ?? [])
        users.set(r.functionId, (users.get(r.functionId) ?? new Set()).add(name))
    expect([...users.keys()].sort()).toEqual(
      [
        'app-invoice-sign',
        'app-invoice-validate',
        'health-check',
        // The invoice PDF encrypts its QR text once, for the authority key (lib/documents/invoice-qr.ts).
        'invoice-pdf',
        // A reported B2C receipt is stamped as sign stamps an invoice (CONTRACT 23).
        'receipts-report',
        'resource-verify-qr',
        'si-generate-qr-code',
      ].sort(),
    )
    for (const functionId of functionIds) {
      expect(readsSecret(functionId), functionId).toBe(users.has(functionId))
      const env = envOf(functionId)
      expect(Boolean(env.SIGNING_KEY_SECRET_ARN), functionId).toBe(
        Boolean(users.get(functionId)?.has('signing-key')),
      )
      expect(Boolean(env.QR_KEY_SECRET_ARN), functionId).toBe(
        Boolean(users.get(functionId)?.has('qr-authority-key')),
      )
      // Each key's test twin goes with it: a function serves both modes.
      expect(Boolean(env.TEST_SIGNING_KEY_SECRET_ARN), functionId).toBe(Boolean(env.SIGNING_KEY_SECRET_ARN))
      expect(Boolean(env.TEST_QR_KEY_SECRET_ARN), functionId).toBe(Boolean(env.QR_KEY_SECRET_ARN))
    }
  })
})

describe('merchant history indexer', () => {
  it('reads the table stream filtered to transfer records, retrying, splitting and dead-lettering failing batches', () => {
    dev.apiTemplate.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      StartingPosition: 'TRIM_HORIZON',
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 10,
      BatchSize: 100,
      DestinationConfig: { OnFailure: { Destination: Match.anyValue() } },
      FilterCriteria: {
        Filters: [
          {
            Pattern: JSON.stringify({
              eventName: ['INSERT', 'MODIFY'],
              dynamodb: {
                Keys: { pk: { S: [{ prefix: 'BANKREQ#' }] } },
                NewImage: { kind: { S: ['TRANSFER'] } },
              },
            }),
          },
        ],
      },
    })
  })

  it('pages when the history trails the ledger by more than 5 s (the stream iterator age)', () => {
    dev.apiTemplate.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'IteratorAge',
      Statistic: 'Maximum',
      Threshold: 5000,
      ComparisonOperator: 'GreaterThanThreshold',
      AlarmDescription: Match.stringLikeRegexp('^history-indexer: '),
    })
  })
})

describe('outbox sender', () => {
  it('reads the table stream, filtered to newly inserted outbox items', () => {
    dev.apiTemplate.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      StartingPosition: 'TRIM_HORIZON',
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      FilterCriteria: {
        Filters: [
          {
            Pattern: JSON.stringify({
              eventName: ['INSERT'],
              dynamodb: { Keys: { pk: { S: [{ prefix: 'OUTBOX#' }] } } },
            }),
          },
        ],
      },
    })
  })

  it('may send through SES only from the configured identity, and only when one is configured', () => {
    const ses = (template: Template) =>
      Object.values(template.findResources('AWS::IAM::Policy'))
        .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[])
        .filter((s) => actionsOf(s).some((a) => a.startsWith('ses:')))
    expect(ses(dev.apiTemplate)).toEqual([])
    const { apiTemplate } = synthStage({
      stage: 'dev',
      prefix: 'Ses',
      routes: [],
      consumers: ['outbox-sender'],
      settings: {
        ...loadStageSettings('dev'),
        ses: { fromAddress: 'notify@pay.example.com', identity: 'pay.example.com' },
      },
    })
    const statements = ses(apiTemplate)
    expect(statements).toHaveLength(1)
    expect(actionsOf(statements[0]!)).toEqual(['ses:SendEmail'])
    expect(JSON.stringify(statements[0])).toContain('identity/notify@pay.example.com')
    expect(JSON.stringify(statements[0])).not.toContain('identity/*')
  })
})

describe('data encryption key (issue 7)', () => {
  /** Every IAM statement in a template: function roles, the outbox sender, custom resources. */
  const allStatements = (template: Template): Statement[] => [
    ...Object.values(template.findResources('AWS::IAM::Policy')).flatMap(
      (p) => p.Properties.PolicyDocument.Statement as Statement[],
    ),
    ...Object.values(template.findResources('AWS::IAM::Role')).flatMap((r) =>
      (r.Properties.Policies ?? []).flatMap((p: any) => p.PolicyDocument.Statement as Statement[]),
    ),
  ]
  const kmsActionsOf = (functionId: string) =>
    statementsOf(dev, functionId).flatMap((s) => actionsOf(s).filter((a) => a.startsWith('kms:')))
  const routesOf = (functionId: string) => routes.filter((r) => r.functionId === functionId)

  it('creates a customer-managed key with yearly rotation, retained in prod', () => {
    for (const { dataTemplate } of [prod, dev])
      dataTemplate.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true })
    prod.dataTemplate.resourceCountIs('AWS::KMS::Key', 1)
    prod.dataTemplate.hasResource('AWS::KMS::Key', { DeletionPolicy: 'Retain' })
    dev.dataTemplate.hasResource('AWS::KMS::Key', { DeletionPolicy: 'Delete' })
  })

  it('grants kms:* (or *) to nobody, in either stack', () => {
    for (const { apiTemplate, dataTemplate } of [prod, dev])
      for (const s of [...allStatements(apiTemplate), ...allStatements(dataTemplate)]) {
        expect(actionsOf(s)).not.toContain('kms:*')
        expect(actionsOf(s)).not.toContain('*')
      }
  })

  it('lets only the functions that open secrets or notes decrypt, bound to those records, and tells every function the key', () => {
    // The table keeps its AWS-managed key, so a table grant brings no KMS permission: every kms:
    // action a function holds is one of the two data key statements below.
    const expected = new Map<string, string[]>()
    for (const functionId of functionIds) {
      const served = routesOf(functionId)
      const records = [
        // Each signature scheme opens its own clients' secrets only (lib/platform/iam/access.ts SCHEME_ACCESS).
        ...(served.some((r) => r.auth === 'api-signature') ? ['api-client'] : []),
        ...(served.some((r) => r.auth === 'switch-signature') ? ['switch-client'] : []),
        ...(served.some((r) =>
          ['functions/lifecycle/si-get-invoice.ts', 'functions/lifecycle/app-invoice-transmit.ts'].includes(
            r.handler,
          ),
        )
          ? ['invoice']
          : []),
        // A reply carrying a secret is stored sealed and opened for a replay (lib/platform/http/sealed-reply.ts).
        ...(served.some((r) => r.sealedReply) ? ['idempotent-reply'] : []),
      ]
      if (records.length) expected.set(functionId, records)
    }
    expect(expected.get('si-get-invoice')).toEqual(['api-client', 'invoice'])
    expect(expected.get('transactions-transfer')).toEqual(['switch-client'])
    // Bearer and public functions (merchant history, notifications, resource lists) get nothing.
    expect(expected.size).toBeLessThan(functionIds.length)
    for (const functionId of functionIds) {
      const decrypt = statementsOf(dev, functionId).filter((s) => actionsOf(s).includes('kms:Decrypt'))
      if (!expected.has(functionId)) {
        expect(decrypt, functionId).toEqual([])
        continue
      }
      expect(decrypt, functionId).toEqual([
        expect.objectContaining({
          Action: 'kms:Decrypt',
          Effect: 'Allow',
        }),
      ])
      const condition = decrypt[0]!.Condition as { StringEquals: Record<string, string | string[]> }
      const records = condition.StringEquals['kms:EncryptionContext:record']
      expect([records].flat().sort(), functionId).toEqual([...expected.get(functionId)!].sort())
    }
    expect(kmsActionsOf(UNROUTED.functionId)).toEqual([])
  })

  it('lets only the functions that store invoices or create webhook or API secrets encrypt, and none of the read ones', () => {
    const writers = ['si-validate', 'app-invoice-validate', 'app-invoice-sign'].filter((id) =>
      functionIds.includes(id),
    )
    expect(writers.length).toBeGreaterThanOrEqual(2)
    for (const functionId of functionIds) {
      // Sorted: cdk.json's @aws-cdk/aws-iam:minimizePolicies writes a statement's actions sorted.
      const encrypts = kmsActionsOf(functionId)
        .filter((a) => a !== 'kms:Decrypt')
        .sort()
      expect(encrypts, functionId).toEqual(
        routesOf(functionId).some(
          (r) =>
            (r.handler.startsWith('functions/invoice/') && /validate|sign/.test(r.handler)) ||
            r.handler === 'functions/webhooks/webhook-subscription-create.ts' ||
            // A reported B2C receipt is stored as a signed invoice, its notes sealed as sign seals them.
            r.handler === 'functions/receipts/receipts-report.ts' ||
            // Self-service keys seal the secrets they issue and roll (CONTRACT 15).
            r.handler === 'functions/api-keys/api-key-issue.ts' ||
            r.handler === 'functions/api-keys/api-key-roll.ts',
        )
          ? ['kms:Encrypt', 'kms:GenerateDataKey']
          : [],
      )
    }
  })

  it('tells every function the key ARN, so none falls back to a local key file', () => {
    for (const functionId of functionIds) {
      const fn = dev.stage.functions.get(functionId)!
      const env =
        dev.apiTemplate.findResources('AWS::Lambda::Function')[logicalIdOf(fn.function)]!.Properties
          .Environment.Variables
      expect(env.DATA_KEY_ARN, functionId).toBeDefined()
    }
  })
})

describe('Consumers (lib/service/consumers.ts on DynamoDB Streams and SQS)', () => {
  it('maps each stream consumer to a filtered event source with partial failures, bisect and a DLQ', () => {
    const mappings = Object.values(prod.apiTemplate.findResources('AWS::Lambda::EventSourceMapping'))
    const streamMappings = mappings.filter((m) => m.Properties.StartingPosition === 'TRIM_HORIZON')
    expect(streamMappings).toHaveLength(consumers.filter((c) => c.trigger.kind === 'stream').length)
    for (const m of streamMappings) {
      expect(m.Properties).toMatchObject({
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        BisectBatchOnFunctionError: true,
      })
      expect(JSON.stringify(m.Properties.FilterCriteria)).toContain('INSERT')
    }
    const withDlq = streamMappings.filter((m) => m.Properties.DestinationConfig?.OnFailure?.Destination)
    expect(withDlq.length).toBe(streamMappings.length)
  })

  it('feeds webhook attempts and recoveries, and batches, from SQS queues with a redrive policy, reporting partial failures', () => {
    const queues = Object.values(prod.apiTemplate.findResources('AWS::SQS::Queue'))
    const main = queues
      .filter((q) => q.Properties.RedrivePolicy)
      .map((q) => q.Properties)
      .sort((a, b) => a.VisibilityTimeout - b.VisibilityTimeout)
    // The live and the test delivery queues (CONTRACT 18), the recovery queue (CONTRACT 21), then the
    // batch jobs (CONTRACT 18: one message per batch, so no batch waits on another's as records of
    // one stream shard do).
    expect(main).toHaveLength(4)
    for (const delivery of main.slice(0, 2))
      expect(delivery).toMatchObject({ VisibilityTimeout: 90, RedrivePolicy: { maxReceiveCount: 20 } })
    expect(main[2]).toMatchObject({ VisibilityTimeout: 120, RedrivePolicy: { maxReceiveCount: 20 } })
    expect(main[3]).toMatchObject({ VisibilityTimeout: 360, RedrivePolicy: { maxReceiveCount: 20 } })
    const sqsMappings = Object.values(
      prod.apiTemplate.findResources('AWS::Lambda::EventSourceMapping'),
    ).filter((m) => m.Properties.StartingPosition === undefined)
    expect(sqsMappings).toHaveLength(4)
    for (const m of sqsMappings)
      expect(m.Properties.FunctionResponseTypes).toEqual(['ReportBatchItemFailures'])
    // A storm of deliveries, recoveries or batches cannot take the account's concurrency from the API
    // (CONTRACT section 14), and sandbox deliveries have a share of their own (CONTRACT 18).
    expect(
      sqsMappings.map((m) => m.Properties.ScalingConfig.MaximumConcurrency).sort((a, b) => a - b),
    ).toEqual([5, 5, 10, 20])
  })

  it('alarms on any message in a dead-letter queue', () => {
    const alarms = Object.values(prod.apiTemplate.findResources('AWS::CloudWatch::Alarm')).filter((a) =>
      String(a.Properties.AlarmDescription).includes('waits in the dead-letter queue'),
    )
    // Each consumer fed by a stream or a queue (a scheduled one has none: its alarm is on its figure).
    expect(alarms).toHaveLength(consumers.filter((c) => c.trigger.kind !== 'schedule').length)
  })
})

describe('one declaration and one access entry per deployed function', () => {
  /** The functionIds (each function's description ends with its own) of the templates' functions that `access` has no entry for. */
  const withoutAccess = (templates: Iterable<Template>, access: ReadonlyMap<string, unknown>) =>
    [...templates]
      .flatMap((t) => Object.values(t.findResources('AWS::Lambda::Function')))
      .map((fn) => String(fn.Properties.Description).split(' ').pop()!)
      .filter((functionId) => !access.has(functionId))

  it('gives every function of the stage, endpoint or consumer, the access entry its local runs are held to', () => {
    expect(withoutAccess(prod.templates.values(), accessOfFunctions())).toEqual([])
    expect(accessOfFunctions().get('reconcile-daily')?.table).toEqual([{ actions: ['Scan'] }])
  })

  it('finds a function deployed from a consumer declaration that is not in the list', () => {
    const app = cdkApp({ context: { 'aws:cdk:bundling-stacks': [] } })
    const stage = buildStage(app, { stage: 'dev', routes: [], consumers: ['reconcile-daily'] })
    const payments = stage.areas.get('payments')!
    const planted = { ...consumers.find((c) => c.functionId === 'reconcile-daily')!, functionId: 'planted' }
    new Consumers(payments, 'Planted', {
      consumers: [{ ...planted, constructId: undefined }],
      table: stage.data.table,
      stage: 'dev',
      serviceName: 'einvoicing-api',
      serviceVersion: '0.0.0',
      logRemovalPolicy: RemovalPolicy.DESTROY,
      logRetention: RetentionDays.ONE_MONTH,
      apiFunctions: new Map(),
    })
    expect(withoutAccess([Template.fromStack(payments)], accessOfFunctions())).toEqual(['planted'])
  })

  it('names no consumer in the stacks, their constructs or the access module: each is built from its declaration', () => {
    const root = fileURLToPath(new URL('../../', import.meta.url))
    const files = [
      ...readdirSync(join(root, 'infra'), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.ts'))
        .map((f) => join('infra', f)),
      'lib/service/function-access.ts',
    ]
    const named = files.flatMap((file) => {
      const text = readFileSync(join(root, file), 'utf8')
      return CONSUMER_FUNCTIONS.filter((id) => text.includes(id)).map((id) => `${file}: ${id}`)
    })
    expect(named).toEqual([])
  })
})
