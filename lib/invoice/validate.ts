import type { Problem } from '#lib/platform/errors.ts'
import { loneSurrogates } from '#lib/platform/text/well-formed.ts'
import type { CodeLists } from './code-lists.ts'
import { hintMisspellings, type KeyTree, keyTreeOf, problemsFromIssues, unknownKeys } from './problems.ts'
import { checkRules } from './rules.ts'
import { type ApiVersion, invoiceSchema, type StoredInvoice } from './schemas.ts'

/**
 * The whole validation of an invoice, pure: the text rule (no lone surrogates), schema, unknown keys, code lists, formats, IRN ownership,
 * billing reference and arithmetic, every problem found in one pass. Nothing here reads the database,
 * so the benchmark measures exactly this function.
 */

/** `strict` (the default): the arithmetic rules fail; `lenient`: they come back as warnings. */
export type ValidationMode = 'strict' | 'lenient'

export interface ValidationOptions {
  version: ApiVersion
  mode: ValidationMode
  lists: CodeLists
  /** The caller's business's service id. */
  serviceId: string
}

export type ValidationResult =
  | { ok: true; invoice: StoredInvoice; warnings: Problem[] }
  | { ok: false; problems: Problem[]; warnings: Problem[] }

const keyTrees: Partial<Record<ApiVersion, KeyTree>> = {}

/**
 * Builds a version's schema and the key tree of it, once. invoiceHandler does it for its versions
 * when the function loads, so no request builds them; a function that validates only v1 builds no v2.
 */
export function prepareValidation(version: ApiVersion): KeyTree {
  keyTrees[version] ??= keyTreeOf(invoiceSchema(version))
  return keyTrees[version]
}

export function validateInvoice(input: unknown, options: ValidationOptions): ValidationResult {
  const tree = prepareValidation(options.version)
  const parsed = invoiceSchema(options.version).safeParse(input)
  const warnings = unknownKeys(input, tree)
  const rules = checkRules(input, { lists: options.lists, serviceId: options.serviceId })
  const lenient = options.mode === 'lenient'
  const problems = [
    ...loneSurrogates(input),
    ...(parsed.success ? [] : hintMisspellings(problemsFromIssues(parsed.error.issues, input), input, tree)),
    ...rules.errors,
    ...(lenient ? [] : rules.arithmetic),
  ]
  if (lenient) warnings.push(...rules.arithmetic)
  if (problems.length || !parsed.success) return { ok: false, problems, warnings }
  return { ok: true, invoice: parsed.data, warnings }
}
