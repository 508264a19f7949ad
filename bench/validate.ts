/**
 * Invoice validation cost against JSON.parse of the same body, for invoices of 1, 10, 100 and 1,000
 * lines. "Full" is what the validate and sign endpoints do per request before touching the database:
 * JSON.parse of the body, the zod schema, the unknown-key walk, the code lists (built once, as a warm
 * container holds them) and the decimal arithmetic.
 *
 * Run: npx tsx bench/validate.ts
 */
import { generateKeyPairSync, sign } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { canonicalInvoice } from '#lib/invoice/canonical.ts'
import { buildCodeLists } from '#lib/invoice/code-lists.ts'
import { checkRules } from '#lib/invoice/rules.ts'
import { invoiceSchema } from '#lib/invoice/schemas.ts'
import { validateInvoice } from '#lib/invoice/validate.ts'
import { bundledLists } from '#lib/reference/manifest.ts'
import { DEV } from '../scripts/local/dev-credentials.ts'
import { invoiceOfLines } from '../test/fixtures/invoices/build.ts'

const dataDir = new URL('../data/reference/', import.meta.url)
const lists = buildCodeLists((name) => ({
  rows: JSON.parse(readFileSync(new URL(bundledLists[name].file, dataDir), 'utf8')) as unknown[],
  complete: bundledLists[name].complete,
}))
const options = { version: 'v2', mode: 'strict', lists, serviceId: DEV.supplier.serviceId } as const
const { privateKey } = generateKeyPairSync('ed25519')

const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6
const medianOf = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!

/**
 * Median timings of several functions, run in turn inside each iteration so that a busy moment on
 * the machine (tests run beside benchmarks here) weighs on all of them alike.
 */
function medians(fns: Record<string, () => void>, runs: number, warmup: number): Record<string, number> {
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(fns).map((k) => [k, []]))
  for (let i = 0; i < warmup + runs; i++) {
    for (const [name, fn] of Object.entries(fns)) {
      const start = process.hrtime.bigint()
      fn()
      if (i >= warmup) times[name]!.push(ms(start))
    }
  }
  return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, medianOf(v)]))
}

let sink: unknown
const rows: Record<string, string | number>[] = []
for (const lines of [1, 10, 100, 1000]) {
  const body = JSON.stringify(invoiceOfLines(lines))
  const check = validateInvoice(JSON.parse(body), options)
  if (!check.ok)
    throw new Error(`the ${lines}-line invoice is not valid: ${JSON.stringify(check.problems.slice(0, 3))}`)
  const runs = lines >= 1000 ? 200 : lines >= 100 ? 500 : 2000
  const parsed = JSON.parse(body)
  const m = medians(
    {
      parse: () => {
        sink = JSON.parse(body)
      },
      full: () => {
        sink = validateInvoice(JSON.parse(body), options)
      },
      // Where the time goes: each stage alone on an already parsed body.
      schema: () => {
        sink = invoiceSchema('v2').safeParse(parsed)
      },
      rules: () => {
        sink = checkRules(parsed, options)
      },
      // Not validation: what sign adds on top of it (RFC 8785 form, SHA-256, Ed25519), for scale.
      sign: () => {
        sink = sign(null, canonicalInvoice(check.invoice).bytes, privateKey)
      },
    },
    runs,
    Math.ceil(runs / 4),
  )
  const [parse, full, schema, rules, signing] = [m.parse!, m.full!, m.schema!, m.rules!, m.sign!]
  rows.push({
    lines,
    'body KB': Math.round(body.length / 1024),
    'JSON.parse ms': parse.toFixed(3),
    'full ms': full.toFixed(3),
    ratio: `${(full / parse).toFixed(2)}x`,
    'schema ms': schema.toFixed(3),
    'rules ms': rules.toFixed(3),
    'canonical+sign ms': signing.toFixed(3),
  })
}
void sink

console.log(
  `Invoice validation vs JSON.parse (median; node ${process.version}, ${new Date().toISOString().slice(0, 10)})`,
)
console.table(rows)
const last = rows.at(-1)!
const ratio = Number.parseFloat(String(last.ratio))
console.log(`1,000 lines: ${last.ratio} of JSON.parse (target 3x): ${ratio <= 3 ? 'met' : 'NOT met'}`)
