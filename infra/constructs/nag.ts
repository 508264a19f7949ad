import { type App, Validations } from 'aws-cdk-lib'
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag'
import type { IConstruct } from 'constructs'

/**
 * cdk-nag's AwsSolutions and Serverless packs run on every synth (infra/app.ts, and
 * test/infra/operations.test.ts on every stack): a finding fails the synth unless acknowledged, with its
 * reason, where the construct is made. Acknowledgements go through `acknowledge` so each names the pack it answers.
 */
export function addNagChecks(app: App): void {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new ServerlessChecks(app))
}

/** Acknowledges one rule (e.g. `AwsSolutions-IAM4` or `Serverless-LambdaDLQ`) on a construct and its children. */
export function acknowledge(scope: IConstruct, rule: string, reason: string): void {
  const pack = rule.startsWith('Serverless-') ? 'Serverless' : 'AwsSolutions'
  Validations.of(scope).acknowledge({ id: `${pack}::${rule}`, reason })
}
