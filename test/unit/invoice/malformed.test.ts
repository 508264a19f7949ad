import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { canonicalInvoice, storageOf } from '#lib/invoice/canonical.ts'
import { buildCodeLists } from '#lib/invoice/code-lists.ts'
import { RULE_CODES } from '#lib/invoice/rule-codes.ts'
import { API_VERSIONS } from '#lib/invoice/schemas.ts'
import { validateInvoice } from '#lib/invoice/validate.ts'
import { bundledLists } from '#lib/reference/manifest.ts'
import { buildInvoice } from '../../fixtures/invoices/build.ts'

/**
 * Every field of a complete invoice, replaced in turn by a value of every JSON type (and deleted):
 * the validator never throws, every problem carries a documented code and a path, and what it
 * accepts can be canonicalised and stored. The HTTP property test samples this space through the
 * whole handler; this test walks all of it through the validator.
 */
const lists = buildCodeLists((name) => ({
  rows: JSON.parse(
    readFileSync(new URL(`../../../data/reference/${bundledLists[name].file}`, import.meta.url), 'utf8'),
  ),
  complete: bundledLists[name].complete,
}))

/** An object nested `depth` deep: JSON.stringify of it overflows the stack, so no message may quote it. */
function nested(depth: number): unknown {
  let value: unknown = 1
  for (let i = 0; i < depth; i++) value = { a: value }
  return value
}

const VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  1e300,
  -1e300,
  5e-324,
  2 ** 53 + 2,
  '',
  'x',
  '2026-02-30',
  [],
  [null, 'a', 1],
  {},
  { a: 1 },
  nested(20_000),
]
const DELETE = Symbol('delete')

type Path = (string | number)[]
function pathsOf(value: unknown, prefix: Path = []): Path[] {
  const out: Path[] = [prefix]
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) out.push(...pathsOf(v, [...prefix, i]))
  } else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) out.push(...pathsOf(v, [...prefix, k]))
  return out
}

function withValue(path: Path, value: unknown): unknown {
  const root: any = buildInvoice({ irn: 'INV1-94ND90NR-20261121' })
  if (path.length === 0) return value === DELETE ? undefined : value
  let parent = root
  for (const seg of path.slice(0, -1)) parent = parent[seg]
  // JSON has no holes: an array entry is deleted by removing it.
  if (value === DELETE)
    Array.isArray(parent) ? parent.splice(Number(path.at(-1)), 1) : delete parent[path.at(-1)!]
  else parent[path.at(-1)!] = value
  return root
}

const KNOWN = new Set(Object.keys(RULE_CODES))
const PATHS = pathsOf(buildInvoice())

describe.each(API_VERSIONS)('the %s validator on every field with every JSON type', (version) => {
  it(`never throws, and reports only documented codes (${PATHS.length} paths x ${VALUES.length + 1} values)`, () => {
    let checked = 0
    for (const path of PATHS) {
      for (const value of [...VALUES, DELETE]) {
        const input = withValue(path, value)
        for (const mode of ['strict', 'lenient'] as const) {
          const result = validateInvoice(input, { version, mode, lists, serviceId: '94ND90NR' })
          for (const p of result.ok ? result.warnings : [...result.problems, ...result.warnings]) {
            expect(KNOWN.has(p.code), `${p.code} at ${p.path}`).toBe(true)
            expect(typeof p.path).toBe('string')
          }
          if (result.ok) expect(storageOf(result.invoice, canonicalInvoice(result.invoice))).toBeDefined()
          checked++
        }
      }
    }
    expect(checked).toBe(PATHS.length * (VALUES.length + 1) * 2)
  })
})
