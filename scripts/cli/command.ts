import type { ParseArgsConfig } from 'node:util'

/**
 * One CLI command (`npm run cli -- <name> [options]`). Each group of commands lives in its own module
 * under scripts/cli/ and is registered in scripts/cli.ts. The table is chosen by the global options
 * --table, --region and --endpoint (or TABLE_NAME, AWS_REGION, DYNAMODB_ENDPOINT), which the CLI sets
 * before any command runs, so commands simply use lib/ as the handlers do.
 */
export interface Command {
  /** What the user types, e.g. `client issue` or `seed-transactions`. */
  name: string
  /** One line for the command list. */
  summary: string
  /** The full `--help` text: what it does, every option, and an example. */
  help: string
  options: NonNullable<ParseArgsConfig['options']>
  run(values: Record<string, string | boolean | string[] | boolean[] | undefined>): Promise<void>
}
