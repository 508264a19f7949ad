/**
 * What each module costs in a function's bundle: the bundle is built with the ApiFunction construct's
 * own esbuild settings (esbuildOptionsFor) and its metafile's `bytesInOutput` per input (the minified
 * bytes each file leaves in the bundle) is added up by npm package, by project folder and by file.
 * A package found at more than one path (a nested node_modules copy) is listed as a duplicate.
 *
 *   npx tsx bench/bundle-contents.ts                  (every function over 550 KB, top 15 of each)
 *   ONLY=<regex> npx tsx bench/bundle-contents.ts     (the handler modules it matches, any size)
 *   TOP=<n> OVER=<KB> npx tsx bench/bundle-contents.ts
 *   WHY=<path fragment> ONLY=<regex> npx tsx bench/bundle-contents.ts
 *                                   (also the shortest import chain from the handler to each input it matches)
 *
 * The same measure over all the selected bundles at the end: what the most of them carry, and what
 * is in some but not the others (each the first place to look for a cut that helps many).
 * KB = 1,024 bytes, as bench/bundle-sizes.ts counts.
 */
import { build, type Metafile } from 'esbuild'
import { join } from 'node:path'
import { tmpdir } from 'node:os'
import { esbuildOptionsFor } from '../infra/constructs/api-function.ts'
import { functionsOf, routes } from '../lib/service/routes.ts'

const ONLY = process.env.ONLY ? new RegExp(process.env.ONLY) : undefined
const OVER_KB = Number(process.env.OVER ?? (ONLY ? 0 : 550))
const TOP = Number(process.env.TOP ?? 15)

const WHY = process.env.WHY

/** input path -> bytes it leaves in the bundle. */
type Contents = Map<string, number>

async function contentsOf(handler: string): Promise<{ bytes: number; inputs: Contents; metafile: Metafile }> {
  const options = esbuildOptionsFor(handler, join(tmpdir(), 'bundle-contents.mjs'))
  const result = await build({ ...options, sourcemap: false, write: false })
  const output = result.outputFiles.find((f) => f.path.endsWith('.mjs'))!
  const inputs: Contents = new Map()
  for (const out of Object.values((result.metafile as Metafile).outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(out.inputs)) {
      if (bytesInOutput > 0) inputs.set(input, (inputs.get(input) ?? 0) + bytesInOutput)
    }
  }
  return { bytes: output.contents.length, inputs, metafile: result.metafile }
}

/** The shortest import chain from the entry to `target` (breadth first over the metafile's imports). */
function chainTo(metafile: Metafile, entry: string, target: string): string[] {
  const from = new Map<string, string>([[entry, '']])
  const queue = [entry]
  while (queue.length > 0) {
    const at = queue.shift()!
    if (at === target) break
    for (const { path } of metafile.inputs[at]?.imports ?? []) {
      if (!from.has(path)) {
        from.set(path, at)
        queue.push(path)
      }
    }
  }
  const chain: string[] = []
  for (let at: string | undefined = target; at; at = from.get(at)) chain.unshift(at)
  return chain[0] === entry ? chain : []
}

/** The npm package of an input (the innermost node_modules), or undefined for the project's own files. */
const packageOf = (input: string) => /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1]

/** The project folder of an input: lib/<domain> (lib/platform/<part>), functions/<domain>, infra/... */
function folderOf(input: string): string {
  const parts = input.split('/')
  if (parts[0] === 'lib' && parts[1] === 'platform') return parts.slice(0, 3).join('/')
  return parts.slice(0, parts.length > 2 ? 2 : 1).join('/')
}

function sum(inputs: Contents, keyOf: (input: string) => string | undefined): [string, number][] {
  const totals = new Map<string, number>()
  for (const [input, bytes] of inputs) {
    const key = keyOf(input)
    if (key !== undefined) totals.set(key, (totals.get(key) ?? 0) + bytes)
  }
  return [...totals].sort((a, b) => b[1] - a[1])
}

/** Packages bundled from more than one node_modules path, with each path's bytes. */
function duplicates(inputs: Contents): [string, [string, number][]][] {
  const paths = new Map<string, Map<string, number>>()
  for (const [input, bytes] of inputs) {
    const match = /(.*node_modules\/((?:@[^/]+\/)?[^/]+))\//.exec(input)
    if (!match) continue
    const byPath = paths.get(match[2]!) ?? new Map<string, number>()
    byPath.set(match[1]!, (byPath.get(match[1]!) ?? 0) + bytes)
    paths.set(match[2]!, byPath)
  }
  return [...paths].filter(([, byPath]) => byPath.size > 1).map(([name, byPath]) => [name, [...byPath]])
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1).padStart(7)
const print = (title: string, rows: [string, number][], total: number) => {
  console.log(`  ${title}`)
  for (const [name, bytes] of rows.slice(0, TOP)) {
    console.log(`  ${kb(bytes)} KB ${`${((bytes / total) * 100).toFixed(0)}%`.padStart(4)}  ${name}`)
  }
}

const handlers = [...new Set([...functionsOf(routes).values()].map((served) => served[0]!.handler))].filter(
  (h) => !ONLY || ONLY.test(h),
)
const selected: { handler: string; bytes: number; inputs: Contents; metafile: Metafile }[] = []
for (const handler of handlers) {
  const contents = await contentsOf(handler)
  if (contents.bytes / 1024 > OVER_KB) selected.push({ handler, ...contents })
}
selected.sort((a, b) => b.bytes - a.bytes)

for (const { handler, bytes, inputs, metafile } of selected) {
  const own = [...inputs].filter(([input]) => !packageOf(input)).reduce((n, [, b]) => n + b, 0)
  console.log(
    `\n${handler}: ${kb(bytes).trim()} KB (packages ${kb(bytes - own).trim()}, project ${kb(own).trim()})`,
  )
  print('by package', sum(inputs, packageOf), bytes)
  print(
    'by project folder',
    sum(inputs, (input) => (packageOf(input) ? undefined : folderOf(input))),
    bytes,
  )
  print(
    'by file',
    [...inputs].sort((a, b) => b[1] - a[1]),
    bytes,
  )
  for (const [name, byPath] of duplicates(inputs)) {
    console.log(`  duplicate ${name}: ${byPath.map(([path, b]) => `${path} ${kb(b).trim()} KB`).join(', ')}`)
  }
  if (WHY) {
    const entry = Object.keys(metafile.inputs).find((input) => input.endsWith(handler))!
    for (const input of [...inputs.keys()].filter((i) => i.includes(WHY)).slice(0, 5)) {
      console.log(`  why ${input}:\n    ${chainTo(metafile, entry, input).join('\n    -> ')}`)
    }
  }
}

if (selected.length > 1) {
  // Per file: in how many of the selected bundles, and its largest cost in any of them.
  const seen = new Map<string, { count: number; bytes: number }>()
  for (const { inputs } of selected) {
    for (const [input, bytes] of inputs) {
      const s = seen.get(input) ?? { count: 0, bytes: 0 }
      seen.set(input, { count: s.count + 1, bytes: Math.max(s.bytes, bytes) })
    }
  }
  const byGroup = (keyOf: (input: string) => string) => {
    const groups = new Map<string, { count: number; bytes: number }>()
    for (const [input, s] of seen) {
      const key = keyOf(input)
      const g = groups.get(key) ?? { count: 0, bytes: 0 }
      groups.set(key, { count: Math.max(g.count, s.count), bytes: g.bytes + s.bytes })
    }
    return [...groups].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, TOP * 2)
  }
  console.log(`\nacross the ${selected.length} bundles above (in how many, KB at most):`)
  for (const [name, { count, bytes }] of byGroup((i) => packageOf(i) ?? folderOf(i))) {
    console.log(`  ${kb(bytes)} KB  in ${String(count).padStart(2)}  ${name}`)
  }
}
console.log(`\n${selected.length} of ${handlers.length} bundles over ${OVER_KB} KB`)
