import type { Command } from './command.ts'

/**
 * The module of each command, so that running one loads its own module instead of all of them:
 * `sign` runs before every hand-made request and takes 0.2 s of CPU alone against 0.8 s with every
 * module's imports (the Encryption SDK, Secrets Manager, ...). A command missing here still works:
 * scripts/cli.ts then loads every module to find it (test/unit/scripts/cli-fast-path.test.ts checks this map).
 */
export const MODULE_OF: Record<string, string> = {
  sign: './sign.ts',
  'business create': './credentials.ts',
  'client issue': './credentials.ts',
  'client revoke': './credentials.ts',
  'client rotate': './credentials.ts',
  'client set-webhook': './credentials.ts',
  'client set-validation-mode': './credentials.ts',
  'switch issue': './credentials.ts',
  'switch rotate': './credentials.ts',
  'merchant issue': './credentials.ts',
  'notify-admin issue': './credentials.ts',
  'token revoke': './credentials.ts',
  'credentials list': './credentials.ts',
  'seed-transactions': './transactions.ts',
  'account open': './transactions.ts',
  'account show': './transactions.ts',
  'merchant add': './transactions.ts',
  'history rank-references': './transactions.ts',
  'audit invoice': './audit.ts',
  'audit business': './audit.ts',
  'reference load': './reference.ts',
  'history export': './finance.ts',
  'ledger reconcile': './finance.ts',
  'webhooks list': './webhooks.ts',
  'webhooks deliveries': './webhooks.ts',
  'webhooks redeliver': './webhooks.ts',
  'batch show': './webhooks.ts',
}

/** The command named by the first one or two words, from its own module; undefined if not mapped. */
export async function fastCommand(argv: string[]): Promise<Command | undefined> {
  for (const name of [argv.slice(0, 2).join(' '), argv[0] ?? '']) {
    const path = MODULE_OF[name]
    if (!path) continue
    const module = (await import(path)) as { commands: Command[] }
    return module.commands.find((command) => command.name === name)
  }
  return undefined
}
