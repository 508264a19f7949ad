import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import type { TestApi } from './api.ts'

const run = promisify(execFile)

/** Which table the CLI works on (a test API's), and any environment of the person running it. */
export type CliTarget = Pick<TestApi, 'tableName' | 'dynamoEndpoint'> & { env?: Record<string, string> }

/**
 * `npm run cli -- ...` as a person runs it (less npm's own start-up), against the target's table in
 * DynamoDB Local. Rejects, with stdout and stderr on the error, when the command exits with a code
 * other than 0.
 */
const execCli = (target: CliTarget, args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'scripts/cli.ts', ...args], {
    env: {
      ...process.env,
      TABLE_NAME: target.tableName,
      DYNAMODB_ENDPOINT: target.dynamoEndpoint,
      ...target.env,
    },
  })

/** The standard output of a command that must succeed. */
export async function cliOutput(target: CliTarget, ...args: string[]): Promise<string> {
  return (await execCli(target, args)).stdout
}

/** A command's exit code, stdout and stderr, whatever the code: for commands expected to fail. */
export async function runCli(target: CliTarget, ...args: string[]) {
  try {
    const { stdout, stderr } = await execCli(target, args)
    return { code: 0, stdout, stderr }
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string }
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}
