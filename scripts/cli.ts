/**
 * `npm run cli -- <command> [options]`: credentials, reference lists, request signing and demo data,
 * against DynamoDB Local or a real table. `npm run cli -- help` lists the commands;
 * `npm run cli -- <command> --help` explains one.
 *
 * With `npm start` running, commands use its table with no options (scripts/cli/target.ts). Global
 * options (or environment) choose another: --table (TABLE_NAME) with --region (AWS_REGION) for a table
 * in AWS, --endpoint (DYNAMODB_ENDPOINT) for a DynamoDB Local of your own, --stage for a deployed
 * stage (its table, data key and API URL from the stacks' outputs: scripts/cli/stage.ts).
 */
import { parseArgs } from 'node:util'
import type { Command } from './cli/command.ts'
import { fastCommand } from './cli/fast-path.ts'
import { joinStringValues } from './cli/join-values.ts'
import { checkFieldsPrinted, selectFields } from './cli/output.ts'
import { unknownCommandMessage, unknownOptionMessage } from './cli/suggest.ts'
import { applyTarget, chooseTarget, describeTarget } from './cli/target.ts'

const GLOBAL_OPTIONS = {
  table: { type: 'string' },
  region: { type: 'string' },
  endpoint: { type: 'string' },
  /** A deployed stage: table, data key and API URL from its stacks' outputs (scripts/cli/stage.ts). */
  stage: { type: 'string' },
  get: { type: 'string' },
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
  './cli/webhooks.ts',
  './cli/finance.ts',
  './cli/dead-letters.ts',
  './cli/rate-limits.ts',
  './cli/invoices.ts',
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
    'With "npm start" running in another terminal, commands use its table: no options needed.',
    'Global options for another table:',
    '  --table NAME --region REGION   a table in AWS (or TABLE_NAME and AWS_REGION), with your AWS credentials',
    '  --endpoint URL [--table NAME]  a DynamoDB Local of your own (or DYNAMODB_ENDPOINT)',
    '  --stage NAME                   a deployed stage: table, data key and API URL from its stack outputs',
    'Output: the result as JSON on stdout, notes on stderr; --get FIELD[,FIELD] prints just those fields',
    '  (e.g. BUSINESS=$(npm run --silent cli -- business create --name X --tin 12345678-0002 --get business_id))',
  ].join('\n')
}

async function main(argv: string[]) {
  // Command names have one or two words ("client issue", "seed-transactions").
  const named = async () => {
    const commands = await loadCommands()
    const found =
      commands.find((c) => c.name === argv.slice(0, 2).join(' ')) ?? commands.find((c) => c.name === argv[0])
    return { commands, command: found }
  }
  const fast = await fastCommand(argv)
  const { commands, command } = fast ? { commands: [fast], command: fast } : await named()
  if (!command) {
    const asked = argv[0]
    if (!asked || asked === 'help' || asked === '--help' || asked === '-h') {
      console.log(usage(commands))
      process.exit(0)
    }
    // An unknown command or subcommand is named, with the nearest known one, before the list.
    console.error(
      `${unknownCommandMessage(
        argv,
        commands.map((c) => c.name),
      )}\n`,
    )
    console.error(usage(commands))
    process.exit(2)
  }
  const options = { ...GLOBAL_OPTIONS, ...command.options }
  const rest = joinStringValues(argv.slice(command.name.split(' ').length), options)
  let values: Record<string, string | boolean | string[] | boolean[] | undefined>
  try {
    ;({ values } = parseArgs({
      args: rest,
      options,
      strict: true,
    }))
  } catch (error) {
    const message = (error as Error).message
    console.error(`${unknownOptionMessage(message, Object.keys(options)) ?? message}\n\n${command.help}`)
    process.exit(2)
  }
  if (values.help) {
    console.log(command.help)
    return
  }
  const option = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined)
  // --stage: the deployed stage's table, key and URL (a command with a --stage of its own uses it itself).
  if (option('stage') && !('stage' in command.options)) {
    await (await import('./cli/stage.ts')).useStage(option('stage')!)
  }
  if (command.usesTable === false) {
    if (option('region')) process.env.AWS_REGION = option('region')
  } else {
    const target = chooseTarget({
      table: option('table'),
      region: option('region'),
      endpoint: option('endpoint'),
    })
    if (target.kind === 'none') {
      console.error(target.message)
      process.exit(2)
    }
    applyTarget(target)
    console.error(describeTarget(target))
  }
  selectFields(option('get'))
  await command.run(values)
  checkFieldsPrinted(command.name)
}

main(process.argv.slice(2)).catch((error: unknown) => {
  // Domain errors carry a message meant for a person; anything else gets its name too.
  const e = error as Error & { status?: number }
  console.error(e.status ? `Refused (${e.status}): ${e.message}` : `${e.name}: ${e.message}`)
  process.exit(1)
})
