import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * Node built-ins reach the ESM bundles through `require`, not `import`.
 *
 * esbuild leaves `import { request } from 'node:https'` as an ES import, and Node answers an ES import
 * of a built-in with a facade holding a copy of every export, which runs the module's lazy getters:
 * node:http then loads undici (the fetch client) and node:fs its stream classes, tens of
 * milliseconds of every cold start spent on code no function calls (BENCHMARKS.md). `require` hands
 * back the module object and leaves those getters alone. So every built-in is aliased to a two-line
 * CommonJS shim that asks the runtime for it; esbuild wraps the shim like any CommonJS module.
 */

const SHIM_DIR = fileURLToPath(new URL('../../.build/node-builtins/', import.meta.url))

/** `fs`, `fs/promises`, `node:test`, ...: the names code may import, without Node's private `_` ones. */
const importableBuiltins = () => builtinModules.filter((name) => !name.startsWith('_'))

/**
 * Writes the shims once (an unchanged file is left alone; a changed one is replaced by rename, so a
 * concurrent build never reads half a file) and returns esbuild's alias map: each built-in, with and
 * without the `node:` prefix, to its shim.
 */
export function builtinAliases(): Record<string, string> {
  mkdirSync(SHIM_DIR, { recursive: true })
  const aliases: Record<string, string> = {}
  for (const name of importableBuiltins()) {
    const bare = name.replace(/^node:/, '')
    // process.getBuiltinModule, not require: esbuild would resolve a require back to this alias.
    const text = `module.exports = process.getBuiltinModule(${JSON.stringify(`node:${bare}`)})\n`
    const file = join(SHIM_DIR, `${bare.replaceAll('/', '__')}.cjs`)
    let current: string | undefined
    try {
      current = readFileSync(file, 'utf8')
    } catch {
      current = undefined
    }
    if (current !== text) {
      const temp = `${file}.${process.pid}.tmp`
      writeFileSync(temp, text)
      renameSync(temp, file)
    }
    aliases[`node:${bare}`] = file
    // node:test, node:sqlite and the like exist only with the prefix.
    if (!name.startsWith('node:')) aliases[bare] = file
  }
  return aliases
}
