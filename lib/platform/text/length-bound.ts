/**
 * The length bound on every string a client sends (CONTRACT 18, docs/hostile-input.md): a value of
 * more than 4,096 characters is refused with its path, `NG-SC-04`, before anything is stored. Keys
 * are not bounded: no request schema keeps a key it does not name (unknown keys are reported and
 * dropped), and a reply names a long one by its first characters (lib/platform/reply-bounds.ts).
 * Every field of every record is then bounded (4,096 UTF-16 units are at most 12 KB of UTF-8), so
 * no request can make an item approach DynamoDB's 400 KB (a 420 KB buyer name made the invoice's
 * search item too large, a 500 after the invoice itself was written). Fields with a tighter rule
 * say so in their schema (a webhook URL: 2,048). Applied with the text rule (./well-formed.ts) to
 * every declared body, query and path, and inside the invoice's validation.
 */

export const MAX_TEXT_CHARS = 4096

/** The range code of the invoice rule codes (docs/invoices.md, "Invoice rule codes"). */
const RANGE_CODE = 'NG-SC-04'

export interface LengthProblem {
  path: string
  code: typeof RANGE_CODE
  message: string
}

const join = (base: string, segment: string) => (base ? `${base}/${segment}` : segment)

/**
 * Values JSON.parse made from text in which no run between two unescaped quotes is longer than the
 * bound: a string decodes to at most its text's length, so none of theirs can be over it
 * and the walk below is skipped. Finding the quotes is a native search; a 1,000-line invoice costs a
 * few hundredths of a millisecond.
 */
const shortParses = new WeakSet<object>()

/** The longest run of characters between two unescaped quotes of a JSON text. */
function longestQuotedRun(text: string): number {
  let longest = 0
  let start = -1
  for (let i = text.indexOf('"'); i !== -1; i = text.indexOf('"', i + 1)) {
    let backslashes = 0
    while (text.charCodeAt(i - 1 - backslashes) === 92) backslashes++
    if (backslashes % 2 === 1) continue
    if (start !== -1) longest = Math.max(longest, i - start - 1)
    start = i
  }
  return longest
}

/** Records that `value` is JSON.parse(text)'s result, when the text makes the walk needless. */
export function noteShortParse(text: string, value: unknown): void {
  if (typeof value !== 'object' || value === null) return
  if (text.length <= MAX_TEXT_CHARS || longestQuotedRun(text) <= MAX_TEXT_CHARS) shortParses.add(value)
}

const problemAt = (path: string, length: number): LengthProblem => ({
  path,
  code: RANGE_CODE,
  message: `must be at most ${MAX_TEXT_CHARS} characters long (received ${length})`,
})

/**
 * Every string value in a parsed value longer than the bound, with its path; but for strings at a
 * path `documents` matches (the request declaration's `documentPaths`).
 * Iterative, as the text rule's walk: a body nested deeper than the call stack must be a 400.
 */
export function overlongText(value: unknown, prefix = '', documents?: RegExp): LengthProblem[] {
  if (typeof value === 'object' && value !== null && shortParses.has(value)) return []
  const found: LengthProblem[] = []
  const stack: [unknown, string][] = [[value, prefix]]
  while (stack.length) {
    const [v, path] = stack.pop()!
    if (typeof v === 'string') {
      // A whole document sent as a string (a batch's UBL item) is bounded by the body limit instead.
      if (v.length > MAX_TEXT_CHARS && !documents?.test(path)) found.push(problemAt(path, v.length))
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], join(path, String(i))])
    } else if (typeof v === 'object' && v !== null) {
      const entries = Object.entries(v)
      for (let i = entries.length - 1; i >= 0; i--) stack.push([entries[i]![1], join(path, entries[i]![0])])
    }
  }
  return found
}
