import { readFileSync } from 'node:fs'
import { App, type AppProps } from 'aws-cdk-lib'

/**
 * cdk.json's `context`: what `cdk synth` and `cdk deploy` hand infra/app.ts, the feature flags
 * among it. An `App` made without it takes CDK's old defaults for every flag, and a test of it would
 * check templates the deploy never makes.
 */
export const CDK_JSON_CONTEXT: Readonly<Record<string, unknown>> = (
  JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as {
    context: Record<string, unknown>
  }
).context

/**
 * An App as the CDK CLI makes it from cdk.json (its context, feature flags included), with the
 * test's own context on top (a stage, skipped bundling) and its other props (an outdir).
 */
export function cdkApp(props: AppProps = {}): App {
  return new App({ ...props, context: { ...CDK_JSON_CONTEXT, ...props.context } })
}
