import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { TYPE_CODES } from '#lib/documents/type-codes.ts'
import { ublOf } from '#lib/documents/ubl.ts'
import { invoiceFromUbl } from '#lib/documents/ubl-in.ts'
import { type UblSchemaModel, ublSchemaProblems } from '#lib/documents/ubl-schema.ts'
import { readXml } from '#lib/documents/xml-reader.ts'
import { decimalText } from '#lib/documents/xml.ts'
import { buildModel, MODEL_FILE } from '../../../scripts/ubl-schema-model.ts'
import { buildInvoice, invoiceOfLines } from '../../fixtures/invoices/build.ts'
import { ublSchemaErrors } from '../../support/ubl-schemas.ts'

/**
 * UBL in's schema check (lib/documents/ubl-schema.ts, from the model scripts/ubl-schema-model.ts
 * generates) against libxml2's XSD validator on the OASIS schemas (test/support/ubl-schemas.ts), the
 * oracle: the same verdict on valid documents and on every mutation below; and the mapping
 * (lib/documents/ubl-map.ts) as the inverse of the export.
 */

const model = JSON.parse(readFileSync(MODEL_FILE, 'utf8')) as UblSchemaModel
const ours = (xml: string) => ublSchemaProblems(readXml(xml), model)
const verdicts = (xml: string) => ({
  libxml2: ublSchemaErrors(xml).length === 0,
  ours: ours(xml).length === 0,
})

describe('the committed UBL schema model', () => {
  it('is exactly what the XSDs in data/standards/ubl-2.1 give (npx tsx scripts/ubl-schema-model.ts)', () => {
    expect(model).toEqual(buildModel())
  })
})

const BASE = ublOf(buildInvoice())

/** Each element of a document removed in turn, and each repeated in place: the structural mutations. */
function structuralMutations(xml: string): string[] {
  const elements = [...xml.matchAll(/<(c[ab]c:\w+)[^>]*?(?:\/>|>[^<]*<\/\1>|>)/g)]
  const out: string[] = []
  for (const match of elements) {
    const [whole, name] = match
    if (!whole.endsWith(`</${name}>`) && !whole.endsWith('/>')) {
      // An aggregate: cut it whole, from its start tag to its end tag.
      const end = xml.indexOf(`</${name}>`, match.index)
      out.push(xml.slice(0, match.index) + xml.slice(end + name!.length + 3))
      continue
    }
    out.push(xml.slice(0, match.index) + xml.slice(match.index + whole.length))
    out.push(xml.slice(0, match.index) + whole + whole + xml.slice(match.index + whole.length))
  }
  return out
}

const VALUE_MUTATIONS: [string, (xml: string) => string][] = [
  ['an impossible date', (x) => x.replace(/<cbc:IssueDate>[^<]*</, '<cbc:IssueDate>2026-02-30<')],
  ['a date in another form', (x) => x.replace(/<cbc:IssueDate>[^<]*</, '<cbc:IssueDate>21/11/2026<')],
  ['a time past 23:59:59', (x) => x.replace(/<cbc:IssueTime>[^<]*</, '<cbc:IssueTime>25:00:00<')],
  ['an amount with an exponent', (x) => x.replace(/(<cbc:PayableAmount[^>]*>)[^<]*</, '$11e3<')],
  ['an amount that is text', (x) => x.replace(/(<cbc:PayableAmount[^>]*>)[^<]*</, '$1ten<')],
  [
    'an amount without currencyID',
    (x) => x.replace(/<cbc:PayableAmount currencyID="[A-Z]+"/, '<cbc:PayableAmount'),
  ],
  ['an undeclared attribute', (x) => x.replace('<cbc:IssueDate>', '<cbc:IssueDate colour="red">')],
  [
    'an indicator that is not boolean',
    (x) => x.replace(/<cbc:ChargeIndicator>[^<]*</, '<cbc:ChargeIndicator>yes<'),
  ],
  [
    'text in an aggregate',
    (x) => x.replace('<cac:AccountingSupplierParty>', '<cac:AccountingSupplierParty>hello'),
  ],
  ['an element inside a value', (x) => x.replace(/<cbc:Note>/, '<cbc:Note><cbc:ID>1</cbc:ID>')],
  [
    'an element UBL does not have',
    (x) => x.replace('<cbc:IssueDate>', '<cbc:Colour>red</cbc:Colour><cbc:IssueDate>'),
  ],
  [
    'two elements swapped',
    (x) => x.replace(/(<cbc:ID>[^<]*<\/cbc:ID>)(<cbc:IssueDate>[^<]*<\/cbc:IssueDate>)/, '$2$1'),
  ],
  ['a root in no namespace', (x) => x.replace(/xmlns="[^"]*"/, '')],
  [
    'a decimal with spaces around it (valid: whitespace collapses)',
    (x) => x.replace(/(<cbc:PayableAmount[^>]*>)([^<]*)</, '$1 $2 <'),
  ],
  ['a date with a time zone (valid)', (x) => x.replace(/<cbc:IssueDate>([^<]*)</, '<cbc:IssueDate>$1Z<')],
]

describe('the schema check agrees with libxml2 on the OASIS UBL 2.1 XSDs', () => {
  it.each([
    ['every optional structure', BASE],
    ['minimal', ublOf(buildInvoice({ minimal: true }))],
    ['a credit note', ublOf({ ...buildInvoice(), invoice_type_code: '380' })],
    ['50 lines', ublOf(invoiceOfLines(50))],
  ])('valid: %s', (_, xml) => {
    expect(verdicts(xml)).toEqual({ libxml2: true, ours: true })
  })

  it.each(VALUE_MUTATIONS)('on %s', (_, mutate) => {
    const xml = mutate(BASE)
    expect(xml).not.toBe(BASE)
    const { libxml2, ours } = verdicts(xml)
    expect(ours).toBe(libxml2)
  })

  it('on each element removed, and each value repeated, of an invoice and a credit note', () => {
    const disagreements: string[] = []
    let invalid = 0
    const documents = [BASE, ublOf({ ...buildInvoice(), invoice_type_code: '380' })]
    for (const xml of documents.flatMap(structuralMutations)) {
      const { libxml2, ours } = verdicts(xml)
      if (!libxml2) invalid++
      if (libxml2 !== ours)
        disagreements.push(
          `libxml2 ${libxml2}, ours ${ours}: ${ours ? '' : JSON.stringify(ublSchemaProblems(readXml(xml), model)[0])}`,
        )
    }
    expect(disagreements).toEqual([])
    // The mutations do break the schema, most of them (repeats of a 0..n element are valid).
    expect(invalid).toBeGreaterThan(100)
  })

  it('names the XPath of the element at fault', () => {
    expect(ours(VALUE_MUTATIONS[0]![1](BASE))).toEqual([
      { path: '/Invoice/cbc:IssueDate', message: expect.stringMatching(/2026-02-30/) },
    ])
    expect(ours(BASE.replace(/<cbc:IssueDate>[^<]*<\/cbc:IssueDate>/, ''))).toEqual([
      { path: '/Invoice/cbc:IssueDate', message: 'cbc:IssueDate is required in Invoice and is missing' },
    ])
  })
})

type Json = Record<string, unknown>
/** What the XML holds of an invoice: all but the payment status, which is read back as PENDING. */
const held = (invoice: Json): Json => ({
  ...invoice,
  payment_status: 'PENDING',
  ...(typeof invoice.accounting_cost === 'number'
    ? { accounting_cost: decimalText(invoice.accounting_cost) }
    : {}),
})

describe('the mapping, the inverse of the export', () => {
  it.each(Object.keys(TYPE_CODES))('reads back invoice type %s as the same invoice', (code) => {
    const invoice = { ...buildInvoice(), invoice_type_code: code }
    const read = invoiceFromUbl(ublOf(invoice))
    expect(read.ok && read.invoice).toEqual(held(invoice))
  })

  it('reads EN 16931 codes as the authority codes: UNCL 1001 alone, VAT category S, Z and AA', () => {
    const invoice = buildInvoice()
    const xml = ublOf(invoice)
      .replace(/<cbc:InvoiceTypeCode [^>]*>/, '<cbc:InvoiceTypeCode>')
      .replaceAll('<cbc:ID>STANDARD_VAT</cbc:ID>', '<cbc:ID>S</cbc:ID>')
    const read = invoiceFromUbl(xml)
    expect(read.ok && read.invoice).toEqual(held(invoice))
    const zero = invoiceFromUbl(
      ublOf(invoice).replaceAll('<cbc:ID>STANDARD_VAT</cbc:ID>', '<cbc:ID>Z</cbc:ID>'),
    )
    expect(JSON.stringify(zero.ok && zero.invoice)).toContain('"ZERO_VAT"')
  })

  it('refuses a name attribute that is not the UNCL code it stands for', () => {
    const xml = BASE.replace(/<cbc:InvoiceTypeCode [^>]*>380</, '<cbc:InvoiceTypeCode name="381">383<')
    const read = invoiceFromUbl(xml)
    expect(read.ok).toBe(false)
    expect(!read.ok && read.problems).toEqual([
      {
        path: '/Invoice/cbc:InvoiceTypeCode',
        code: 'NG-XML-03',
        message: expect.stringMatching(/381.*380, not 383/),
      },
    ])
  })
})
