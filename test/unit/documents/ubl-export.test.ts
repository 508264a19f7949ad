import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { TYPE_CODES } from '#lib/documents/type-codes.ts'
import { ublOf } from '#lib/documents/ubl.ts'
import { decimalText } from '#lib/documents/xml.ts'
import { buildInvoice, invoiceOfLines } from '../../fixtures/invoices/build.ts'
import { invoiceBody } from '../../support-invoices/invoices.ts'
import { readUbl } from '../../support/ubl-read.ts'
import { requireUblSchemas, UBL_SCHEMA_DIR, ublSchemaErrors } from '../../support/ubl-schemas.ts'

/**
 * The UBL 2.1 export (lib/documents/ubl.ts), as a pure function: every output is checked against the
 * OASIS UBL 2.1 schemas by libxml2's XSD validator (test/support/ubl-schemas.ts), and read back
 * (test/support/ubl-read.ts) into the same invoice, for every fixture and 1,000 generated invoices.
 */

const INVOICE_TYPES = JSON.parse(
  readFileSync(new URL('../../../data/reference/invoice-types.json', import.meta.url), 'utf8'),
) as { code: string; value: string }[]

type Json = Record<string, unknown>

/** What the XML holds of an invoice: all of it but the payment status (a lifecycle fact, not content). */
function heldByUbl(invoice: Json): Json {
  const { payment_status: _status, ...rest } = invoice
  return typeof rest.accounting_cost === 'number'
    ? { ...rest, accounting_cost: decimalText(rest.accounting_cost) }
    : rest
}

function expectValidRoundTrip(invoice: Json) {
  const xml = ublOf(invoice)
  expect(ublSchemaErrors(xml)).toEqual([])
  expect(readUbl(xml).invoice).toEqual(heldByUbl(invoice))
}

describe('the OASIS UBL 2.1 schemas', () => {
  it('are where the tests read them, and their absence fails with the path rather than skipping', () => {
    expect(() => requireUblSchemas()).not.toThrow()
    expect(UBL_SCHEMA_DIR.endsWith('/data/standards/ubl-2.1')).toBe(true)
    expect(() => requireUblSchemas('/nonexistent/ubl-2.1')).toThrow(
      /The OASIS UBL 2\.1 schema \/nonexistent\/ubl-2\.1\/maindoc\/UBL-Invoice-2\.1\.xsd is missing/,
    )
  })
})

describe('the invoice type code map', () => {
  it('covers every type of the invoice-types reference list, under the list name', () => {
    expect(Object.keys(TYPE_CODES).sort()).toEqual(INVOICE_TYPES.map((t) => t.code).sort())
    for (const { code, value } of INVOICE_TYPES) expect(TYPE_CODES[code]!.name).toBe(value)
  })

  it('maps the codes whose meanings differ explicitly: 381 -> 380, 380 -> 381 (CreditNote), 384 -> 383', () => {
    expect(TYPE_CODES['381']).toMatchObject({ document: 'Invoice', uncl: '380' })
    expect(TYPE_CODES['380']).toMatchObject({ document: 'CreditNote', uncl: '381' })
    expect(TYPE_CODES['393']).toMatchObject({ document: 'CreditNote', uncl: '261' })
    expect(TYPE_CODES['384']).toMatchObject({ document: 'Invoice', uncl: '383' })
  })

  it.each(INVOICE_TYPES.map((t) => [t.code, t.value]))(
    'exports type %s (%s) as a schema-valid document with its UNCL 1001 code and its own code kept',
    (code) => {
      const invoice = { ...buildInvoice(), invoice_type_code: code }
      const xml = ublOf(invoice)
      expect(ublSchemaErrors(xml)).toEqual([])
      const read = readUbl(xml)
      expect(read.root).toBe(TYPE_CODES[code]!.document)
      expect(read.typeCode).toBe(TYPE_CODES[code]!.uncl)
      expect(read.invoice).toEqual(heldByUbl(invoice))
    },
  )
})

describe('UBL 2.1 export of the fixtures', () => {
  const fixtures: [string, Json][] = [
    ['build.ts: every optional structure', buildInvoice()],
    ['build.ts: minimal (no customer, no optional structure)', buildInvoice({ minimal: true })],
    ['build.ts: 200 lines', invoiceOfLines(200)],
    ['support-invoices: the signed invoice of the lifecycle tests', invoiceBody('T1-94ND90NR-20261121')],
    ['support-invoices: without a buyer', invoiceBody('T2-94ND90NR-20261121', { buyer: null })],
  ]
  it.each(fixtures)('%s: valid against the schemas, and reads back to the same invoice', (_name, invoice) =>
    expectValidRoundTrip(invoice),
  )

  // The authority's own sample requests do not pass this service's schema (they are stored only once
  // corrected), but the export must still never write an invalid document from them.
  it.each([
    '01-validate-invoice-postman-396-local-sales-tax.json',
    '03-validate-invoice-swagger-party-id-ref.json',
    '04-sign-invoice-swagger-party-id-ref.json',
  ])('authority sample %s: valid against the schemas as it is', (file) => {
    const body = JSON.parse(
      readFileSync(new URL(`../../../data/authority-samples/${file}`, import.meta.url), 'utf8'),
    )
    expect(ublSchemaErrors(ublOf(body))).toEqual([])
  })

  it('escapes markup and keeps every character XML can carry; the ones it cannot become U+FFFD', () => {
    const invoice = { ...buildInvoice(), note: 'a < b && c > "d" \'e\'\r\n\t ọ ₦ 😀', buyer_reference: ']]>' }
    expectValidRoundTrip(invoice)
    const xml = ublOf({ ...invoice, note: 'bell\u0007 nul\u0000 \uFFFE' })
    expect(ublSchemaErrors(xml)).toEqual([])
    expect(readUbl(xml).invoice.note).toBe('bell\uFFFD nul\uFFFD \uFFFD')
  })

  it('writes amounts as xsd:decimal, never in exponent form', () => {
    const invoice = buildInvoice()
    invoice.legal_monetary_total.payable_amount = 1e-7
    invoice.legal_monetary_total.tax_inclusive_amount = 1e15
    const xml = ublOf(invoice)
    expect(xml).toContain('<cbc:PayableAmount currencyID="NGN">0.0000001</cbc:PayableAmount>')
    expect(xml).toContain(
      '<cbc:TaxInclusiveAmount currencyID="NGN">1000000000000000</cbc:TaxInclusiveAmount>',
    )
    expectValidRoundTrip(invoice)
  })
})

// ---- 1,000 generated invoices -------------------------------------------------------------------

/** Text with every XML-sensitive character, non-Latin letters, CR/LF/tab and astral characters. */
const text = fc.string({
  unit: fc.constantFrom(
    'a',
    'Z',
    '7',
    ' ',
    '<',
    '>',
    '&',
    '"',
    "'",
    ';',
    'é',
    'ọ',
    '₦',
    '\n',
    '\r',
    '\t',
    '😀',
    '\u00a0',
  ),
  minLength: 1,
  maxLength: 10,
})
const amount = fc.oneof(
  fc.constant(0),
  fc.constantFrom(1e-10, 1e-7, 0.1, 233.33, 1e15, -500),
  fc
    .double({ min: 1e-10, max: 1e15, noNaN: true })
    .chain((n) => fc.constantFrom(n, -n, Math.round(n * 100) / 100 || 0.01)),
)
const date = fc.constantFrom('2026-11-21', '2024-02-29', '1999-12-31', '2026-01-01')
const irn = fc.constantFrom('INV000042-94ND90NR-20261121', 'A1-B2-20250101', 'T9ZZ-94ND90NR-20261101')
const ref = fc.record({ irn, issue_date: date })

const party = fc.record(
  {
    id: text,
    postal_address_id: text,
    tin: fc.constantFrom('12345678-0001', '98765432-0002'),
    email: text,
    party_name: text,
    telephone: fc.constantFrom('+2348012345678', '08012345678', ''),
    business_description: text,
    postal_address: fc.record({
      street_name: text,
      city_name: text,
      postal_zone: fc.oneof(fc.constant(''), text),
      lga: text,
      state: text,
      country: fc.constantFrom('NG', 'GH'),
    }),
  },
  { requiredKeys: ['tin', 'email', 'party_name', 'postal_address'] },
)

const line = fc.record(
  {
    item: fc.record(
      { name: text, description: text, sellers_item_identification: text },
      { requiredKeys: ['name', 'description'] },
    ),
    price: fc.record({
      price_amount: amount,
      base_quantity: fc.integer({ min: 1, max: 1000 }),
      price_unit: text,
    }),
    hsn_code: text,
    product_category: text,
    isic_code: text,
    service_category: text,
    discount_rate: amount,
    discount_amount: amount,
    fee_rate: amount,
    fee_amount: amount,
    invoiced_quantity: fc.integer({ min: -1000, max: 2_000_000 }),
    line_extension_amount: amount,
  },
  {
    requiredKeys: [
      'discount_rate',
      'discount_amount',
      'fee_rate',
      'fee_amount',
      'invoiced_quantity',
      'line_extension_amount',
    ],
  },
)

const generatedInvoice = fc.record(
  {
    irn,
    business_id: text,
    issue_date: date,
    due_date: date,
    issue_time: fc.constantFrom('10:15:30', '00:00:00', '23:59:59.123456789'),
    invoice_type_code: fc.constantFrom(...INVOICE_TYPES.map((t) => t.code)),
    invoice_kind: fc.constantFrom('B2B', 'B2C', 'B2G'),
    payment_status: fc.constantFrom('PENDING', 'PAID', 'REJECTED'),
    note: text,
    tax_point_date: date,
    document_currency_code: fc.constantFrom('NGN', 'USD'),
    tax_currency_code: fc.constantFrom('NGN', 'USD'),
    accounting_cost: fc.oneof(text, amount),
    buyer_reference: text,
    invoice_delivery_period: fc.record({ start_date: date, end_date: date }),
    order_reference: text,
    billing_reference: fc.array(ref, { minLength: 1, maxLength: 3 }),
    dispatch_document_reference: ref,
    receipt_document_reference: ref,
    originator_document_reference: ref,
    contract_document_reference: ref,
    document_reference: fc.array(ref, { minLength: 1, maxLength: 2 }),
    additional_document_reference: fc.array(ref, { minLength: 1, maxLength: 2 }),
    accounting_supplier_party: party,
    accounting_customer_party: party,
    payee_party: party,
    bill_party: party,
    ship_party: party,
    tax_representative_party: party,
    actual_delivery_date: date,
    payment_means: fc.array(
      fc.record(
        { payment_means_code: fc.constantFrom('10', '30', '48'), payment_due_date: date },
        { requiredKeys: [] },
      ),
      { minLength: 1, maxLength: 2 },
    ),
    payment_terms_note: text,
    allowance_charge: fc.array(fc.record({ charge_indicator: fc.boolean(), amount }), {
      minLength: 1,
      maxLength: 3,
    }),
    tax_total: fc.array(
      fc.record({
        tax_amount: amount,
        tax_subtotal: fc.array(
          fc.record(
            {
              taxable_amount: amount,
              tax_amount: amount,
              tax_category: fc.record({
                id: fc.constantFrom('STANDARD_VAT', 'ZERO_GST', 'LUXURY_TAX'),
                percent: amount,
              }),
              tax_category_percent: amount,
            },
            { requiredKeys: ['taxable_amount', 'tax_amount', 'tax_category'] },
          ),
          { maxLength: 3 },
        ),
      }),
      { minLength: 1, maxLength: 2 },
    ),
    legal_monetary_total: fc.record({
      line_extension_amount: amount,
      tax_exclusive_amount: amount,
      tax_inclusive_amount: amount,
      payable_amount: amount,
    }),
    invoice_line: fc.array(line, { minLength: 1, maxLength: 6 }),
  },
  {
    requiredKeys: [
      'irn',
      'business_id',
      'issue_date',
      'invoice_type_code',
      'payment_status',
      'document_currency_code',
      'tax_currency_code',
      'accounting_supplier_party',
      'tax_total',
      'legal_monetary_total',
      'invoice_line',
    ],
  },
)

describe('UBL 2.1 export of 1,000 generated invoices', () => {
  it('is valid against the schemas and reads back to the same invoice, for every type and every optional part', () => {
    fc.assert(
      fc.property(generatedInvoice, (invoice) => expectValidRoundTrip(invoice as Json)),
      { numRuns: 1000 },
    )
  }, 60_000)
})
