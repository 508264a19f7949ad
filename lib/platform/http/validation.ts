import type * as z from 'zod'
import type { PlatformCode } from '#lib/platform/error-codes.ts'
import { type DomainError, invalid, type Problem } from '#lib/platform/errors.ts'
import { overlongText } from '#lib/platform/text/length-bound.ts'
import { loneSurrogates } from '#lib/platform/text/well-formed.ts'

/** `invoice_line/3/price/price_amount`: the contract's JSON-pointer-like path of an issue. */
export function pathOf(segments: readonly PropertyKey[], prefix?: string): string {
  const path = segments.map((s) => String(s)).join('/')
  return prefix ? (path ? `${prefix}/${path}` : prefix) : path
}

/**
 * zod's issue codes are its own and change with it: a reply carries the catalogue's stable code
 * instead (lib/platform/error-codes.ts), with zod's message. Typed against zod's union, so a zod
 * upgrade with a new issue code fails to compile until it is mapped.
 */
const FIELD_CODES: Record<z.core.$ZodIssue['code'], PlatformCode> = {
  invalid_type: 'FIELD_TYPE',
  invalid_format: 'FIELD_FORMAT',
  invalid_value: 'FIELD_VALUE',
  invalid_union: 'FIELD_VALUE',
  invalid_key: 'FIELD_VALUE',
  invalid_element: 'FIELD_VALUE',
  too_big: 'FIELD_RANGE',
  too_small: 'FIELD_RANGE',
  not_multiple_of: 'FIELD_RANGE',
  unrecognized_keys: 'FIELD_UNKNOWN',
  custom: 'FIELD_RULE',
}

/** The value at a path of the request, and whether its last key is there at all. */
function present(root: unknown, path: readonly PropertyKey[]): boolean {
  let node = root
  for (const key of path) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return false
    node = (node as Record<PropertyKey, unknown>)[key]
  }
  return node !== undefined
}

/** Every zod issue as a `{path, code, message}` problem; unions report their branches' issues. */
export function problemsFromZod(error: z.ZodError, prefix: string | undefined, value: unknown): Problem[] {
  return error.issues.map((issue) => ({
    path: pathOf(issue.path, prefix),
    // A key that is not there at all is missing, whatever zod found wrong with `undefined`.
    code:
      issue.path.length && issue.code !== 'custom' && !present(value, issue.path)
        ? 'FIELD_REQUIRED'
        : FIELD_CODES[issue.code],
    message: issue.message,
  }))
}

/**
 * Parses a value with a schema, or throws a 400 listing every problem found (lone surrogates in any
 * string, and strings over the length bound, included). `where` prefixes the
 * paths of query and path parameters so a person can tell `size` in the query from a body field.
 */
export function parseOrThrow<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: 'body' | 'query' | 'path',
  toError: (problems: Problem[], summary: string) => DomainError = invalid,
  documents?: RegExp,
): z.output<S> {
  const result = schema.safeParse(value)
  // The shared text rules (CONTRACT 9 and 18) hold for every string, whatever the schema says of it.
  const prefix = where === 'body' ? '' : where
  const text = [...loneSurrogates(value, prefix), ...overlongText(value, prefix, documents)]
  if (result.success && text.length === 0) return result.data
  const summary =
    where === 'body'
      ? 'The request body is invalid'
      : `The request ${where === 'query' ? 'query string' : 'path'} is invalid`
  const schemaProblems = result.success
    ? []
    : problemsFromZod(result.error, where === 'body' ? undefined : where, value)
  throw toError([...text, ...schemaProblems], summary)
}
