/**
 * `npm run cli -- <command> [options]`: credentials, reference lists, request signing and demo data,
 * against DynamoDB Local or a real table. `npm run cli -- help` lists the commands;
 * `npm run cli -- <command> --help` explains one.
 *
 * Global options (or environment): --table (TABLE_NAME), --region (AWS_REGION), --endpoint
 * (DYNAMODB_ENDPOINT, e.g. http://127.0.0.1:8000 for a DynamoDB Local started with DATA_DIR), --stage
 * (a deployed stage: TABLE_NAME, DATA_KEY_ARN and API_URL from its stacks' outputs).
 */
import { parseArgs } from 'node:util'
import type { Command } from './cli/command.ts'

const GLOBAL_OPTIONS = {
  table: { type: 'string' },
  region: { type: 'string' },
  endpoint: { type: 'string' },
  /** A deployed stage: table, data key and API URL from its stacks' outputs (scripts/cli/stage.ts). */
  stage: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

/** Command modules, each exporting `commands`. Loaded lazily so `--help` needs no AWS setup. */
const MODULES = [
  './cli/credentials.ts',
  './cli/reference.ts',
  './cli/sign.ts',
  './cli/keys.ts',
  './cli/transactions.ts',
  './cli/encryption.ts',
  './cli/audit.ts',
  './cli/dead-letters.ts',
]

async function loadCommands(): Promise<Command[]> {
  const all: Command[] = []
  for (const path of MODULES) {
    try {
      const module = (await import(path)) as { commands: Command[] }
      all.push(...module.commands)
    } catch (error) {
      if (
        (error as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND' ||
        !String(error).includes(path.slice(2))
      )
        throw error
    }
  }
  return all
}

function usage(commands: Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.length))
  return [
    'Usage: npm run cli -- <command> [options]   (add --help after a command for its options)',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Global options: --table NAME (or TABLE_NAME), --region REGION (or AWS_REGION),',
    '                --endpoint URL (or DYNAMODB_ENDPOINT; DynamoDB Local),',
    '                --stage NAME (a deployed stage: table, data key and API URL from its stack outputs)',
  ].join('\n')
}

async function main(argv: string[]) {
  const commands = await loadCommands()
  // Command names have one or two words ("client issue", "seed-transactions").
  const command =
    commands.find((c) => c.name === argv.slice(0, 2).join(' ')) ?? commands.find((c) => c.name === argv[0])
  if (!command) {
    const asked = argv[0]
    console.log(usage(commands))
    process.exit(asked && asked !== 'help' && asked !== '--help' && asked !== '-h' ? 2 : 0)
  }
  const rest = argv.slice(command.name.split(' ').length)
  let values: Record<string, string | boolean | string[] | boolean[] | undefined>
  try {
    ;({ values } = parseArgs({
      args: rest,
      options: { ...GLOBAL_OPTIONS, ...command.options },
      strict: true,
    }))
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${command.help}`)
    process.exit(2)
  }
  if (values.help) {
    console.log(command.help)
    return
  }
  // A command with a --stage of its own (keys provision, dlq) uses it its own way.
  if (values.stage && !('stage' in command.options)) {
    await (await import('./cli/stage.ts')).useStage(String(values.stage))
  }
  if (values.table) process.env.TABLE_NAME = String(values.table)
  if (values.region) process.env.AWS_REGION = String(values.region)
  if (values.endpoint) process.env.DYNAMODB_ENDPOINT = String(values.endpoint)
  await command.run(values)
}

main(process.argv.slice(2)).catch((error: unknown) => {
  // Domain errors carry a message meant for a person; anything else gets its name too.
  const e = error as Error & { status?: number }
  console.error(e.status ? `Refused (${e.status}): ${e.message}` : `${e.name}: ${e.message}`)
  process.exit(1)
})
