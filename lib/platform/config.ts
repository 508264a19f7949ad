/**
 * Runtime configuration, read from the environment once per container.
 *
 * The same variables are set by the CDK stack in Lambda and by the local server, which is what keeps
 * handlers ignorant of where they run.
 */
import { SERVICE_VERSION } from './version.ts'

export interface Config {
  /** The one DynamoDB table everything is stored in. */
  tableName: string
  region: string
  /** Only set locally: DynamoDB Local's URL. */
  dynamoEndpoint: string | undefined
  /** `local` for the local server and tests; the stage name in AWS. */
  stage: string
  serviceName: string
  version: string
}

function readConfig(env: NodeJS.ProcessEnv): Config {
  const tableName = env.TABLE_NAME
  if (!tableName) throw new Error('TABLE_NAME is not set: the function cannot know which table to use')
  return {
    tableName,
    region: env.AWS_REGION ?? 'eu-west-1',
    dynamoEndpoint: env.DYNAMODB_ENDPOINT || undefined,
    stage: env.STAGE ?? 'local',
    serviceName: env.SERVICE_NAME ?? 'einvoicing-api',
    version: env.SERVICE_VERSION ?? SERVICE_VERSION,
  }
}

let cached: Config | undefined

/** The configuration, parsed on first use so that a missing variable fails the cold start loudly. */
export function config(): Config {
  cached ??= readConfig(process.env)
  return cached
}
