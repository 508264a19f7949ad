import { App } from 'aws-cdk-lib'
import { addNagChecks } from './constructs/nag.ts'
import { buildStage } from './stage.ts'

/**
 * `npx cdk synth -c stage=prod [-c domainName=api.example.com -c certificateArn=arn:...] [-c protect=true]
 *   [-c alarmEmail=oncall@example.com]`
 *
 * Stacks are environment-agnostic (no account/region, no lookups) so synth needs no AWS credentials;
 * the account and region come from the deploying profile.
 */
const app = new App()
// cdk-nag (AwsSolutions, Serverless): an unacknowledged finding fails the synth.
addNagChecks(app)

const context = (key: string): string | undefined => {
  const value: unknown = app.node.tryGetContext(key)
  return value === undefined || value === null || value === '' ? undefined : String(value)
}

const stage = context('stage') ?? 'dev'
if (!/^[a-z][a-z0-9-]{0,19}$/.test(stage)) {
  throw new Error(`stage "${stage}" must be lower case letters, digits and dashes (it names stacks and APIs)`)
}
// Context values from the command line are strings.
const protectContext = context('protect')
const protect = protectContext === undefined ? undefined : protectContext === 'true'

// Data, then the edge (Api), then one stack per area (infra/stage.ts, docs/operations.md).
buildStage(app, {
  stage,
  protect,
  // `-c alarmEmail=oncall@example.com[,second@example.com]`: each address confirms its subscription.
  alarmEmails: context('alarmEmail')
    ?.split(',')
    .map((email) => email.trim())
    .filter(Boolean),
  domainName: context('domainName'),
  certificateArn: context('certificateArn'),
  sesFromAddress: context('sesFromAddress'),
})

app.synth()
