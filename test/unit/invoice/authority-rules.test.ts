import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { withAuthorityDefaults } from '#lib/invoice/authority-rules.ts'
import { buildCodeLists } from '#lib/invoice/code-lists.ts'
import { RULE_CODES } from '#lib/invoice/rule-codes.ts'
import { type ValidationOptions, validateInvoice } from '#lib/invoice/validate.ts'
import { bundledLists } from '#lib/reference/manifest.ts'
import { buildInvoice } from '../../fixtures/invoices/build.ts'

/**
 * The authority's request rules (CONTRACT 17) as a validation option: the interface's rules are the
 * default (batch items, the seed paths), the authority's apply only when asked for, the request is
 * never written to, and a body of any shape is answered with documented codes, never a throw.
 */

const lists = buildCodeLists((name) => ({
  rows: JSON.parse(
    readFileSync(new URL(`../../../data/reference/${bundledLists[name].file}`, import.meta.url), 'utf8'),
  ),
  complete: bundledLists[name].complete,
}))
const options = (extra: Partial<ValidationOptions> = {}): ValidationOptions => ({
  version: 'v1',
  mode: undefined,
  lists,
  serviceId: '94ND90NR',
  ...extra,
})

/** The invoice with what the interface requires and the authority's documentation does not, left out. */
function authorityStyle() {
  const invoice = buildInvoice()
  delete invoice.payment_status
  delete invoice.tax_currency_code
  delete invoice.invoice_line[0].discount_rate
  delete invoice.accounting_supplier_party.postal_address.lga
  invoice.invoice_type_code = 396
  invoice.invoice_line[1].hsn_code = 'CC-001'
  return invoice
}

describe('validateInvoice: the rule set', () => {
  it("applies the interface's rules unless the authority's are asked for", () => {
    const result = validateInvoice(authorityStyle(), options())
    expect(result.ok).toBe(false)
    expect(result.ok ? [] : result.problems.map((p) => p.path)).toEqual([
      'invoice_type_code',
      'payment_status',
      'tax_currency_code',
      'accounting_supplier_party/postal_address/lga',
      'invoice_line/0/discount_rate',
      'invoice_line/1/hsn_code',
    ])
  })

  it("accepts it under the authority's rules, stores the defaults and names each", () => {
    const input = authorityStyle()
    const before = structuredClone(input)
    const result = validateInvoice(input, options({ rules: 'authority' }))
    expect(input).toEqual(before)
    if (!result.ok) throw new Error(JSON.stringify(result.problems))
    expect(result.invoice).toMatchObject({
      payment_status: 'PENDING',
      tax_currency_code: 'NGN',
      invoice_type_code: '396',
    })
    expect(result.invoice.invoice_line[0]!.discount_rate).toBe(0)
    expect(result.invoice.accounting_supplier_party.postal_address).not.toHaveProperty('lga')
    expect(result.warnings.map((w) => [w.path, w.code])).toEqual([
      ['payment_status', 'NG-AU-01'],
      ['tax_currency_code', 'NG-AU-02'],
      ['invoice_type_code', 'NG-AU-04'],
      ['invoice_line/0', 'NG-AU-03'],
      ['accounting_supplier_party/postal_address', 'NG-AU-05'],
      ['invoice_line/1/hsn_code', 'NG-AU-06'],
    ])
  })

  it('is lenient by default on the authority rule set only, and a chosen mode stands', () => {
    const late = () => ({ ...buildInvoice(), due_date: '2000-01-01' })
    const codes = (r: ReturnType<typeof validateInvoice>) =>
      (r.ok ? r.warnings : r.problems).map((p) => p.code)
    expect(codes(validateInvoice(late(), options()))).toEqual(['NG-DT-02'])
    expect(validateInvoice(late(), options()).ok).toBe(false)
    const authority = validateInvoice(late(), options({ rules: 'authority' }))
    expect(authority.ok).toBe(true)
    expect(codes(authority)).toEqual(['NG-DT-02', 'NG-AU-07'])
    const strict = validateInvoice(late(), options({ rules: 'authority', mode: 'strict' }))
    expect(strict.ok).toBe(false)
    const lenient = validateInvoice(late(), options({ rules: 'authority', mode: 'lenient' }))
    expect(codes(lenient)).toEqual(['NG-DT-02'])
  })
})

describe('withAuthorityDefaults', () => {
  it.each<[string, unknown]>([
    ['null', null],
    ['an array', [1, 2]],
    ['a string', 'invoice'],
    ['lines and means that are not objects', { invoice_line: [null, 3, 'x', []], payment_means: [7] }],
    [
      'parties that are not objects',
      { accounting_supplier_party: 'x', accounting_customer_party: { postal_address: 5 } },
    ],
    [
      'nulls where values go',
      { payment_status: null, tax_currency_code: null, invoice_line: [{ fee_rate: null }] },
    ],
  ])('takes %s without throwing, and validation answers with documented codes', (_, input) => {
    expect(() => withAuthorityDefaults(input)).not.toThrow()
    const result = validateInvoice(input, options({ rules: 'authority' }))
    const found = [...(result.ok ? [] : result.problems), ...result.warnings]
    for (const p of found) expect(Object.keys(RULE_CODES)).toContain(p.code)
  })
})
