/**
 * What each of the project's modules costs at a cold start, in one function's bundle: the time of its
 * own top-level code (schemas built, tables made), measured inside the bundle.
 *
 *   npx tsx bench/module-init.ts functions/events/event-get.ts [more handlers...]   (RUNS=5)
 *
 * The handler is bundled with the functions' own esbuild settings (esbuildOptionsFor), unminified,
 * with every project module wrapped in two timestamps: esbuild hoists an ES module's top-level code
 * into the bundle in dependency order, a module's after its imports', so the two stamps around a
 * module hold its own statements and nothing of the modules it imports. The bundle is imported in a
 * fresh `node` RUNS times; the median per module is printed, largest first. bench/cold-start.ts says
 * how a function compares with its floor; this says which of its modules to look at. The first module
 * to build a zod schema also pays zod's own first-use work.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { build } from 'esbuild'
import { esbuildOptionsFor, PROJECT_ROOT } from '../infra/constructs/api-function.ts'
import { median } from './import-timing.ts'

const RUNS = Number(process.env.RUNS ?? 5)
const OUT_DIR = join(PROJECT_ROOT, '.bench', 'module-init')
const handlers = process.argv.slice(2)
if (!handlers.length) throw new Error('usage: npx tsx bench/module-init.ts <handler module>...')

async function instrumented(handler: string): Promise<string> {
  mkdirSync(OUT_DIR, { recursive: true })
  const outfile = join(OUT_DIR, `${handler.replace(/\W/g, '_')}.mjs`)
  const options = esbuildOptionsFor(handler, outfile)
  let n = 0
  await build({
    ...options,
    minify: false,
    sourcemap: false,
    plugins: [
      {
        name: 'module-init-stamps',
        setup(b) {
          b.onLoad({ filter: /\.ts$/ }, (args) => {
            if (args.path.includes('node_modules')) return undefined
            const id = ++n
            const name = JSON.stringify(relative(PROJECT_ROOT, args.path))
            return {
              loader: 'ts',
              contents: `const __init${id} = performance.now();\n${readFileSync(args.path, 'utf8')}\n;(globalThis.__moduleInit ??= []).push([${name}, performance.now() - __init${id}]);\n`,
            }
          })
        },
      },
      ...(options.plugins ?? []),
    ],
  })
  return outfile
}

for (const handler of handlers) {
  const bundle = await instrumented(handler)
  const samples = new Map<string, number[]>()
  const totals: number[] = []
  for (let run = 0; run < RUNS; run++) {
    const child = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `await import(${JSON.stringify(bundle)}); process.stdout.write(JSON.stringify(globalThis.__moduleInit))`,
      ],
      { env: { ...process.env, TABLE_NAME: 'module-init' }, encoding: 'utf8' },
    )
    if (child.status !== 0) throw new Error(`${handler}: ${child.stderr}`)
    const times = JSON.parse(child.stdout) as [string, number][]
    totals.push(times.reduce((sum, [, ms]) => sum + ms, 0))
    for (const [name, ms] of times) samples.set(name, [...(samples.get(name) ?? []), ms])
  }
  console.log(`${handler}: the project's top-level code ${median(totals).toFixed(1)} ms (median of ${RUNS})`)
  const rows = [...samples].map(([name, ms]) => [name, median(ms)] as const).sort((a, b) => b[1] - a[1])
  for (const [name, ms] of rows.slice(0, 8)) console.log(`  ${ms.toFixed(1).padStart(6)} ms  ${name}`)
}
