/**
 * Each function's bundle size, built with the ApiFunction construct's own esbuild settings, largest
 * first, against the 600 KB budget and issue 43's limit of 550 KB (50 KB of room under the budget;
 * KB = 1,024 bytes, as bench/cold-start.ts counts): a quick look without the cold-start timing.
 * What fills a bundle, module by module: bench/bundle-contents.ts.
 *
 *   npx tsx bench/bundle-sizes.ts           (every function)
 *   ONLY=<regex> npx tsx bench/bundle-sizes.ts
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'esbuild'
import { esbuildOptionsFor } from '../infra/constructs/api-function.ts'
import { functionsOf, routes } from '../lib/service/routes.ts'

const ONLY = process.env.ONLY ? new RegExp(process.env.ONLY) : undefined
const BUDGET_KB = 600
/** Issue 43: every function at most this, so that the next addition has room under the budget. */
const LIMIT_KB = 550
const dir = mkdtempSync(join(tmpdir(), 'bundle-sizes-'))
const handlers = new Set([...functionsOf(routes).values()].map((served) => served[0]!.handler))
const rows: [string, number][] = []
for (const handler of handlers) {
  if (ONLY && !ONLY.test(handler)) continue
  const options = esbuildOptionsFor(handler, join(dir, `${rows.length}.mjs`))
  const result = await build({ ...options, sourcemap: false, write: false })
  rows.push([handler, result.outputFiles.find((f) => f.path.endsWith('.mjs'))!.contents.length / 1024])
}
rmSync(dir, { recursive: true, force: true })
rows.sort((a, b) => b[1] - a[1])
for (const [handler, kb] of rows) {
  console.log(`${kb.toFixed(1).padStart(7)} KB  ${handler}${kb > LIMIT_KB ? `  (over ${LIMIT_KB} KB)` : ''}`)
}
const over = rows.filter(([, kb]) => kb >= BUDGET_KB)
const overLimit = rows.filter(([, kb]) => kb > LIMIT_KB)
console.log(
  `\n${rows.length} bundles; ${over.length} at or over ${BUDGET_KB} KB, ${overLimit.length} over ${LIMIT_KB} KB; largest ${rows[0]?.[1].toFixed(1)} KB`,
)
