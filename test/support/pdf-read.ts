/**
 * Reading a PDF the way a reader does, for tests: the operators of a content stream, with their
 * operands decoded (PDF 1.4 section 3.2 and 3.7), and the cross-reference table checked against the
 * bytes it points into (section 3.4). Written from the specification, apart from the code that
 * writes PDFs, so a test that reads the output with it does not just repeat the writer's mistakes.
 */

export type Operand = number | string | { name: string } | Operand[]
export interface Operation {
  operator: string
  operands: Operand[]
}

const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20])
const DELIMITERS = new Set([...'()<>[]{}/%'].map((c) => c.charCodeAt(0)))
const ESCAPES: Record<string, number> = { n: 0x0a, r: 0x0d, t: 0x09, b: 0x08, f: 0x0c }

/** The operations of a (decompressed) content stream, in order; strings are decoded to latin1 text. */
export function contentOperations(content: Buffer): Operation[] {
  const operations: Operation[] = []
  const stack: Operand[][] = [[]]
  let i = 0
  const regular = () => {
    const start = i
    while (i < content.length && !WHITESPACE.has(content[i]!) && !DELIMITERS.has(content[i]!)) i++
    return content.toString('latin1', start, i)
  }
  while (i < content.length) {
    const c = content[i]!
    const operands = stack.at(-1)!
    if (WHITESPACE.has(c)) i++
    else if (c === 0x25) while (i < content.length && content[i] !== 0x0a && content[i] !== 0x0d) i++
    else if (c === 0x28) {
      // A literal string: balanced parentheses stand for themselves; a backslash escapes.
      const bytes: number[] = []
      let depth = 1
      i++
      while (true) {
        if (i >= content.length) throw new Error('unterminated string')
        const b = content[i++]!
        if (b === 0x5c) {
          const next = content[i++]!
          const octal = /^[0-7]{1,3}/.exec(content.toString('latin1', i - 1, i + 2))?.[0]
          if (octal) {
            bytes.push(Number.parseInt(octal, 8) & 0xff)
            i += octal.length - 1
          } else if (next === 0x0d || next === 0x0a) {
            if (next === 0x0d && content[i] === 0x0a) i++ // a line continuation
          } else bytes.push(ESCAPES[String.fromCharCode(next)] ?? next)
        } else if (b === 0x28) {
          depth++
          bytes.push(b)
        } else if (b === 0x29) {
          if (--depth === 0) break
          bytes.push(b)
        } else bytes.push(b)
      }
      operands.push(Buffer.from(bytes).toString('latin1'))
    } else if (c === 0x3c && content[i + 1] !== 0x3c) {
      const end = content.indexOf('>', i)
      const hex = content.toString('latin1', i + 1, end).replace(/\s/g, '')
      operands.push(Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex').toString('latin1'))
      i = end + 1
    } else if (c === 0x2f) {
      i++
      operands.push({ name: regular() })
    } else if (c === 0x5b) {
      i++
      stack.push([])
    } else if (c === 0x5d) {
      i++
      const array = stack.pop()!
      stack.at(-1)!.push(array)
    } else if (DELIMITERS.has(c)) throw new Error(`unexpected ${String.fromCharCode(c)} at ${i}`)
    else {
      const token = regular()
      if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(token)) operands.push(Number(token))
      else {
        if (stack.length !== 1) throw new Error(`operator ${token} inside an array`)
        operations.push({ operator: token, operands: operands.splice(0) })
      }
    }
  }
  if (stack.length !== 1 || stack[0]!.length) throw new Error('operands left without an operator')
  return operations
}

/** Every string a content stream shows with Tj, in order. */
export const shownStrings = (content: Buffer): string[] =>
  contentOperations(content)
    .filter((op) => op.operator === 'Tj')
    .map((op) => op.operands[0] as string)

/**
 * What is wrong with the file's one cross-reference table: it must be where `startxref` says, list
 * objects 0 to Size - 1, and every object in use must begin at its offset (`n 0 obj`). Empty when right.
 */
export function xrefProblems(pdf: Uint8Array): string[] {
  const text = Buffer.from(pdf).toString('latin1')
  const tail = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)
  if (!tail) return ['no startxref and %%EOF at the end']
  const at = Number(tail[1])
  if (!text.startsWith('xref', at)) return [`startxref ${at} does not point at "xref"`]
  const head = /^xref\r?\n(\d+) (\d+)\r?\n/.exec(text.slice(at))
  if (!head) return ['no subsection header after "xref"']
  const [first, count] = [Number(head[1]), Number(head[2])]
  const problems: string[] = []
  if (first !== 0) problems.push(`the table starts at object ${first}, not 0`)
  const entries = at + head[0].length
  for (let n = 0; n < count; n++) {
    // Each entry is 20 bytes: 10-digit offset, space, 5-digit generation, space, n or f, 2-byte end.
    const entry = text.slice(entries + 20 * n, entries + 20 * (n + 1))
    const m = /^(\d{10}) (\d{5}) ([nf])( \n| \r|\r\n)$/.exec(entry)
    if (!m) {
      problems.push(`entry ${n} is not 20 bytes of the entry format: ${JSON.stringify(entry)}`)
      continue
    }
    if (m[3] === 'n' && !text.startsWith(`${first + n} ${Number(m[2])} obj`, Number(m[1]))) {
      problems.push(`object ${first + n} is not at offset ${Number(m[1])}`)
    }
  }
  if (!text.startsWith('trailer', entries + 20 * count)) problems.push('no trailer after the table')
  const size = /trailer\s*<<[\s\S]*?\/Size (\d+)/.exec(text.slice(entries + 20 * count))?.[1]
  if (Number(size) !== count) problems.push(`trailer /Size ${size} but ${count} entries`)
  const objects = [...text.matchAll(/(?:^|[\r\n])(\d+) 0 obj\b/g)].length
  if (objects !== count - 1) problems.push(`${objects} objects in the file, ${count - 1} in the table`)
  return problems
}
