/**
 * The text rule shared by every string a client sends (CONTRACT section 9): any Unicode text is
 * welcome, but a lone UTF-16 surrogate (`"\ud800"`, which JSON's escapes can express and UTF-8
 * cannot) is refused with the field's path. Such a string cannot be signed canonically (RFC 8785
 * refuses it), stored faithfully (DynamoDB stores UTF-8, so it would silently become U+FFFD) or
 * hashed the same way twice; refusing it at the edge is the only honest answer.
 */

/** The code of the problem, one of the invoice format codes (docs/invoices.md, "Invoice rule codes"). */
export const LONE_SURROGATE_CODE = 'NG-FM-04'

export interface TextProblem {
  path: string
  code: typeof LONE_SURROGATE_CODE
  message: string
}

const problemAt = (path: string, what: 'value' | 'key'): TextProblem => ({
  path,
  code: LONE_SURROGATE_CODE,
  message:
    what === 'value'
      ? 'must be well-formed Unicode text: it contains a lone surrogate (an unpaired \\uD800-\\uDFFF escape)'
      : 'this key contains a lone surrogate (an unpaired \\uD800-\\uDFFF escape): keys must be well-formed Unicode text',
})

const join = (base: string, segment: string) => (base ? `${base}/${segment}` : segment)

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/**
 * String.prototype.isWellFormed (Node 20+, native and about 50x faster than the pattern on a large
 * body), which the project's ES2023 lib does not declare; the pattern where it is missing.
 */
const native = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed
export const isWellFormed = (text: string): boolean => (native ? native.call(text) : !text.match(LONE))

/** The text with each lone surrogate replaced by U+FFFD, so it can be shown in a path. */
const printable = (text: string) => text.replace(LONE, '\uFFFD')

/**
 * Values JSON.parse made from text that is well-formed and holds no `\u` escape (noteCleanParse).
 * Every string and key JSON.parse makes is a run of the text's own characters between quotes, with
 * escapes decoded; the quotes and every escape but `\u` are ASCII, so no run can split a surrogate
 * pair and no decoded escape can make a surrogate. So none of these values' strings or keys can hold
 * a lone surrogate, and loneSurrogates need not walk them: the walk of a 1,000-line invoice cost
 * about a sixth of its validation, where checking the text costs a few hundredths of a millisecond.
 */
const cleanParses = new WeakSet<object>()

/** Records that `value` is JSON.parse(text)'s result, when the text makes that walk needless. */
export function noteCleanParse(text: string, value: unknown): void {
  if (typeof value === 'object' && value !== null && !text.includes('\\u') && isWellFormed(text)) {
    cleanParses.add(value)
  }
}

/**
 * Every string value or object key in a parsed JSON value that is not well-formed UTF-16, with its
 * JSON-pointer-like path (`invoice_line/3/item/name`). Iterative, not recursive: JSON.parse accepts
 * nesting far deeper than the call stack, and a deep body must be a 400, never a stack overflow.
 */
export function loneSurrogates(value: unknown, prefix = ''): TextProblem[] {
  // Nearly every body is clean: its text says so (noteCleanParse), else a walk that builds no paths
  // does, and only a body with a lone surrogate pays for the walk below, which names each one.
  if (typeof value === 'object' && value !== null && cleanParses.has(value)) return []
  if (allWellFormed(value)) return []
  const found: TextProblem[] = []
  const stack: [unknown, string][] = [[value, prefix]]
  while (stack.length) {
    const [v, path] = stack.pop()!
    if (typeof v === 'string') {
      if (!isWellFormed(v)) found.push(problemAt(path, 'value'))
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], join(path, String(i))])
    } else if (typeof v === 'object' && v !== null) {
      const entries = Object.entries(v)
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!
        // The key's own path is shown with the key replaced, so the path itself stays printable.
        const shown = join(path, printable(key))
        if (shown !== join(path, key)) found.push(problemAt(shown, 'key'))
        stack.push([child, shown])
      }
    }
  }
  return found
}

/** True when every string value and object key in `value` is well-formed (iterative, as above). */
function allWellFormed(value: unknown): boolean {
  const stack: unknown[] = [value]
  while (stack.length) {
    const v = stack.pop()
    if (typeof v === 'string') {
      if (!isWellFormed(v)) return false
    } else if (Array.isArray(v)) {
      for (const item of v) stack.push(item)
    } else if (typeof v === 'object' && v !== null) {
      for (const key in v) {
        if (!Object.hasOwn(v, key)) continue
        if (!isWellFormed(key)) return false
        stack.push((v as Record<string, unknown>)[key])
      }
    }
  }
  return true
}
