import { describe, expect, it } from 'vitest'
import type { Command } from '../../../scripts/cli/command.ts'
import { fastCommand, MODULE_OF } from '../../../scripts/cli/fast-path.ts'

describe('the CLI fast path', () => {
  it.each(Object.entries(MODULE_OF))('finds "%s" in %s', async (name, path) => {
    const url = new URL(path, new URL('../../../scripts/cli/', import.meta.url)).href
    const { commands } = (await import(/* @vite-ignore */ url)) as { commands: Command[] }
    expect(commands.map((c) => c.name)).toContain(name)
    expect((await fastCommand([...name.split(' '), '--help']))?.name).toBe(name)
  })

  it('leaves unknown names to the full lookup', async () => {
    expect(await fastCommand(['help'])).toBeUndefined()
    expect(await fastCommand([])).toBeUndefined()
  })
})
