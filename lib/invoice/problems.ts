import type * as z from 'zod'
import type { Problem } from '#lib/platform/errors.ts'
import { TIN_FORMS } from '#lib/taxpayer/tin.ts'
import type { RuleCodeId } from './rule-codes.ts'
import { IRN_PATTERN, TELEPHONE_PATTERN, TIME_PATTERN, TIN_PATTERN } from './schemas.ts'
import { editDistance } from '#lib/platform/text/edit-distance.ts'

/**
 * Turns zod's issues into the contract's `{path, code, message}` problems with the NG- rule codes,
 * and finds the unknown keys of a request (which zod strips silently) so they can be reported.
 */

export const problem = (path: string, code: RuleCodeId, message: string): Problem => ({ path, code, message })

export const pathOf = (segments: readonly PropertyKey[]) => segments.map(String).join('/')

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

function at(root: unknown, segments: readonly PropertyKey[]): unknown {
  let value = root
  for (const s of segments) {
    if (typeof value !== 'object' || value === null) return undefined
    value = (value as Record<PropertyKey, unknown>)[s]
  }
  return value
}

function hasOwn(root: unknown, segments: readonly PropertyKey[]): boolean {
  if (segments.length === 0) return true
  const parent = at(root, segments.slice(0, -1))
  return typeof parent === 'object' && parent !== null && Object.hasOwn(parent, segments.at(-1)!)
}

const jsonType = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v)

/**
 * A value quoted for a message, cut short so a huge value cannot bloat the reply. An object or array
 * is named by its type, never serialised: a value nested thousands deep would overflow the stack of
 * JSON.stringify (a 500 for a 35 KB body, found by the route fuzz test) and a large one cost its size.
 */
function shown(v: unknown): string {
  if (typeof v === 'object' && v !== null) return Array.isArray(v) ? `an array of ${v.length}` : 'an object'
  const text = typeof v === 'string' ? JSON.stringify(v.slice(0, 60)) : String(v)
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}

const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
}

/** Each pattern's own code and wording, so a failed pattern reads as the rule it is. */
const PATTERNS = new Map<string, { code: RuleCodeId; wants: string }>([
  [String(TIN_PATTERN), { code: 'NG-FM-01', wants: `a TIN of the form ${TIN_FORMS}` }],
  [String(TELEPHONE_PATTERN), { code: 'NG-FM-02', wants: 'digits only, with an optional leading +' }],
  [String(TIME_PATTERN), { code: 'NG-FM-03', wants: 'a 24-hour time HH:MM:SS' }],
  [
    String(IRN_PATTERN),
    {
      code: 'NG-IRN-01',
      wants:
        'an IRN <reference>-<service id>-<YYYYMMDD> of letters and digits, e.g. INV001-94ND90NR-20261121',
    },
  ],
])

function rangeMessage(issue: z.core.$ZodIssueTooBig | z.core.$ZodIssueTooSmall, input: unknown): string {
  const big = issue.code === 'too_big'
  const limit = Number(big ? issue.maximum : issue.minimum)
  const bound = big ? (issue.inclusive ? 'at most' : 'less than') : issue.inclusive ? 'at least' : 'more than'
  switch (issue.origin) {
    case 'string':
      return limit === 1 && !big
        ? 'must not be empty'
        : `must be ${bound} ${limit} characters long (received ${(input as string).length})`
    case 'array':
      return `must have ${bound} ${limit} ${limit === 1 ? 'entry' : 'entries'} (received ${(input as unknown[]).length})`
    default:
      return `must be ${bound} ${limit} (received ${shown(input)})`
  }
}

/** One zod issue as a problem; `root` is the raw request, to tell a missing key from a wrong value. */
function toProblem(issue: z.core.$ZodIssue, root: unknown): Problem {
  const path = pathOf(issue.path)
  const input = at(root, issue.path)
  // Enums and unions report a missing key as a wrong value: it is a missing key all the same.
  if (
    input === undefined &&
    !hasOwn(root, issue.path) &&
    ['invalid_type', 'invalid_value', 'invalid_union'].includes(issue.code)
  ) {
    return problem(path, 'NG-SC-01', `${String(issue.path.at(-1) ?? 'the body')} is required`)
  }
  switch (issue.code) {
    case 'invalid_type':
      return problem(
        path,
        'NG-SC-02',
        `must be ${EXPECTED[issue.expected] ?? issue.expected} (received ${jsonType(input)})`,
      )
    case 'invalid_union': {
      // Unions here are between types (string or object, name or code): no branch took the value.
      const tookType = issue.errors.some((branch) => branch.some((i) => i.code === 'invalid_value'))
      return problem(path, tookType ? 'NG-SC-03' : 'NG-SC-02', `${issue.message} (received ${shown(input)})`)
    }
    case 'invalid_value':
      return problem(
        path,
        'NG-SC-03',
        `must be one of ${issue.values.map((v) => String(v)).join(', ')} (received ${shown(input)})`,
      )
    case 'too_big':
    case 'too_small':
      // The LocalTime reading of issue_time: an hour of 25 is a time that does not exist.
      if (issue.path[0] === 'issue_time') {
        return problem(path, 'NG-FM-03', `issue_time ${rangeMessage(issue, input)}: not a 24-hour time`)
      }
      return problem(path, 'NG-SC-04', rangeMessage(issue, input))
    case 'invalid_format': {
      if (issue.format === 'date') {
        return problem(
          path,
          'NG-DT-01',
          `must be a date that exists, as YYYY-MM-DD (received ${shown(input)})`,
        )
      }
      const known = issue.format === 'regex' ? PATTERNS.get(String(issue.pattern)) : undefined
      if (known) return problem(path, known.code, `must be ${known.wants} (received ${shown(input)})`)
      return problem(path, 'NG-SC-03', `${issue.message} (received ${shown(input)})`)
    }
    case 'custom': {
      const rule = (issue.params as { rule?: RuleCodeId } | undefined)?.rule ?? 'NG-SC-03'
      return problem(path, rule, `${issue.message} (received ${shown(input)})`)
    }
    default:
      return problem(path, 'NG-SC-03', issue.message)
  }
}

export function problemsFromIssues(issues: readonly z.core.$ZodIssue[], root: unknown): Problem[] {
  return issues.map((issue) => toProblem(issue, root))
}

// Unknown keys ---------------------------------------------------------------------------------

/** The keys a schema knows, as a tree: objects list their fields, arrays their element. */
export type KeyTree =
  | { kind: 'object'; fields: Map<string, KeyTree | undefined> }
  | { kind: 'array'; element: KeyTree | undefined }
  | undefined

interface Def {
  type: string
  shape?: Record<string, z.ZodType>
  element?: z.ZodType
  innerType?: z.ZodType
  in?: z.ZodType
  options?: z.ZodType[]
}

/** Reads the known keys out of a zod schema, once per schema, by walking its definition. */
export function keyTreeOf(schema: z.ZodType): KeyTree {
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def
  switch (def.type) {
    case 'object':
      return {
        kind: 'object',
        fields: new Map(Object.entries(def.shape ?? {}).map(([key, child]) => [key, keyTreeOf(child)])),
      }
    case 'array':
      return { kind: 'array', element: keyTreeOf(def.element!) }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'readonly':
      return keyTreeOf(def.innerType!)
    case 'pipe':
      return keyTreeOf(def.in!)
    case 'union':
      // Only issue_time mixes an object with a non-object: the object branch holds the keys.
      return def.options!.map(keyTreeOf).find((t) => t !== undefined)
    default:
      return undefined
  }
}

/** Edit distance, small strings only: near-misses of a known key ("dicount_rate"). */
function distance(a: string, b: string): number {
  return Math.abs(a.length - b.length) > 2 ? 3 : editDistance(a, b)
}

/** Up to two edits, fewer for short keys, so that "id" is never taken for a misspelled "tin". */
const nearest = (key: string, candidates: Iterable<string>) => {
  for (const candidate of candidates) {
    const allowed = Math.min(2, Math.floor(Math.max(key.length, candidate.length) / 4))
    if (distance(key, candidate) <= allowed) return candidate
  }
  return undefined
}

/**
 * Every key of the request the schema does not know, as NG-UK-01 warnings in document order, the
 * first `limit` of them; `more` counts the rest (a reply lists at most 100, lib/platform/reply-bounds.ts).
 * The path is kept as a stack of segments and joined only for a key that is reported: this walk
 * visits every value of the body, so it must cost next to nothing per value.
 */
export function unknownKeys(
  value: unknown,
  tree: KeyTree,
  limit: number,
): { found: Problem[]; more: number } {
  const found: Problem[] = []
  let more = 0
  const segments: string[] = []
  /**
   * Per level walked, the fields of the object holding the one walked (undefined through an array):
   * a key sent one level too deep is named where it belongs.
   */
  const enclosing: (Map<string, KeyTree | undefined> | undefined)[] = []
  const walk = (v: unknown, t: KeyTree) => {
    if (!t || typeof v !== 'object' || v === null) return
    if (t.kind === 'array') {
      if (!Array.isArray(v) || t.element === undefined) return
      for (let i = 0; i < v.length; i++) {
        segments.push(String(i))
        enclosing.push(undefined)
        walk(v[i], t.element)
        enclosing.pop()
        segments.pop()
      }
      return
    }
    if (Array.isArray(v)) return
    const fields = t.fields
    for (const key in v) {
      const child = fields.get(key)
      if (child === undefined && !fields.has(key)) {
        if (found.length >= limit) more++
        else
          found.push(
            problem(
              [...segments, key].join('/'),
              'NG-UK-01',
              `Unknown key "${key}" was ignored and not stored${hintFor(key, fields)}`,
            ),
          )
      } else if (child !== undefined) {
        segments.push(key)
        enclosing.push(child.kind === 'object' ? fields : undefined)
        walk((v as Record<string, unknown>)[key], child)
        enclosing.pop()
        segments.pop()
      }
    }
  }
  const hintFor = (key: string, fields: Map<string, KeyTree | undefined>) => {
    const near = nearest(key, fields.keys())
    if (near) return `: did you mean "${near}"?`
    const outer = enclosing.at(-1)
    const owner = segments.slice(0, -1).join('/') || 'the body'
    return outer?.has(key) ? `: ${key} belongs in ${owner}, beside ${segments.at(-1)}` : ''
  }
  walk(value, tree)
  return { found, more }
}

/**
 * A missing required key next to an unknown key that is one or two letters away is almost always a
 * misspelling (the authority's own samples send `dicount_rate`): the missing-key problem says so.
 */
export function hintMisspellings(problems: Problem[], root: unknown, tree: KeyTree): Problem[] {
  return problems.map((p) => {
    if (p.code !== 'NG-SC-01') return p
    const segments = p.path.split('/')
    const key = segments.pop()!
    const parent = at(root, segments)
    let node: KeyTree = tree
    for (const s of segments) {
      if (!node) break
      node = node.kind === 'array' ? node.element : node.fields.get(s)
    }
    if (!isObject(parent) || node?.kind !== 'object') return p
    const fields = node.fields
    const sent = nearest(
      key,
      Object.keys(parent).filter((k) => !fields.has(k)),
    )
    if (sent) return { ...p, message: `${p.message}; the body has "${sent}" instead: is it misspelled?` }
    const inside = nestedOneLevelDown(parent, fields, key)
    if (!inside) return p
    const owner = segments.length ? segments.join('/') : 'the body'
    return {
      ...p,
      message: `${p.message}; the body has it under ${inside} (${[...segments, inside, key].join('/')}), where it is ignored: it belongs in ${owner}, beside ${inside}`,
    }
  })
}

/**
 * The child object of `parent` holding `key` where the schema does not take it: integrators put a
 * party's `tin` and `email` under its `postal_address`, and hear only that `tin` is required.
 */
function nestedOneLevelDown(
  parent: Record<string, unknown>,
  fields: Map<string, KeyTree | undefined>,
  key: string,
): string | undefined {
  for (const [name, child] of Object.entries(parent)) {
    const known = fields.get(name)
    if (known?.kind !== 'object' || !isObject(child) || !Object.hasOwn(child, key)) continue
    if (!known.fields.has(key)) return name
  }
  return undefined
}

/** The most unknown keys a refusal lists (CONTRACT 17): the first few are what explains the refusal. */
export const MAX_IGNORED_LISTED = 20

/**
 * A refused invoice's unknown keys, listed beside its problems: an integrator who sent `invoice_date`
 * or `supplier` hears that those were ignored, which is why `issue_date` or
 * `accounting_supplier_party` is missing. The first 20 are listed; `more` counts the rest.
 */
export function ignoredKeys(warnings: readonly Problem[]): { listed: Problem[]; more: number } {
  const all = warnings.filter((w) => w.code === 'NG-UK-01')
  return { listed: all.slice(0, MAX_IGNORED_LISTED), more: Math.max(0, all.length - MAX_IGNORED_LISTED) }
}
