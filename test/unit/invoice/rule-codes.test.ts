import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { ERROR_CODES } from '#lib/invoice/rule-codes.ts'

const doc = readFileSync(new URL('../../../docs/invoices.md', import.meta.url), 'utf8')
const section = doc.slice(doc.indexOf('## Invoice rule codes'), doc.indexOf('## Invoice services'))

/** The table's rows: code -> [meaning, path example, strict, lenient]. */
const rows = new Map(
  [...section.matchAll(/^\| `([A-Za-z][\w-]*)` \| (.+) \| `(.+)` \| (\S+) \| (\S+) \|$/gm)].map((m) => [
    m[1]!,
    m.slice(2),
  ]),
)

describe('docs/invoices.md, section "Invoice rule codes"', () => {
  it('documents exactly the codes of lib/invoice/rule-codes.ts', () => {
    expect([...rows.keys()].sort()).toEqual(Object.keys(ERROR_CODES).sort())
  })

  it.each(Object.entries(ERROR_CODES))(
    'gives %s its example path and its strict and lenient behaviour',
    (code, rule) => {
      const [, example, strict, lenient] = rows.get(code)!
      expect(example).toBe(rule.example)
      expect(strict).toBe(rule.warningOnly ? 'warning' : String(rule.status ?? 400))
      expect(lenient).toBe(rule.warningOnly || rule.lenient ? 'warning' : strict)
    },
  )

  it('shows a rejected invoice reply', () => {
    expect(section).toContain('"status": "400 BAD_REQUEST"')
  })
})
