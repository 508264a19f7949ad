import type { Problem } from '#lib/platform/errors.ts'
import { MAX_LISTED, type Truncated } from '#lib/platform/reply-bounds.ts'
import { overlongText } from '#lib/platform/text/length-bound.ts'
import { loneSurrogates } from '#lib/platform/text/well-formed.ts'
import { withAuthorityDefaults } from './authority-rules.ts'
import type { CodeLists } from './code-lists.ts'
import {
  hintMisspellings,
  type KeyTree,
  keyTreeOf,
  problem,
  problemsFromIssues,
  unknownKeys,
} from './problems.ts'
import { boundedParse } from './bounded-parse.ts'
import { checkRules } from './rules.ts'
import { type ApiVersion, invoiceSchema, type RuleSet, type StoredInvoice } from './schemas.ts'

/**
 * The whole validation of an invoice, pure: the text rules (no lone surrogates, no string over 4,096 characters), schema, unknown keys, code lists, formats, IRN ownership,
 * billing reference and arithmetic, every problem found in one pass. Nothing here reads the database,
 * so the benchmark measures exactly this function.
 */

/** `strict` (the default): the arithmetic rules fail; `lenient`: they come back as warnings. */
export type ValidationMode = 'strict' | 'lenient'

export interface ValidationOptions {
  version: ApiVersion
  /** Unset: the rule set's default, strict for the interface's rules and lenient for the authority's. */
  mode: ValidationMode | undefined
  lists: CodeLists
  /** The caller's business's service id. */
  serviceId: string
  /** The interface's rules (default) or the authority's, chosen at the edge from the route's profile. */
  rules?: RuleSet
}

/**
 * `notListed`: problems found past the reply's bound and not kept (lib/platform/reply-bounds.ts).
 * Once more than 100 errors are found the validation stops looking, so `problems` then holds a few
 * more than 100 and the rest were never counted.
 */
export type ValidationResult =
  | { ok: true; invoice: StoredInvoice; warnings: Problem[]; notListed: Partial<Truncated> }
  | { ok: false; problems: Problem[]; warnings: Problem[]; notListed: Partial<Truncated> }

const keyTrees: Partial<Record<ApiVersion, KeyTree>> = {}

/**
 * Builds a version's schema (and the authority's, for `rules` 'authority') and the key tree of it,
 * once. invoiceHandler does it for its versions and rule sets when the function loads, so no request
 * builds them; a function that validates only v1 builds no v2. Both rule sets know the same keys.
 */
export function prepareValidation(version: ApiVersion, rules?: RuleSet): KeyTree {
  if (rules) invoiceSchema(version, rules)
  keyTrees[version] ??= keyTreeOf(invoiceSchema(version))
  return keyTrees[version]
}

export function validateInvoice(raw: unknown, options: ValidationOptions): ValidationResult {
  const { rules: ruleSet = 'interface' } = options
  const authority = ruleSet === 'authority'
  const tree = prepareValidation(options.version)
  // The authority's defaults, each named in warnings (CONTRACT 17); the interface's rules take the body as sent.
  const { body: input, applied } = authority ? withAuthorityDefaults(raw) : { body: raw, applied: [] }
  // Past the reply's bound nothing more is looked for (CONTRACT 18): one over it says "and more".
  const text = [...loneSurrogates(input), ...overlongText(input)]
  const parsed = boundedParse(invoiceSchema(options.version, ruleSet), input, MAX_LISTED + 1 - text.length)
  const ignored = unknownKeys(input, tree, MAX_LISTED)
  const warnings = [...applied, ...ignored.found]
  const notListed = { warnings: ignored.more }
  const schemaProblems = hintMisspellings(problemsFromIssues(parsed.issues, input), input, tree)
  if (parsed.stopped || text.length > MAX_LISTED) {
    return { ok: false, problems: [...text, ...schemaProblems], warnings, notListed }
  }
  const rules = checkRules(input, { lists: options.lists, serviceId: options.serviceId, rules: ruleSet })
  const lenient = (options.mode ?? (authority ? 'lenient' : 'strict')) === 'lenient'
  const problems = [...text, ...schemaProblems, ...rules.errors, ...(lenient ? [] : rules.arithmetic)]
  warnings.push(...rules.warnings)
  if (lenient) warnings.push(...rules.arithmetic)
  if (lenient && !options.mode && rules.arithmetic.length) {
    warnings.push(
      problem(
        'x-validation-mode',
        'NG-AU-07',
        "Arithmetic findings are warnings: lenient is this path's default",
      ),
    )
  }
  if (problems.length || parsed.data === undefined) return { ok: false, problems, warnings, notListed }
  return { ok: true, invoice: parsed.data, warnings, notListed }
}
