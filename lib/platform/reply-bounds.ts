import type { Problem } from './errors.ts'

/**
 * The bounds of a reply's problem lists (CONTRACT 18, docs/hostile-input.md): at most 100 errors and
 * 100 warnings, each with a path and message of bounded length, then `truncated` with the counts
 * left out. A body can hold tens of thousands of mistakes (20,000 empty invoice lines, 50,000
 * unknown keys); the reply to it stays a few hundred kilobytes at most, under the 1 MiB reply bound
 * and DynamoDB's 400 KB item, so the idempotency record of any reply that lists them can be kept.
 */
export const MAX_LISTED = 100
/** A path or message longer than these is cut: a 500 KB unknown key is named by its first characters. */
export const MAX_PATH_CHARS = 256
export const MAX_MESSAGE_CHARS = 512

/** How many errors and warnings were found but not listed. */
export interface Truncated {
  errors: number
  warnings: number
}

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 3)}...` : text)

/** One problem within the length bounds. */
export const boundedProblem = (p: Problem): Problem =>
  p.path.length <= MAX_PATH_CHARS && p.message.length <= MAX_MESSAGE_CHARS
    ? p
    : { path: cut(p.path, MAX_PATH_CHARS), code: p.code, message: cut(p.message, MAX_MESSAGE_CHARS) }

/**
 * The first 100 of each list, bounded, and `truncated` when any were left out. `notListed` counts
 * problems the producer found but did not even keep (the unknown-key walk counts past its bound).
 */
export function listedProblems(
  errors: readonly Problem[],
  warnings: readonly Problem[],
  notListed: Partial<Truncated> = {},
): { errors: Problem[]; warnings: Problem[]; truncated?: Truncated } {
  const truncated = {
    errors: Math.max(0, errors.length - MAX_LISTED) + (notListed.errors ?? 0),
    warnings: Math.max(0, warnings.length - MAX_LISTED) + (notListed.warnings ?? 0),
  }
  return {
    errors: errors.slice(0, MAX_LISTED).map(boundedProblem),
    warnings: warnings.slice(0, MAX_LISTED).map(boundedProblem),
    ...(truncated.errors || truncated.warnings ? { truncated } : {}),
  }
}

/**
 * A list of findings other than problems (an invoice's EN 16931 findings, lib/invoice/service.ts):
 * the first 100. Their paths and messages need no cut: the service writes them (the rules' official
 * texts, at most about 510 characters, and the XPaths of its own export), none is the caller's text.
 */
export const listedFindings = <F>(findings: readonly F[]): F[] => findings.slice(0, MAX_LISTED)
