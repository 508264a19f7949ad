import type { ParseArgsConfig } from 'node:util'

/**
 * One CLI command (`npm run cli -- <name> [options]`). Each group of commands lives in its own module
 * under scripts/cli/ and is registered in scripts/cli.ts. The table is chosen before any command runs
 * (the running `npm start`'s, or the global options --table, --region and --endpoint: see
 * cli/target.ts) and set as TABLE_NAME, AWS_REGION and DYNAMODB_ENDPOINT, so commands simply use lib/
 * as the handlers do.
 */
export interface Command {
  /** What the user types, e.g. `client issue` or `seed-transactions`. */
  name: string
  /** One line for the command list. */
  summary: string
  /** The full `--help` text: what it does, every option, and an example. */
  help: string
  options: NonNullable<ParseArgsConfig['options']>
  /** false for commands that never touch the table (sign, keys provision): no table is looked for. */
  usesTable?: false
  run(values: Record<string, string | boolean | string[] | boolean[] | undefined>): Promise<void>
}
