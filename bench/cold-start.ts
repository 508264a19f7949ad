/**
 * Cold-start benchmark: builds every function's bundle with the ApiFunction construct's own esbuild
 * settings, then measures whole-process import time against bare `node`.
 *
 *   npx tsx bench/cold-start.ts        (or npm run bench:cold-start)
 *   BASELINE=<dir> npx tsx bench/cold-start.ts
 *
 * BASELINE names the .bench/cold-start folder of an earlier checkout's run: its bundles are timed in
 * the same interleaved rounds, for a before/after comparison free of the machine's drift.
 *
 * Functions that share a handler module get byte-identical bundles, so each distinct module is built
 * and measured once and the table says how many functions it serves.
 */
import { spawnSync } from 'node:child_process'
import { loadavg } from 'node:os'
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs'
import { basename, dirname, join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build, type Metafile } from 'esbuild'
import { esbuildOptionsFor, PROJECT_ROOT } from '../infra/constructs/api-function.ts'
import { functionsOf, routes, UNROUTED } from '../lib/routes.ts'

const RUNS = Number(process.env.RUNS ?? 7)
const TARGET_KB = 600
/** Import time at most this multiple of the DynamoDB-only floor's, measured in the same rounds. */
const TARGET_FLOOR_RATIO = 1.5
const DYNAMODB_FLOOR = 'bench/floor/dynamodb.ts'
const OUT_DIR = join(PROJECT_ROOT, '.bench', 'cold-start')
/**
 * Reference bundles, built and timed like the functions but not counted against the targets: what
 * an empty handler, the DynamoDB client alone, with field encryption, and with zod as well cost.
 */
const FLOORS = [
  'bench/floor/empty.ts',
  'bench/floor/dynamodb.ts',
  'bench/floor/dynamodb-encryption.ts',
  'bench/floor/dynamodb-encryption-zod.ts',
]

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

interface Timed {
  args: string[]
  env: NodeJS.ProcessEnv
}

/** Wall time of one whole `node` process, spawn to exit, in ms. */
function timeOnce({ args, env }: Timed): number {
  const start = performance.now()
  const run = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] })
  const elapsed = performance.now() - start
  if (run.status !== 0) throw new Error(`node ${args.join(' ')} failed:\n${run.stderr.toString()}`)
  return elapsed
}

/**
 * Median wall time of each process. Runs are interleaved (round r times every target once), so a
 * slow spell on a shared machine falls on all targets alike, bare node included, instead of on
 * whichever bundle happened to be measured then. One untimed run each first warms the page cache.
 */
function timeInterleaved(targets: Timed[]): number[] {
  for (const target of targets) timeOnce(target)
  const samples = targets.map(() => [] as number[])
  for (let round = 0; round < RUNS; round++) {
    targets.forEach((target, i) => {
      samples[i]!.push(timeOnce(target))
    })
  }
  return samples.map(median)
}

const importOf = (file: string) => [
  '--input-type=module',
  '-e',
  `await import(${JSON.stringify(pathToFileURL(file).href)})`,
]

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
  const floors = await Promise.all(FLOORS.map((handler) => bundle(handler, [])))
  console.log(`esbuild: ${plan.size} bundles in ${Math.round(performance.now() - started)} ms`)
  for (const b of bundles) console.log(`  ${pad(b.handler, 40)} ${lpad(kb(b.bytes).toFixed(1), 7)} KB`)

  // The environment a handler module needs to load; config is read lazily, so nothing connects.
  const env = { PATH: process.env.PATH, TABLE_NAME: 'bench-table', AWS_REGION: 'eu-west-1', STAGE: 'bench' }
  // Lambda runs with NODE_OPTIONS=--enable-source-maps (set by ApiFunction): measured separately.
  const lambdaEnv = { ...env, NODE_OPTIONS: '--enable-source-maps' }
  const measured = [...bundles, ...floors]
  const baselines = process.env.BASELINE
    ? bundles
        .map((b) => ({ b, file: join(process.env.BASELINE!, basename(dirname(b.file)), 'index.mjs') }))
        .filter(({ file }) => existsSync(file))
    : []
  const times = timeInterleaved([
    { args: ['-e', '0'], env },
    { args: ['-e', '0'], env: lambdaEnv },
    ...measured.flatMap((b) => [
      { args: importOf(b.file), env },
      { args: importOf(b.file), env: lambdaEnv },
    ]),
    ...baselines.map(({ file }) => ({ args: importOf(file), env })),
  ])
  const [bare, bareMaps] = times as [number, number]
  console.log(
    `\nbare node -e 0: ${bare.toFixed(1)} ms (with --enable-source-maps: ${bareMaps.toFixed(1)} ms)\n`,
  )

  const floorIndex = measured.findIndex((b) => b.handler === DYNAMODB_FLOOR)
  const floorMs = times[2 + 2 * floorIndex]!
  const floorMsMaps = times[3 + 2 * floorIndex]!
  const rows = measured.map((b, i) => {
    const ms = times[2 + 2 * i]!
    const msMaps = times[3 + 2 * i]!
    const row = {
      ...b,
      ms,
      ratio: ms / bare,
      floorRatio: ms / floorMs,
      msMaps,
      ratioMaps: msMaps / bareMaps,
      floorRatioMaps: msMaps / floorMsMaps,
      sizeOk: kb(b.bytes) < TARGET_KB,
      ratioOk: ms / floorMs <= TARGET_FLOOR_RATIO,
    }
    return row
  })

  const header = [
    pad('handler module', 40),
    lpad('fns', 3),
    lpad('size KB', 8),
    lpad('import ms', 9),
    lpad('/bare', 6),
    lpad('/floor', 6),
    lpad('+maps ms', 8),
    lpad('/bare', 6),
    lpad('/floor', 6),
    ' targets',
  ].join(' | ')
  console.log(`\n${header}\n${'-'.repeat(header.length)}`)
  for (const r of rows) {
    const reference = r.functionIds.length === 0
    console.log(
      [
        pad(r.handler, 40),
        lpad(reference ? 'ref' : String(r.functionIds.length), 3),
        lpad(kb(r.bytes).toFixed(1), 8),
        lpad(r.ms.toFixed(1), 9),
        lpad(`${r.ratio.toFixed(2)}x`, 6),
        lpad(`${r.floorRatio.toFixed(2)}x`, 6),
        lpad(r.msMaps.toFixed(1), 8),
        lpad(`${r.ratioMaps.toFixed(2)}x`, 6),
        lpad(`${r.floorRatioMaps.toFixed(2)}x`, 6),
        reference
          ? ' (reference, not a function)'
          : ` ${r.sizeOk ? 'size ok' : 'SIZE OVER'}, ${r.ratioOk ? 'ratio ok' : 'RATIO OVER'}`,
      ].join(' | '),
    )
  }
  console.log(
    `${pad(`bare node -e 0`, 40)} |     |          | ${lpad(bare.toFixed(1), 9)} |  1.00x |        | ${lpad(bareMaps.toFixed(1), 8)} |  1.00x |        |`,
  )
  console.log(
    `load average at the end: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  )

  if (baselines.length > 0) {
    console.log(`\nbefore (BASELINE=${process.env.BASELINE}) -> now, same rounds:`)
    baselines.forEach(({ b, file }, i) => {
      const before = times[2 + 2 * measured.length + i]!
      const now = rows.find((r) => r.file === b.file)!
      console.log(
        `  ${pad(b.handler, 44)} ${lpad(kb(statSync(file).size).toFixed(0), 4)} -> ${lpad(kb(b.bytes).toFixed(0), 4)} KB   ` +
          `/floor ${(before / floorMs).toFixed(2)}x -> ${now.floorRatio.toFixed(2)}x  (${before.toFixed(0)} -> ${now.ms.toFixed(0)} ms)`,
      )
    })
  }

  // What fills the bundles: the largest and the smallest function bundle.
  const fnRows = rows.filter((r) => r.functionIds.length > 0)
  const largest = fnRows.reduce((a, b) => (b.bytes > a.bytes ? b : a))
  const smallest = fnRows.reduce((a, b) => (b.bytes < a.bytes ? b : a))
  for (const r of [largest, smallest]) {
    console.log(`\n${r.handler} (${kb(r.bytes).toFixed(1)} KB), by package:`)
    for (const [name, bytes] of packageShares(r).slice(0, 8)) {
      console.log(
        `  ${pad(name, 40)} ${lpad(kb(bytes).toFixed(1), 7)} KB  ${((bytes / r.bytes) * 100).toFixed(0)}%`,
      )
    }
  }

  const both = fnRows.filter((r) => r.sizeOk && r.ratioOk)
  const fnsMeeting = both.reduce((n, r) => n + r.functionIds.length, 0)
  console.log(
    `\nbundle < ${TARGET_KB} KB: ${fnRows.filter((r) => r.sizeOk).length}/${fnRows.length} bundles; ` +
      `import <= ${TARGET_FLOOR_RATIO}x the DynamoDB-only floor (${floorMs.toFixed(1)} ms, ${(floorMs / bare).toFixed(2)}x bare node): ` +
      `${fnRows.filter((r) => r.ratioOk).length}/${fnRows.length} bundles. Bundles in ${relative(PROJECT_ROOT, OUT_DIR)}/`,
  )
  console.log(`${fnsMeeting} of ${functionCount} within target`)
}

await main()
