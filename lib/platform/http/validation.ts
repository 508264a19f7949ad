import type * as z from 'zod'
import { type DomainError, invalid, type Problem } from '#lib/platform/errors.ts'
import { overlongText } from '#lib/platform/text/length-bound.ts'
import { loneSurrogates } from '#lib/platform/text/well-formed.ts'

/** `invoice_line/3/price/price_amount`: the contract's JSON-pointer-like path of an issue. */
export function pathOf(segments: readonly PropertyKey[], prefix?: string): string {
  const path = segments.map((s) => String(s)).join('/')
  return prefix ? (path ? `${prefix}/${path}` : prefix) : path
}

/** Every zod issue as a `{path, code, message}` problem; unions report their branches' issues. */
export function problemsFromZod(error: z.ZodError, prefix?: string): Problem[] {
  return error.issues.map((issue) => ({
    path: pathOf(issue.path, prefix),
    code: issue.code,
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
    : problemsFromZod(result.error, where === 'body' ? undefined : where)
  throw toError([...text, ...schemaProblems], summary)
}
