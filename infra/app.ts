import { App } from 'aws-cdk-lib'
import { addNagChecks } from './constructs/nag.ts'
import { stageFromContext } from './context.ts'

/**
 * `npx cdk synth [-c stage=prod]`, `npx cdk deploy --all -c stage=prod`
 *
 * Everything else a stage is deployed with is in its committed settings file,
 * `infra/stages/<stage>.json` (infra/settings.ts, docs/configuration.md), so a deploy with no flags
 * keeps it. Stacks are environment-agnostic (no account/region, no lookups) so synth needs no AWS
 * credentials; the account and region come from the deploying profile.
 */
const app = new App()
// cdk-nag (AwsSolutions, Serverless): an unacknowledged finding fails the synth.
addNagChecks(app)
// Data, the edge (Api), one stack per area, then the API's stage (infra/stage.ts, docs/operations.md).
stageFromContext(app)
app.synth()
