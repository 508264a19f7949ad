import * as z from 'zod'

/**
 * A zod parse that stops looking once it has found enough issues (CONTRACT 18: work bounded with the
 * reply). zod collects every issue of a value before it returns, and a 64 KB body of 20,000 empty
 * invoice lines holds 160,000 of them: 150 ms of zod and as much again turning them into problems,
 * for a reply that lists 100. Here an object's array fields are parsed element by element, and the
 * parse stops at the first element after `budget` issues are found: that body costs a few
 * milliseconds. A valid invoice is parsed exactly as the whole schema would parse it (an object is
 * its fields' parses, an array its elements'), into the same output.
 */

type Issue = z.core.$ZodIssue

interface Def {
  type: string
  shape?: Record<string, z.ZodType>
  element?: z.ZodType
  innerType?: z.ZodType
  checks?: z.core.$ZodCheck<unknown[]>[]
}

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def

/** An object schema split: its array fields (parsed element by element) and the rest (one parse). */
interface Plan {
  /** The object with each array field taken as an array of anything, its own checks (min 1) kept. */
  shell: z.ZodType
  arrays: { key: string; element: z.ZodType }[]
  /** Each field's place in the schema: issues are reported in document order, as zod reports them. */
  order: Map<string, number>
}

const plans = new WeakMap<z.ZodType, Plan | null>()

/** The array a field holds, through `.optional()`, and whether it was optional. */
function arrayOf(field: z.ZodType): { array: Def; optional: boolean } | undefined {
  const def = defOf(field)
  if (def.type === 'array') return { array: def, optional: false }
  if (def.type === 'optional' && defOf(def.innerType!).type === 'array') {
    return { array: defOf(def.innerType!), optional: true }
  }
  return undefined
}

function planOf(schema: z.ZodType): Plan | null {
  const known = plans.get(schema)
  if (known !== undefined) return known
  const def = defOf(schema)
  let plan: Plan | null = null
  if (def.type === 'object' && def.shape) {
    const arrays: Plan['arrays'] = []
    const shape: Record<string, z.ZodType> = {}
    for (const [key, field] of Object.entries(def.shape)) {
      const found = arrayOf(field)
      if (!found) {
        shape[key] = field
        continue
      }
      const anyArray = z.array(z.unknown()).check(...(found.array.checks ?? []))
      shape[key] = found.optional ? anyArray.optional() : anyArray
      arrays.push({ key, element: found.array.element! })
    }
    const order = new Map(Object.keys(def.shape).map((key, i) => [key, i]))
    if (arrays.length) plan = { shell: z.object(shape), arrays, order }
  }
  plans.set(schema, plan)
  return plan
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

export interface BoundedParse<T> {
  /** Set when no issue was found. */
  data?: T
  issues: Issue[]
  /** The parse stopped at the budget: there may be more issues than `issues` holds. */
  stopped: boolean
}

/** Parses `value`, collecting issues until at least `budget` are found. */
export function boundedParse<S extends z.ZodType>(
  schema: S,
  value: unknown,
  budget: number,
): BoundedParse<z.output<S>> {
  const state: ParseState = { issues: [], found: 0, stopped: false }
  const data = parseInto(schema, value, [], state, budget) as z.output<S>
  if (state.issues.length) return { issues: state.issues, stopped: state.stopped }
  return { data, issues: [], stopped: false }
}

/** `issues`: those reported so far, in order; `found`: every issue found, reported or held by a caller. */
interface ParseState {
  issues: Issue[]
  found: number
  stopped: boolean
}

function parseInto(
  schema: z.ZodType,
  value: unknown,
  path: PropertyKey[],
  state: ParseState,
  budget: number,
): unknown {
  const plan = planOf(schema)
  const target = plan && isRecord(value) ? plan.shell : schema
  const result = target.safeParse(value)
  const issues = result.success ? [] : result.error.issues.map((i) => ({ ...i, path: [...path, ...i.path] }))
  state.found += issues.length
  if (target === schema) {
    state.issues.push(...issues)
    return result.data
  }
  // This object's issues, its elements' among them, are reported in field order once all are found.
  const out = result.success ? (result.data as Record<string, unknown>) : undefined
  const depth = path.length
  const place = (issue: Issue) => plan!.order.get(String(issue.path[depth])) ?? -1
  try {
    for (const { key, element } of plan!.arrays) {
      const items = (value as Record<string, unknown>)[key]
      if (!Array.isArray(items)) continue
      const parsed: unknown[] = []
      for (let i = 0; i < items.length; i++) {
        if (state.found >= budget) {
          state.stopped = true
          return undefined
        }
        const before = state.issues.length
        parsed.push(parseInto(element, items[i], [...path, key, i], state, budget))
        issues.push(...state.issues.splice(before))
        if (state.stopped) return undefined
      }
      if (out) out[key] = parsed
    }
    return out
  } finally {
    // A stable sort: within a field, issues keep the order they were found in.
    state.issues.push(...issues.sort((a, b) => place(a) - place(b)))
  }
}
