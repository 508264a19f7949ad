/**
 * Cold-start benchmark: builds every function's bundle with the ApiFunction construct's own esbuild
 * settings, then measures whole-process import time against bare `node`.
 *
 *   npx tsx bench/cold-start.ts        (or npm run bench:cold-start)
 *
 * Functions that share a handler module get byte-identical bundles, so each distinct module is built
 * and measured once and the table says how many functions it serves.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, rmSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build, type Metafile } from 'esbuild'
import { esbuildOptionsFor, PROJECT_ROOT } from '../infra/constructs/api-function.ts'
import { functionsOf, routes, UNROUTED } from '../lib/routes.ts'

const RUNS = 7
const TARGET_KB = 600
const TARGET_RATIO = 2
const OUT_DIR = join(PROJECT_ROOT, '.bench', 'cold-start')

/** handler module -> the functionIds deployed from it. */
function bundlesToBuild(): Map<string, string[]> {
  const byHandler = new Map<string, string[]>()
  const add = (handler: string, functionId: string) =>
    byHandler.set(handler, [...(byHandler.get(handler) ?? []), functionId])
  for (const [functionId, served] of functionsOf(routes)) add(served[0]!.handler, functionId)
  add(UNROUTED.handler, UNROUTED.functionId)
  return byHandler
}

interface Bundle {
  handler: string
  functionIds: string[]
  file: string
  bytes: number
  metafile: Metafile
}

/** The bundle NodejsFunction makes, with a metafile for the analysis. */
async function bundle(handler: string, functionIds: string[]): Promise<Bundle> {
  const file = join(OUT_DIR, handler.replace(/\.[cm]?tsx?$/, '').replaceAll('/', '__'), 'index.mjs')
  const result = await build(esbuildOptionsFor(handler, file))
  return { handler, functionIds, file, bytes: statSync(file).size, metafile: result.metafile }
}

/** Bytes each npm package (or the project's own code) contributes to a bundle, largest first. */
function packageShares(bundle: Bundle): [string, number][] {
  const totals = new Map<string, number>()
  for (const output of Object.values(bundle.metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)
      const name = match ? match[1]! : '(project code)'
      totals.set(name, (totals.get(name) ?? 0) + bytesInOutput)
    }
  }
  return [...totals].sort((a, b) => b[1] - a[1])
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/** Wall time of a whole `node` process, spawn to exit, in ms; one untimed run first warms the page cache. */
function timeProcess(args: string[], env: NodeJS.ProcessEnv): number {
  const once = () => {
    const start = performance.now()
    const run = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] })
    const elapsed = performance.now() - start
    if (run.status !== 0) throw new Error(`node ${args.join(' ')} failed:\n${run.stderr.toString()}`)
    return elapsed
  }
  once()
  return median(Array.from({ length: RUNS }, once))
}

const kb = (bytes: number) => bytes / 1024
const pad = (s: string, n: number) => s.padEnd(n)
const lpad = (s: string, n: number) => s.padStart(n)

async function main() {
  rmSync(OUT_DIR, { recursive: true, force: true })
  mkdirSync(OUT_DIR, { recursive: true })
  const plan = bundlesToBuild()
  const functionCount = [...plan.values()].reduce((n, ids) => n + ids.length, 0)
  console.log(
    `node ${process.version} (${process.execPath}), ${RUNS} runs each, median of whole-process wall time`,
  )
  console.log(`${functionCount} functions from ${plan.size} distinct handler modules\n`)

  const started = performance.now()
  const bundles = await Promise.all([...plan].map(([handler, ids]) => bundle(handler, ids)))
  console.log(`esbuild: ${plan.size} bundles in ${Math.round(performance.now() - started)} ms`)
  for (const b of bundles) console.log(`  ${pad(b.handler, 40)} ${lpad(kb(b.bytes).toFixed(1), 7)} KB`)

  // The environment a handler module needs to load; config is read lazily, so nothing connects.
  const env = { PATH: process.env.PATH, TABLE_NAME: 'bench-table', AWS_REGION: 'eu-west-1', STAGE: 'bench' }
  // Lambda runs with NODE_OPTIONS=--enable-source-maps (set by ApiFunction): measured separately.
  const lambdaEnv = { ...env, NODE_OPTIONS: '--enable-source-maps' }
  const bare = timeProcess(['-e', '0'], env)
  const bareMaps = timeProcess(['-e', '0'], lambdaEnv)
  console.log(
    `\nbare node -e 0: ${bare.toFixed(1)} ms (with --enable-source-maps: ${bareMaps.toFixed(1)} ms)\n`,
  )

  const rows = bundles.map((b) => {
    const importArgs = [
      '--input-type=module',
      '-e',
      `await import(${JSON.stringify(pathToFileURL(b.file).href)})`,
    ]
    const ms = timeProcess(importArgs, env)
    const msMaps = timeProcess(importArgs, lambdaEnv)
    const row = {
      ...b,
      ms,
      ratio: ms / bare,
      msMaps,
      ratioMaps: msMaps / bareMaps,
      sizeOk: kb(b.bytes) < TARGET_KB,
      ratioOk: ms / bare < TARGET_RATIO,
    }
    console.log(`  ${pad(b.handler, 40)} ${lpad(ms.toFixed(1), 7)} ms  ${row.ratio.toFixed(2)}x`)
    return row
  })

  const header = [
    pad('handler module', 40),
    lpad('fns', 3),
    lpad('size KB', 8),
    lpad('import ms', 9),
    lpad('ratio', 6),
    lpad('+maps ms', 8),
    lpad('ratio', 6),
    ' targets',
  ].join(' | ')
  console.log(`\n${header}\n${'-'.repeat(header.length)}`)
  for (const r of rows) {
    console.log(
      [
        pad(r.handler, 40),
        lpad(String(r.functionIds.length), 3),
        lpad(kb(r.bytes).toFixed(1), 8),
        lpad(r.ms.toFixed(1), 9),
        lpad(`${r.ratio.toFixed(2)}x`, 6),
        lpad(r.msMaps.toFixed(1), 8),
        lpad(`${r.ratioMaps.toFixed(2)}x`, 6),
        ` ${r.sizeOk ? 'size ok' : 'SIZE OVER'}, ${r.ratioOk ? 'ratio ok' : 'RATIO OVER'}`,
      ].join(' | '),
    )
  }
  console.log(
    `${pad(`bare node -e 0`, 40)} |     |          | ${lpad(bare.toFixed(1), 9)} |  1.00x | ${lpad(bareMaps.toFixed(1), 8)} |  1.00x |`,
  )

  // What fills the bundles: the largest one always, and every one over the size target.
  const largest = rows.reduce((a, b) => (b.bytes > a.bytes ? b : a))
  for (const r of rows.filter((row) => row === largest || !row.sizeOk)) {
    console.log(`\n${r.handler} (${kb(r.bytes).toFixed(1)} KB), by package:`)
    for (const [name, bytes] of packageShares(r).slice(0, 8)) {
      console.log(
        `  ${pad(name, 40)} ${lpad(kb(bytes).toFixed(1), 7)} KB  ${((bytes / r.bytes) * 100).toFixed(0)}%`,
      )
    }
  }

  const both = rows.filter((r) => r.sizeOk && r.ratioOk)
  const fnsMeeting = both.reduce((n, r) => n + r.functionIds.length, 0)
  console.log(
    `\n${both.length} of ${rows.length} bundles (${fnsMeeting} of ${functionCount} functions) meet both targets ` +
      `(bundle < ${TARGET_KB} KB: ${rows.filter((r) => r.sizeOk).length}/${rows.length}; ` +
      `import < ${TARGET_RATIO}x bare node: ${rows.filter((r) => r.ratioOk).length}/${rows.length}). ` +
      `Bundles in ${relative(PROJECT_ROOT, OUT_DIR)}/`,
  )
}

await main()
