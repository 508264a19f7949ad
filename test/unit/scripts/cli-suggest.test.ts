import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { unknownCommandMessage, unknownOptionMessage } from '../../../scripts/cli/suggest.ts'

const NAMES = [
  'business create',
  'client issue',
  'client revoke',
  'client rotate',
  'ledger reconcile',
  'sign',
]

/** `npm run cli -- ...` as a person runs it; every case here stops before any table is looked for. */
async function cli(...args: string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [
      '--import',
      'tsx',
      'scripts/cli.ts',
      ...args,
    ])
    return { code: 0, stdout, stderr }
  } catch (error) {
    return error as { code: number; stdout: string; stderr: string }
  }
}

describe('an unknown CLI command, subcommand or option', () => {
  it('names an unknown subcommand of a known group with its closest subcommand and the group', () => {
    expect(unknownCommandMessage(['client', 'rotat'], NAMES)).toBe(
      'Unknown subcommand "rotat" of "client". Did you mean "client rotate"? The client commands: client issue, client revoke, client rotate.',
    )
    // Even far from any: the group's nearest is named, with the list.
    expect(unknownCommandMessage(['ledger', 'check'], NAMES)).toContain('Did you mean "ledger reconcile"?')
  })

  it('asks a group named alone for a subcommand', () => {
    expect(unknownCommandMessage(['business'], NAMES)).toBe(
      '"business" needs a subcommand. The business commands: business create.',
    )
  })

  it('names an unknown command with the closest one, if any is close', () => {
    expect(unknownCommandMessage(['sing', '--area', 'A'], NAMES)).toBe(
      'Unknown command "sing". Did you mean "sign"?',
    )
    expect(unknownCommandMessage(['bussiness', 'create'], NAMES)).toBe(
      'Unknown command "bussiness create". Did you mean "business create"?',
    )
    expect(unknownCommandMessage(['frobnicate'], NAMES)).toBe('Unknown command "frobnicate".')
  })

  it("names an unknown option with the command's closest option", () => {
    expect(unknownOptionMessage("Unknown option '--merchnat'", ['merchant', 'mode', 'help'])).toBe(
      'Unknown option "--merchnat". Did you mean "--merchant"?',
    )
    expect(unknownOptionMessage("Option '--mode' argument missing", ['mode'])).toBeUndefined()
  })

  it('is what the CLI itself says, with exit 2', async () => {
    const sub = await cli('ledger', 'reconcil')
    expect(sub.code).toBe(2)
    expect(sub.stderr).toContain(
      'Unknown subcommand "reconcil" of "ledger". Did you mean "ledger reconcile"?',
    )
    const group = await cli('merchant')
    expect(group.code).toBe(2)
    expect(group.stderr).toContain(
      '"merchant" needs a subcommand. The merchant commands: merchant issue, merchant add.',
    )
    const option = await cli('merchant', 'issue', '--merchnat', 'MRC0001')
    expect(option.code).toBe(2)
    expect(option.stderr).toContain('Unknown option "--merchnat". Did you mean "--merchant"?')
  }, 60_000)
})
