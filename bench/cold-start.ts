/**
 * Cold-start benchmark: builds every function's bundle with the ApiFunction construct's own esbuild
 * settings, and for each group of functions its own floor: a reference bundle of exactly the
 * third-party imports its code makes (bench/floor/generate.ts, from a build with every package
 * external). Then it times whole-process import against bare `node` and against that floor, side by
 * side in interleaved rounds (medians).
 *
 *   npx tsx bench/cold-start.ts        (or npm run bench:cold-start; RUNS=n rounds, default 7)
 *   BASELINE=<dir> npx tsx bench/cold-start.ts
 *   MAPS=1 npx tsx bench/cold-start.ts (also with --enable-source-maps, as Lambda runs)
 *   ONLY=<regex> npx tsx bench/cold-start.ts (only the handler modules it matches)
 *   TIMING=cpu npx tsx bench/cold-start.ts (each process's CPU time, not its wall time: for a loaded machine)
 *
 * Target per function: bundle under 600 KB, and import at most 1.15x its own floor: the project's code
 * and what it does at load may add 15% to what its libraries cost. The run ends with
 * "N of M within target" (functions).
 *
 * BASELINE names the .bench/cold-start folder of an earlier checkout's run: its bundles are timed in
 * the same interleaved rounds, for a before/after comparison free of the machine's drift.
 *
 * Functions that share a handler module get byte-identical bundles, so each distinct module is built
 * and measured once and the table says how many functions it serves.
 */
import { loadavg } from 'node:os'
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, relative } from 'node:path'
import { build, type Metafile } from 'esbuild'
import { esbuildOptionsFor, PROJECT_ROOT } from '../infra/constructs/api-function.ts'
import { functionsOf, routes, UNROUTED } from '../lib/service/routes.ts'
import { floorSource, libraryImportsOf, packageOf } from './floor/generate.ts'
import { importOf, type Timed, TIMING, timeInterleaved } from './import-timing.ts'

const RUNS = Number(process.env.RUNS ?? 7)
const TARGET_KB = 600
/** Import time at most this multiple of the function's own floor's, measured in the same rounds. */
const TARGET_OWN_FLOOR_RATIO = 1.15
const DYNAMODB_FLOOR = 'bench/floor/dynamodb.ts'
const OUT_DIR = join(PROJECT_ROOT, '.bench', 'cold-start')
const FLOOR_DIR = join(OUT_DIR, 'floors')
/**
 * Hand-written reference bundles, printed for comparison with earlier sessions and not counted: an
 * empty handler and the DynamoDB client module alone. Each function's own floor is generated from
 * its bundle (bench/floor/generate.ts).
 */
const FLOORS = ['bench/floor/empty.ts', 'bench/floor/dynamodb.ts']
/** ONLY=<regex>: only the handler modules it matches (a quicker look at a few; M counts those). */
const ONLY = process.env.ONLY ? new RegExp(process.env.ONLY) : undefined
/** MAPS=1 also times every bundle with --enable-source-maps, as Lambda runs it (twice the runs). */
const MAPS = process.env.MAPS === '1'

/** handler module -> the functionIds deployed from it. */
function bundlesToBuild(): Map<string, string[]> {
  const byHandler = new Map<string, string[]>()
  const add = (handler: string, functionId: string) =>
    byHandler.set(handler, [...(byHandler.get(handler) ?? []), functionId])
  for (const [functionId, served] of functionsOf(routes)) add(served[0]!.handler, functionId)
  add(UNROUTED.handler, UNROUTED.functionId)
  if (ONLY) for (const handler of byHandler.keys()) if (!ONLY.test(handler)) byHandler.delete(handler)
  return byHandler
}

interface Bundle {
  handler: string
  functionIds: string[]
  file: string
  bytes: number
  metafile: Metafile
}

/** The bundle the construct makes, with a metafile for the analysis. */
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

const kb = (bytes: number) => bytes / 1024
const pad = (s: string, n: number) => s.padEnd(n)
const lpad = (s: string, n: number) => s.padStart(n)

/** A function group's floor: the library imports its functions' code makes, as one module. */
interface OwnFloor {
  name: string
  packages: string[]
  bundle: Bundle
}

/** One floor per distinct set of library imports, each built with the functions' esbuild settings. */
async function ownFloors(bundles: Bundle[]): Promise<Map<Bundle, OwnFloor>> {
  mkdirSync(FLOOR_DIR, { recursive: true })
  const bySource = new Map<string, { packages: string[]; users: Bundle[] }>()
  for (const b of bundles) {
    // The same build with every package external: what survives tree shaking imports the packages.
    const external = await build({
      ...esbuildOptionsFor(b.handler, join(FLOOR_DIR, 'external.mjs')),
      packages: 'external',
      minify: false,
      sourcemap: false,
      write: false,
    })
    const imports = libraryImportsOf(external.outputFiles[0]!.text)
    const source = floorSource(imports)
    const group = bySource.get(source) ?? {
      packages: [...new Set([...imports.keys()].map(packageOf))].sort(),
      users: [],
    }
    group.users.push(b)
    bySource.set(source, group)
  }
  const floorOf = new Map<Bundle, OwnFloor>()
  let n = 0
  for (const [source, { packages, users }] of bySource) {
    const name = `own-floor-${++n}`
    const entry = join(FLOOR_DIR, `${name}.ts`)
    writeFileSync(entry, source)
    const floor = { name, packages, bundle: await bundle(relative(PROJECT_ROOT, entry), []) }
    for (const user of users) floorOf.set(user, floor)
  }
  return floorOf
}

async function main() {
  rmSync(OUT_DIR, { recursive: true, force: true })
  mkdirSync(OUT_DIR, { recursive: true })
  const plan = bundlesToBuild()
  const functionCount = [...plan.values()].reduce((n, ids) => n + ids.length, 0)
  console.log(
    `node ${process.version} (${process.execPath}), ${RUNS} interleaved rounds, median of whole-process ${TIMING === 'cpu' ? 'CPU time (TIMING=cpu)' : 'wall time'}`,
  )
  console.log(`${functionCount} functions from ${plan.size} distinct handler modules\n`)

  const started = performance.now()
  const bundles = await Promise.all([...plan].map(([handler, ids]) => bundle(handler, ids)))
  const floors = await Promise.all(FLOORS.map((handler) => bundle(handler, [])))
  const floorOf = await ownFloors(bundles)
  const owns = [...new Set(floorOf.values())]
  console.log(
    `esbuild: ${plan.size} bundles and ${owns.length} own floors in ${Math.round(performance.now() - started)} ms`,
  )
  console.log('\nown floors (the third-party imports of each group of functions, generated):')
  for (const f of owns) {
    const users = bundles.filter((b) => floorOf.get(b) === f).length
    console.log(
      `  ${pad(f.name, 13)} ${lpad(kb(f.bundle.bytes).toFixed(1), 6)} KB  ${lpad(String(users), 2)} modules  ${f.packages.join(', ')}`,
    )
  }

  // The environment a handler module needs to load; config is read lazily, so nothing connects.
  const env = { PATH: process.env.PATH, TABLE_NAME: 'bench-table', AWS_REGION: 'eu-west-1', STAGE: 'bench' }
  // Lambda runs with NODE_OPTIONS=--enable-source-maps (set by ApiFunction).
  const lambdaEnv = { ...env, NODE_OPTIONS: '--enable-source-maps' }
  const measured = [...bundles, ...floors, ...owns.map((f) => f.bundle)]
  const baselines = process.env.BASELINE
    ? bundles
        .map((b) => ({ b, file: join(process.env.BASELINE!, basename(dirname(b.file)), 'index.mjs') }))
        .filter(({ file }) => existsSync(file))
    : []
  const targets: Timed[] = [
    { args: ['-e', '0'], env },
    ...measured.map((b) => ({ args: importOf(b.file), env })),
    ...baselines.map(({ file }) => ({ args: importOf(file), env })),
    ...(MAPS ? measured.map((b) => ({ args: importOf(b.file), env: lambdaEnv })) : []),
  ]
  const times = timeInterleaved(targets, RUNS)
  const bare = times[0]!
  const msOf = new Map(measured.map((b, i) => [b, times[1 + i]!]))
  const mapsOf = new Map(
    MAPS ? measured.map((b, i) => [b, times[1 + measured.length + baselines.length + i]!]) : [],
  )
  console.log(`\nbare node -e 0: ${bare.toFixed(1)} ms\n`)

  const dynamoFloor = msOf.get(floors[FLOORS.indexOf(DYNAMODB_FLOOR)]!)!
  const rows = bundles.map((b) => {
    const ms = msOf.get(b)!
    const own = floorOf.get(b)!
    const ownMs = msOf.get(own.bundle)!
    return {
      ...b,
      ms,
      own,
      ownMs,
      ownRatio: ms / ownMs,
      sizeOk: kb(b.bytes) < TARGET_KB,
      ratioOk: ms / ownMs <= TARGET_OWN_FLOOR_RATIO,
    }
  })

  const header = [
    pad('handler module', 40),
    lpad('fns', 3),
    lpad('size KB', 8),
    lpad('import ms', 9),
    lpad('/bare', 6),
    lpad('/dynamo', 7),
    pad('own floor', 13),
    lpad('floor ms', 8),
    lpad('+ms', 6),
    lpad('/own', 6),
    ...(MAPS ? [lpad('+maps ms', 8), lpad('/own', 6)] : []),
    ' targets',
  ].join(' | ')
  console.log(`${header}\n${'-'.repeat(header.length)}`)
  for (const r of rows) {
    const maps = mapsOf.get(r)
    console.log(
      [
        pad(r.handler, 40),
        lpad(String(r.functionIds.length), 3),
        lpad(kb(r.bytes).toFixed(1), 8),
        lpad(r.ms.toFixed(1), 9),
        lpad(`${(r.ms / bare).toFixed(2)}x`, 6),
        lpad(`${(r.ms / dynamoFloor).toFixed(2)}x`, 7),
        pad(r.own.name, 13),
        lpad(r.ownMs.toFixed(1), 8),
        lpad((r.ms - r.ownMs).toFixed(1), 6),
        lpad(`${r.ownRatio.toFixed(2)}x`, 6),
        ...(maps !== undefined
          ? [lpad(maps.toFixed(1), 8), lpad(`${(maps / mapsOf.get(r.own.bundle)!).toFixed(2)}x`, 6)]
          : []),
        ` ${r.sizeOk ? 'size ok' : 'SIZE OVER'}, ${r.ratioOk ? 'ratio ok' : 'RATIO OVER'}`,
      ].join(' | '),
    )
  }
  for (const f of [...floors, ...owns.map((o) => o.bundle)]) {
    const ms = msOf.get(f)!
    console.log(
      `${pad(f.handler.replace(/^\.bench\/cold-start\/floors\//, ''), 40)} | ref | ${lpad(kb(f.bytes).toFixed(1), 8)} | ${lpad(ms.toFixed(1), 9)} | ${lpad(`${(ms / bare).toFixed(2)}x`, 6)} | ${lpad(`${(ms / dynamoFloor).toFixed(2)}x`, 7)} | (reference, not a function)`,
    )
  }
  console.log(
    `load average at the end: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  )

  if (baselines.length > 0) {
    console.log(`\nbefore (BASELINE=${process.env.BASELINE}) -> now, same rounds:`)
    baselines.forEach(({ b, file }, i) => {
      const before = times[1 + measured.length + i]!
      const now = rows.find((r) => r.file === b.file)!
      console.log(
        `  ${pad(b.handler, 44)} ${lpad(kb(statSync(file).size).toFixed(0), 4)} -> ${lpad(kb(b.bytes).toFixed(0), 4)} KB   ` +
          `/own ${(before / now.ownMs).toFixed(2)}x -> ${now.ownRatio.toFixed(2)}x  (${before.toFixed(0)} -> ${now.ms.toFixed(0)} ms)`,
      )
    })
  }

  // What fills the bundles: the largest and the smallest function bundle.
  const largest = rows.reduce((a, b) => (b.bytes > a.bytes ? b : a))
  const smallest = rows.reduce((a, b) => (b.bytes < a.bytes ? b : a))
  for (const r of [largest, smallest]) {
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
    `\nbundle < ${TARGET_KB} KB: ${rows.filter((r) => r.sizeOk).length}/${rows.length} bundles; ` +
      `import <= ${TARGET_OWN_FLOOR_RATIO}x its own floor: ${rows.filter((r) => r.ratioOk).length}/${rows.length} bundles. ` +
      `Bundles in ${relative(PROJECT_ROOT, OUT_DIR)}/`,
  )
  console.log(`${fnsMeeting} of ${functionCount} within target (functions)`)
}

await main()
