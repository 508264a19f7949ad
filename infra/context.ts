import type { App } from 'aws-cdk-lib'
import { settingsFile } from './settings.ts'
import { buildStage, type Stage } from './stage.ts'

/**
 * The `-c` flags of earlier versions and the setting of the stage's file that replaced each. They are
 * refused, not read: a flag given at one deploy and forgotten at the next silently removed what it
 * had set up (alarm subscriptions, the domain mapping, e-mail sending).
 */
export const RETIRED_FLAGS: Readonly<Record<string, string>> = {
  alarmEmail: 'alarmEmails',
  domainName: 'domain.name',
  certificateArn: 'domain.certificateArn',
  sesFromAddress: 'ses.fromAddress',
  protect: 'deletionProtection and retention.keepOnDelete',
}

/** The stage the CDK context names (`-c stage=NAME`, cdk.json's `dev` otherwise), built from its settings file. */
export function stageFromContext(app: App): Stage {
  const context = (key: string): string | undefined => {
    const value: unknown = app.node.tryGetContext(key)
    return value === undefined || value === null || value === '' ? undefined : String(value)
  }
  const stage = context('stage') ?? 'dev'
  if (!/^[a-z][a-z0-9-]{0,19}$/.test(stage)) {
    throw new Error(
      `stage "${stage}" must be lower case letters, digits and dashes (it names stacks and APIs)`,
    )
  }
  const retired = Object.keys(RETIRED_FLAGS).filter((flag) => context(flag) !== undefined)
  if (retired.length) {
    throw new Error(
      `${retired.map((flag) => `-c ${flag}`).join(', ')}: no longer read. A stage's settings are in ${settingsFile(stage)}: set ${retired.map((flag) => `"${RETIRED_FLAGS[flag]}"`).join(', ')} there and deploy with no flags but -c stage=${stage} (docs/configuration.md)`,
    )
  }
  return buildStage(app, { stage })
}
