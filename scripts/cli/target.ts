import { findLocalServer, type LocalServerState } from '../local/state.ts'

/**
 * Which table a CLI command works on, decided once before it runs and handed to lib/ through the
 * same variables Lambda uses (TABLE_NAME, DYNAMODB_ENDPOINT, AWS_REGION).
 *
 * 1. --endpoint (or DYNAMODB_ENDPOINT): that DynamoDB Local; the table is --table, else the running
 *    local server's table when it uses that endpoint, else einvoicing-local.
 * 2. --table with --region (or TABLE_NAME with AWS_REGION): that table in AWS.
 * 3. Otherwise the running `npm start` (found through .local/server.json). A --table without a
 *    region must be that server's table: any other name is meant for AWS and needs --region.
 * 4. No local server: a message saying how to start one or how to name a table, and exit code 2,
 *    never a guess that ends up in real AWS.
 */
export interface TargetOptions {
  table?: string
  region?: string
  endpoint?: string
}

export type Target =
  | { kind: 'endpoint'; endpoint: string; table: string; server?: LocalServerState }
  | { kind: 'aws'; table: string; region: string }
  | { kind: 'local-server'; endpoint: string; table: string; server: LocalServerState }
  | { kind: 'none'; message: string }

export const DEFAULT_LOCAL_TABLE = 'einvoicing-local'

export function chooseTarget(
  options: TargetOptions,
  env: Record<string, string | undefined> = process.env,
): Target {
  const table = options.table || env.TABLE_NAME
  const region = options.region || env.AWS_REGION
  const endpoint = options.endpoint || env.DYNAMODB_ENDPOINT
  if (endpoint) {
    const lookup = findLocalServer(env)
    const server = lookup.found && lookup.state.dynamoEndpoint === endpoint ? lookup.state : undefined
    return { kind: 'endpoint', endpoint, table: table || server?.tableName || DEFAULT_LOCAL_TABLE, server }
  }
  if (table && region) return { kind: 'aws', table, region }
  const lookup = findLocalServer(env)
  if (table && !(lookup.found && lookup.state.tableName === table)) {
    return {
      kind: 'none',
      message: [
        `--table ${table} (or TABLE_NAME) names a table in AWS: add --region REGION (or set AWS_REGION).`,
        'For a DynamoDB Local of your own, add --endpoint URL.',
        lookup.found
          ? `The running local server's table is ${lookup.state.tableName}: without --table the command uses it.`
          : 'With "npm start" running in another terminal, leave --table out to use its table.',
      ].join('\n'),
    }
  }
  if (lookup.found) {
    const { state } = lookup
    return { kind: 'local-server', endpoint: state.dynamoEndpoint, table: state.tableName, server: state }
  }
  return {
    kind: 'none',
    message: [
      `No local server is running (${lookup.reason}).`,
      'Start one with "npm start" in another terminal (this command then finds its table by itself), or name',
      'a table: --table NAME --region REGION for a table in AWS (with your AWS credentials), or',
      '--endpoint URL [--table NAME] for a DynamoDB Local of your own.',
    ].join('\n'),
  }
}

/** Sets the variables lib/platform/config.ts reads; the local server's key folders unless set explicitly. */
export function applyTarget(target: Exclude<Target, { kind: 'none' }>, env = process.env): void {
  env.TABLE_NAME = target.table
  if (target.kind === 'aws') {
    env.AWS_REGION = target.region
    delete env.DYNAMODB_ENDPOINT
    return
  }
  env.DYNAMODB_ENDPOINT = target.endpoint
  if (target.server) {
    env.KEYS_DIR ||= target.server.keysDir
    env.DATA_KEY_DIR ||= target.server.dataKeyDir
  }
}

/** One line on stderr (so `$(...)` captures only the command's output) naming what was chosen. */
export function describeTarget(target: Exclude<Target, { kind: 'none' }>): string {
  switch (target.kind) {
    case 'aws':
      return `Table ${target.table} in AWS region ${target.region}`
    case 'endpoint':
      return `Table ${target.table} at ${target.endpoint}`
    case 'local-server':
      return `Local server ${target.server.url}: table ${target.table} at ${target.endpoint}`
  }
}
