import { App } from 'aws-cdk-lib'
import { ApiStack } from './stacks/api-stack.ts'
import { DataStack } from './stacks/data-stack.ts'
import { addNagChecks } from './constructs/nag.ts'

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

const data = new DataStack(app, `Einvoicing-${stage}-Data`, {
  stage,
  protect,
  // `-c alarmEmail=oncall@example.com[,second@example.com]`: each address confirms its subscription.
  alarmEmails: context('alarmEmail')
    ?.split(',')
    .map((email) => email.trim())
    .filter(Boolean),
  description: `E-invoicing table (${stage})`,
})

new ApiStack(app, `Einvoicing-${stage}-Api`, {
  stage,
  protect,
  table: data.table,
  secrets: data.secrets,
  dataKey: data.dataKey,
  domainName: context('domainName'),
  certificateArn: context('certificateArn'),
  alarmTopic: data.alarmTopic,
  sesFromAddress: context('sesFromAddress'),
  description: `E-invoicing HTTP API and functions (${stage})`,
})

app.synth()
