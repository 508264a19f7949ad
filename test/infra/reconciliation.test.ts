import { Match, type Template } from 'aws-cdk-lib/assertions'
import { beforeAll, describe, expect, it } from 'vitest'
import { RECONCILIATION_METRIC, RECONCILIATION_NAMESPACE } from '#lib/finance/reconcile-metric.ts'
import type { IFunction } from 'aws-cdk-lib/aws-lambda'
import type { AreaStack } from '../../infra/stacks/area-stack.ts'
import type { Stage } from '../../infra/stage.ts'
import { logicalIdOf as logicalId, synthStage } from './stage-templates.ts'

let stage: Stage
/** The stack the reconciliation lives in (its declaration's: payments). */
let api: AreaStack
let reconcile: IFunction
let template: Template
beforeAll(() => {
  // NodejsFunction bundling skipped: the assertions are about resources, not bundles.
  const synthesized = synthStage({
    stage: 'prod',
    prefix: 'Recon',
    routes: [],
    consumers: ['reconcile-daily'],
  })
  stage = synthesized.stage
  api = stage.areas.get('payments')!
  reconcile = stage.consumerFunctions.get('reconcile-daily')!
  template = synthesized.templates.get(api.stackName)!
})

describe('the daily reconciliation', () => {
  it('is invoked by an EventBridge Scheduler schedule every day at 02:00 Lagos time', () => {
    const fnId = logicalId(reconcile)
    template.hasResourceProperties('AWS::Scheduler::Schedule', {
      ScheduleExpression: 'cron(0 2 * * ? *)',
      ScheduleExpressionTimezone: 'Africa/Lagos',
      State: 'ENABLED',
      Target: Match.objectLike({
        Arn: { 'Fn::GetAtt': [fnId, 'Arn'] },
        RetryPolicy: Match.objectLike({ MaximumRetryAttempts: 0 }),
      }),
    })
  })

  it('alarms on any difference, and on a day without the figure, notifying the alarm topic', () => {
    template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: RECONCILIATION_NAMESPACE,
      MetricName: RECONCILIATION_METRIC,
      Dimensions: [{ Name: 'service', Value: 'einvoicing-api' }],
      Statistic: 'Maximum',
      Period: 86_400,
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'breaching',
      // The data stack's topic, imported.
      AlarmActions: [{ 'Fn::ImportValue': Match.stringLikeRegexp(`^${stage.data.stackName}:.*AlarmsTopic`) }],
    })
  })

  it('lets the function scan the table and nothing else: no write, no index, no key, no secret', () => {
    const roleId = logicalId(reconcile.role!)
    const statements = Object.values(template.findResources('AWS::IAM::Policy'))
      .filter((p) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
      .flatMap(
        (p) =>
          p.Properties.PolicyDocument.Statement as {
            Effect: string
            Action: string | string[]
            Resource: unknown
          }[],
      )
    const actionsOf = (s: { Action: string | string[] }) => (Array.isArray(s.Action) ? s.Action : [s.Action])
    expect(statements.every((s) => s.Effect === 'Allow')).toBe(true)
    const table = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('dynamodb:')))
    expect(table).toEqual([
      expect.objectContaining({
        Action: 'dynamodb:Scan',
        Resource: {
          'Fn::ImportValue': expect.stringMatching(/^Recon-Data:ExportsOutputFnGetAttTable\w+Arn\w+$/),
        },
      }),
    ])
    // Besides: its own log group and X-Ray traces, as every function (the metric goes out in the log).
    const others = statements.filter((s) => !table.includes(s)).flatMap(actionsOf)
    for (const action of others) expect(action).toMatch(/^(logs:(CreateLogStream|PutLogEvents)|xray:Put\w+)$/)
  })

  it('lets the scheduler invoke only this function', () => {
    const fnId = logicalId(reconcile)
    const roles = template.findResources('AWS::IAM::Role', {
      Properties: {
        AssumeRolePolicyDocument: Match.objectLike({
          Statement: Match.arrayWith([
            Match.objectLike({ Principal: { Service: 'scheduler.amazonaws.com' } }),
          ]),
        }),
      },
    })
    expect(Object.keys(roles)).toHaveLength(1)
    const roleId = Object.keys(roles)[0]!
    const statements = Object.values(template.findResources('AWS::IAM::Policy'))
      .filter((p) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
      .flatMap((p) => p.Properties.PolicyDocument.Statement)
    expect(statements).toEqual([
      expect.objectContaining({
        Action: 'lambda:InvokeFunction',
        Resource: expect.arrayContaining([{ 'Fn::GetAtt': [fnId, 'Arn'] }]),
      }),
    ])
  })
})
