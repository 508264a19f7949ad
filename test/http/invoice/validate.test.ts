import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { invoiceOf } from '#lib/invoice/canonical.ts'
import { readInvoiceRecord } from '#lib/invoice/repository.ts'
import { writeList } from '#lib/reference/store.ts'
import { buildInvoice, newIrn, type Version } from '../../fixtures/invoices/build.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { DEV, type DevClients, devClients } from '../../support/clients.ts'

let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(() => api?.close())

type Body = Record<string, any>
const VERSIONS: Version[] = ['v1', 'v2']

/** app/invoice/validate: validates and signs, with the version's own schema. */
const validate = (version: Version, body: unknown, headers?: Record<string, string>) =>
  clients.app.post<any>(`/api/${version}/app/invoice/validate`, body, headers)

/** A complete invoice changed by `change`, which may mutate it in place. */
function changed(change: (inv: Body) => void): Body {
  const invoice = buildInvoice()
  change(invoice)
  return invoice
}

/** The FirsErrorDetails of a 400, with exactly these problems (messages checked loosely). */
function expectRejected(
  reply: { status: number; body: any },
  problems: { path: string; code: string; message?: RegExp }[],
  /** The unknown keys the 400 lists as ignored, when the body has any. */
  warnings?: unknown[],
) {
  expect(reply.status).toBe(400)
  expect(reply.body).toEqual({
    timestamp: expect.any(String),
    message: `The invoice is invalid: ${problems.length} problem${problems.length === 1 ? '' : 's'} found`,
    details: expect.any(String),
    status: '400 BAD_REQUEST',
    errors: problems.map((p) => ({
      path: p.path,
      code: p.code,
      message: p.message ? expect.stringMatching(p.message) : expect.any(String),
    })),
    ...(warnings ? { warnings } : {}),
    // No EN 16931 findings: a JSON invoice gets them when asked (test/http/invoice/en16931.test.ts).
  })
}

const ok = (irn: string) => ({
  message: 'Invoice validated and signed successfully',
  payment_status: 'PENDING',
  irn,
  signed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
  // No EN 16931 findings: a JSON invoice gets them when asked (test/http/invoice/en16931.test.ts).
})

describe.each(VERSIONS)('POST /api/%s/app/invoice/validate', (version) => {
  it('accepts a complete invoice with every optional structure present', async () => {
    const invoice = buildInvoice()
    const reply = await validate(version, invoice)
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(ok(invoice.irn))
  })

  it('accepts an invoice with only the required fields', async () => {
    const invoice = buildInvoice({ minimal: true })
    const reply = await validate(version, invoice)
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(ok(invoice.irn))
  })

  it('accepts issue_time as "HH:MM:SS" and as a LocalTime object, which are the same content', async () => {
    const invoice = buildInvoice()
    const first = await validate(version, { ...invoice, issue_time: '10:15:30' })
    expect(first.status).toBe(200)
    // Stored as HH:MM:SS either way, so the object form of the same time is the same signed invoice.
    const again = await validate(version, {
      ...invoice,
      issue_time: { hour: 10, minute: 15, second: 30, nano: 0 },
    })
    expect(again.status).toBe(200)
    expect(again.body).toEqual(first.body)
    expect(invoiceOf((await readInvoiceRecord(invoice.irn))!)?.issue_time).toBe('10:15:30')
  })

  it('accepts parties carrying the 13-digit Tax ID (NRS/JRB notice of May 2026) and signs them as sent', async () => {
    const invoice = changed((inv) => {
      inv.accounting_supplier_party.tin = '3047291850016'
      inv.accounting_customer_party.tin = '1234567890123'
    })
    const reply = await validate(version, invoice)
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(ok(invoice.irn))
    expect(await readInvoiceRecord(invoice.irn)).toMatchObject({
      status: 'SIGNED',
      supplierTin: '3047291850016',
      buyerTin: '1234567890123',
    })
  })

  it.each([
    ['12', '123456789012'],
    ['14', '12345678901234'],
  ])('refuses a party TIN of %s digits, naming the forms it may take', async (_, tin) => {
    const reply = await validate(
      version,
      changed((inv) => (inv.accounting_customer_party.tin = tin)),
    )
    expectRejected(reply, [
      {
        path: 'accounting_customer_party/tin',
        code: 'NG-FM-01',
        message: new RegExp(
          `NNNNNNNN-NNNN .*, the 13-digit Tax ID .* or TIN- and digits .*\\(received "${tin}"\\)`,
        ),
      },
    ])
  })

  it('refuses a LocalTime that is not a time of day', async () => {
    const reply = await validate(
      version,
      changed((inv) => (inv.issue_time = { hour: 25, minute: 0, second: 0, nano: 0 })),
    )
    expectRejected(reply, [{ path: 'issue_time/hour', code: 'NG-FM-03', message: /at most 23/ }])
  })

  it.each([
    [0, 'REJECTED'],
    [1, 'PENDING'],
    [2, 'PAID'],
    ['PAID', 'PAID'],
    ['REJECTED', 'REJECTED'],
  ])('accepts payment_status %j and stores and replies it as %s', async (sent, name) => {
    const invoice = changed((inv) => (inv.payment_status = sent))
    const reply = await validate(version, invoice)
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({ ...ok(invoice.irn), payment_status: name })
    const record = await readInvoiceRecord(invoice.irn)
    expect(record?.paymentStatus).toBe(name)
    expect(invoiceOf(record!)?.payment_status).toBe(name)
  })

  it.each(['2000', 2000.5])('accepts accounting_cost %j (string or number)', async (cost) => {
    const reply = await validate(
      version,
      changed((inv) => (inv.accounting_cost = cost)),
    )
    expect(reply.status).toBe(200)
  })

  it('reports every unknown key as a warning, and stores none of them', async () => {
    const invoice = changed((inv) => {
      inv.discount_note = 'not a field'
      inv.invoice_line[0].dicount_rate = 2.01
      inv.accounting_supplier_party.postal_address.zip = '100001'
    })
    const reply = await validate(version, invoice)
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({
      ...ok(invoice.irn),
      warnings: [
        {
          path: 'accounting_supplier_party/postal_address/zip',
          code: 'NG-UK-01',
          message: 'Unknown key "zip" was ignored and not stored',
        },
        {
          path: 'invoice_line/0/dicount_rate',
          code: 'NG-UK-01',
          message: 'Unknown key "dicount_rate" was ignored and not stored: did you mean "discount_rate"?',
        },
        {
          path: 'discount_note',
          code: 'NG-UK-01',
          message: 'Unknown key "discount_note" was ignored and not stored',
        },
      ],
    })
    const stored = invoiceOf((await readInvoiceRecord(invoice.irn))!) as Body
    expect(stored.discount_note).toBeUndefined()
    expect(stored.invoice_line[0].dicount_rate).toBeUndefined()
    expect(stored.accounting_supplier_party.postal_address.zip).toBeUndefined()
  })

  it('says a missing required key is probably misspelled when a near key was sent', async () => {
    const invoice = changed((inv) => {
      inv.invoice_line[0].dicount_rate = inv.invoice_line[0].discount_rate
      delete inv.invoice_line[0].discount_rate
    })
    expectRejected(
      await validate(version, invoice),
      [
        {
          path: 'invoice_line/0/discount_rate',
          code: 'NG-SC-01',
          message: /^discount_rate is required; the body has "dicount_rate" instead: is it misspelled\?$/,
        },
      ],
      [
        {
          path: 'invoice_line/0/dicount_rate',
          code: 'NG-UK-01',
          message: 'Unknown key "dicount_rate" was ignored and not stored: did you mean "discount_rate"?',
        },
      ],
    )
  })

  it("answers 404 for an invoice whose business_id is not the caller's business", async () => {
    const reply = await validate(
      version,
      changed((inv) => (inv.business_id = DEV.buyer.businessId)),
    )
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual({
      timestamp: expect.any(String),
      message: `Business ${DEV.buyer.businessId} was not found for this API client: business_id must be your own business's id`,
      details: expect.any(String),
      status: '404 NOT_FOUND',
      errors: [{ path: '', code: 'NOT_FOUND', message: expect.any(String) }],
    })
  })

  it('refuses a body that is not an object', async () => {
    expectRejected(await validate(version, [1, 2]), [
      { path: '', code: 'NG-SC-02', message: /an object \(received array\)/ },
    ])
  })

  it('refuses an x-validation-mode other than strict or lenient', async () => {
    const reply = await validate(version, buildInvoice(), { 'x-validation-mode': 'relaxed' })
    expect(reply.status).toBe(400)
    expect(reply.body.message).toBe('x-validation-mode must be "strict" or "lenient" (received "relaxed")')
  })
})

/** One case per rule code: a complete invoice with exactly one violation, and where it is reported. */
const RULE_CASES: [code: string, what: string, change: (inv: Body) => void, path: string][] = [
  [
    'NG-SC-01',
    'a required field missing',
    (inv) => delete inv.accounting_supplier_party.email,
    'accounting_supplier_party/email',
  ],
  [
    'NG-SC-02',
    'a field of the wrong type',
    (inv) => (inv.invoice_line[0].invoiced_quantity = '10'),
    'invoice_line/0/invoiced_quantity',
  ],
  ['NG-SC-03', 'a value outside the allowed set', (inv) => (inv.payment_status = 'LATE'), 'payment_status'],
  [
    'NG-SC-04',
    'a number out of range',
    (inv) => (inv.invoice_line[1].price.base_quantity = 0),
    'invoice_line/1/price/base_quantity',
  ],
  [
    'NG-FM-01',
    'a TIN of neither authority form',
    (inv) => (inv.accounting_customer_party.tin = '12345678'),
    'accounting_customer_party/tin',
  ],
  [
    'NG-FM-02',
    'a telephone with other characters',
    (inv) => (inv.accounting_supplier_party.telephone = '0803-123-4567'),
    'accounting_supplier_party/telephone',
  ],
  ['NG-FM-03', 'an issue_time that is not a time', (inv) => (inv.issue_time = '24:00:00'), 'issue_time'],
  ['NG-DT-01', 'a date that does not exist', (inv) => (inv.tax_point_date = '2026-02-30'), 'tax_point_date'],
  ['NG-DT-02', 'a due_date before issue_date', (inv) => (inv.due_date = '2026-11-01'), 'due_date'],
  [
    'NG-DT-03',
    'a delivery period ending before it starts',
    (inv) => (inv.invoice_delivery_period.start_date = '2026-11-25'),
    'invoice_delivery_period/end_date',
  ],
  ['NG-IRN-01', 'an IRN not of the IRN form', (inv) => (inv.irn = 'INV 001/94ND90NR'), 'irn'],
  [
    'NG-IRN-02',
    'an IRN dated a day that does not exist',
    (inv) => (inv.irn = newIrn(DEV.supplier.serviceId, '20261340')),
    'irn',
  ],
  [
    'NG-IRN-03',
    "an IRN with another business's service id",
    (inv) => (inv.irn = newIrn(DEV.other.serviceId)),
    'irn',
  ],
  ['NG-CL-01', 'an unknown invoice type', (inv) => (inv.invoice_type_code = '999'), 'invoice_type_code'],
  ['NG-CL-02', 'an unknown currency', (inv) => (inv.tax_currency_code = 'XYZ'), 'tax_currency_code'],
  [
    'NG-CL-03',
    'an unknown country',
    (inv) => (inv.ship_party.postal_address.country = 'ZZ'),
    'ship_party/postal_address/country',
  ],
  [
    'NG-CL-04',
    'an unknown Nigerian state',
    (inv) => (inv.bill_party.postal_address.state = 'NG-XX'),
    'bill_party/postal_address/state',
  ],
  [
    'NG-CL-05',
    'an LGA of another state',
    (inv) => (inv.payee_party.postal_address.lga = 'NG-KN-NAS'),
    'payee_party/postal_address/lga',
  ],
  [
    'NG-CL-06',
    'an unknown tax category',
    (inv) => (inv.tax_total[0].tax_subtotal[0].tax_category.id = 'VAT'),
    'tax_total/0/tax_subtotal/0/tax_category/id',
  ],
  [
    'NG-CL-07',
    'an unknown payment means',
    (inv) => (inv.payment_means[0].payment_means_code = '99'),
    'payment_means/0/payment_means_code',
  ],
  [
    'NG-CL-08',
    'an hsn_code not in the product codes',
    (inv) => (inv.invoice_line[1].hsn_code = 'CC-001'),
    'invoice_line/1/hsn_code',
  ],
  [
    'NG-CL-09',
    'an isic_code not in the service codes',
    (inv) => (inv.invoice_line[2].isic_code = '9999'),
    'invoice_line/2/isic_code',
  ],
  [
    'NG-BR-01',
    'a credit note without billing_reference',
    (inv) => {
      inv.invoice_type_code = '380'
      delete inv.billing_reference
    },
    'billing_reference',
  ],
  [
    'NG-BR-02',
    'a billing reference dated after the invoice',
    (inv) => (inv.billing_reference[0].issue_date = '2026-11-30'),
    'billing_reference/0/issue_date',
  ],
  [
    'NG-CO-01',
    'a line whose amount is not quantity x price / base',
    (inv) => (inv.invoice_line[0].price.price_amount = 1400),
    'invoice_line/0/line_extension_amount',
  ],
  [
    'NG-CO-10',
    'a line_extension_amount total that is not the sum of the lines',
    (inv) => {
      // Every total built on it moves too, so that only the sum of the lines is wrong.
      for (const k of [
        'line_extension_amount',
        'tax_exclusive_amount',
        'tax_inclusive_amount',
        'payable_amount',
      ])
        inv.legal_monetary_total[k] += 1
    },
    'legal_monetary_total/line_extension_amount',
  ],
  [
    'NG-CO-13',
    'a tax_exclusive_amount that ignores an allowance',
    (inv) => (inv.allowance_charge[0].amount = 400),
    'legal_monetary_total/tax_exclusive_amount',
  ],
  [
    'NG-CO-14',
    'a tax total that is not the sum of its subtotals',
    (inv) => {
      inv.tax_total[0].tax_amount += 1
      inv.legal_monetary_total.tax_inclusive_amount += 1
      inv.legal_monetary_total.payable_amount += 1
    },
    'tax_total/0/tax_amount',
  ],
  [
    'NG-CO-15',
    'a tax_inclusive_amount that is not exclusive + tax',
    (inv) => (inv.legal_monetary_total.tax_inclusive_amount += 1),
    'legal_monetary_total/tax_inclusive_amount',
  ],
  [
    'NG-CO-16',
    'a payable_amount above tax_inclusive_amount',
    (inv) => (inv.legal_monetary_total.payable_amount += 0.01),
    'legal_monetary_total/payable_amount',
  ],
  [
    'NG-CO-17',
    'a subtotal tax that is not taxable x percent / 100',
    (inv) => (inv.tax_total[0].tax_subtotal[0].tax_category.percent = 8),
    'tax_total/0/tax_subtotal/0/tax_amount',
  ],
]

describe.each(VERSIONS)('the rule codes, in %s', (version) => {
  it.each(RULE_CASES)('%s: refuses %s, naming the field', async (code, _what, change, path) => {
    expectRejected(await validate(version, changed(change)), [{ path, code }])
  })

  it('NG-CL-05: refuses an LGA not of the form NG-XX-YYY while the LGA list is incomplete', async () => {
    const reply = await validate(
      version,
      changed((inv) => (inv.accounting_supplier_party.postal_address.lga = 'Ikeja')),
    )
    expectRejected(reply, [
      { path: 'accounting_supplier_party/postal_address/lga', code: 'NG-CL-05', message: /form NG-XX-YYY/ },
    ])
  })

  it('NG-SZ-01: refuses (413) an invoice too large to store even compressed', async () => {
    // About 800 KB of incompressible text, in lines of zero amount whose descriptions stay within
    // the 4,096-character bound on any one string (docs/hostile-input.md): under the 1 MiB body
    // limit, over the storable size.
    const invoice = changed((inv) => {
      const [line] = inv.invoice_line
      const random = () =>
        Buffer.from(Array.from({ length: 3_000 }, () => Math.floor(Math.random() * 256))).toString('base64')
      for (let i = 0; i < 200; i++)
        inv.invoice_line.push({
          ...line,
          item: { ...line.item, description: random() },
          price: { ...line.price, price_amount: 0 },
          discount_amount: 0,
          fee_amount: 0,
          line_extension_amount: 0,
        })
    })
    const reply = await validate(version, invoice)
    expect(reply.status).toBe(413)
    expect(reply.body.errors).toEqual([
      { path: '', code: 'NG-SZ-01', message: expect.stringContaining('split it') },
    ])
    expect(await readInvoiceRecord(invoice.irn)).toBeUndefined()
  })

  it('reports every violation of a many-error invoice in one reply', async () => {
    const invoice = changed((inv) => {
      delete inv.accounting_supplier_party.email
      inv.invoice_line[0].invoiced_quantity = '10'
      inv.payment_status = 'LATE'
      inv.accounting_customer_party.tin = 'TIN000001'
      inv.accounting_supplier_party.telephone = '0803 123'
      inv.issue_time = '25:61:00'
      inv.tax_point_date = '2026-13-01'
      inv.due_date = '2026-11-01'
      inv.irn = newIrn(DEV.other.serviceId)
      inv.document_reference[0].irn = 'not-an-irn'
      inv.contract_document_reference.irn = newIrn(DEV.supplier.serviceId, '20260229')
      inv.invoice_type_code = '380'
      delete inv.billing_reference
      inv.document_currency_code = 'ngn'
      inv.ship_party.postal_address.country = 'ZZ'
      inv.bill_party.postal_address.state = 'NG-XX'
      inv.payee_party.postal_address.lga = 'Ikeja'
      inv.tax_total[0].tax_subtotal[0].tax_category.id = 'VAT'
      inv.payment_means[0].payment_means_code = '99'
      inv.invoice_line[1].hsn_code = 'CC-001'
      inv.invoice_line[2].isic_code = '9999'
      inv.invoice_line[2].price.price_amount = 50
      inv.legal_monetary_total.payable_amount = 1e9
    })
    expectRejected(await validate(version, invoice), [
      // Schema first, in document order...
      { path: 'issue_time', code: 'NG-FM-03' },
      { path: 'payment_status', code: 'NG-SC-03' },
      { path: 'tax_point_date', code: 'NG-DT-01' },
      { path: 'document_reference/0/irn', code: 'NG-IRN-01' },
      { path: 'accounting_supplier_party/email', code: 'NG-SC-01' },
      { path: 'accounting_supplier_party/telephone', code: 'NG-FM-02' },
      { path: 'accounting_customer_party/tin', code: 'NG-FM-01' },
      { path: 'invoice_line/0/invoiced_quantity', code: 'NG-SC-02' },
      // ...then the authority's rules: IRNs, code lists, billing reference...
      { path: 'irn', code: 'NG-IRN-03', message: /service id Q4TR8WLM/ },
      { path: 'contract_document_reference/irn', code: 'NG-IRN-02' },
      { path: 'document_currency_code', code: 'NG-CL-02', message: /did you mean "NGN"/ },
      { path: 'payee_party/postal_address/lga', code: 'NG-CL-05' },
      { path: 'bill_party/postal_address/state', code: 'NG-CL-04' },
      { path: 'ship_party/postal_address/country', code: 'NG-CL-03' },
      { path: 'tax_total/0/tax_subtotal/0/tax_category/id', code: 'NG-CL-06' },
      { path: 'payment_means/0/payment_means_code', code: 'NG-CL-07' },
      { path: 'invoice_line/1/hsn_code', code: 'NG-CL-08' },
      { path: 'invoice_line/2/isic_code', code: 'NG-CL-09' },
      { path: 'billing_reference', code: 'NG-BR-01' },
      // ...and the dates and arithmetic, which strict mode fails.
      { path: 'due_date', code: 'NG-DT-02' },
      { path: 'invoice_line/2/line_extension_amount', code: 'NG-CO-01' },
      { path: 'legal_monetary_total/payable_amount', code: 'NG-CO-16' },
    ])
  })
})

describe.each(VERSIONS)('strict and lenient validation in %s', (version) => {
  const sumWrong = () =>
    changed((inv) => {
      inv.legal_monetary_total.line_extension_amount += 100
    })

  it('fails the arithmetic rules in strict mode, the default', async () => {
    const reply = await validate(version, sumWrong())
    expectRejected(reply, [
      {
        path: 'legal_monetary_total/line_extension_amount',
        code: 'NG-CO-10',
        message: /but the 3 lines add up to 15984.83/,
      },
      { path: 'legal_monetary_total/tax_exclusive_amount', code: 'NG-CO-13' },
    ])
    expect((await validate(version, sumWrong(), { 'x-validation-mode': 'strict' })).status).toBe(400)
  })

  it('accepts them as warnings in lenient mode', async () => {
    const invoice = sumWrong()
    const reply = await validate(version, invoice, { 'x-validation-mode': 'lenient' })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({
      ...ok(invoice.irn),
      warnings: [
        {
          path: 'legal_monetary_total/line_extension_amount',
          code: 'NG-CO-10',
          message: expect.stringContaining('15984.83'),
        },
        { path: 'legal_monetary_total/tax_exclusive_amount', code: 'NG-CO-13', message: expect.any(String) },
      ],
    })
  })

  it('still fails schema, code-list, format and IRN problems in lenient mode', async () => {
    const invoice = changed((inv) => {
      inv.legal_monetary_total.payable_amount += 1
      inv.document_currency_code = 'XYZ'
    })
    expectRejected(await validate(version, invoice, { 'x-validation-mode': 'lenient' }), [
      { path: 'document_currency_code', code: 'NG-CL-02' },
    ])
  })
})

describe('the differences between v1 and v2', () => {
  const cases: [what: string, change: (inv: Body) => void, v2Problems: { path: string; code: string }[]][] = [
    ['invoice_kind missing', (inv) => delete inv.invoice_kind, [{ path: 'invoice_kind', code: 'NG-SC-01' }]],
    [
      'invoice_kind outside B2C, B2B, B2G',
      (inv) => (inv.invoice_kind = 'C2C'),
      [{ path: 'invoice_kind', code: 'NG-SC-03' }],
    ],
    [
      'a postal_zone of 21 characters',
      (inv) => (inv.accounting_supplier_party.postal_address.postal_zone = '1'.repeat(21)),
      [{ path: 'accounting_supplier_party/postal_address/postal_zone', code: 'NG-SC-04' }],
    ],
    [
      'an invoice line without item and price',
      (inv) => {
        delete inv.invoice_line[0].item
        delete inv.invoice_line[0].price
      },
      [
        { path: 'invoice_line/0/item', code: 'NG-SC-01' },
        { path: 'invoice_line/0/price', code: 'NG-SC-01' },
      ],
    ],
    [
      'a tax representative without postal_address',
      (inv) => delete inv.tax_representative_party.postal_address,
      [{ path: 'tax_representative_party/postal_address', code: 'NG-SC-01' }],
    ],
  ]

  it.each(cases)('v1 accepts %s', async (_, change) => {
    const invoice = changed(change)
    const reply = await validate('v1', invoice)
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(ok(invoice.irn))
  })

  it.each(cases)('v2 refuses %s', async (_, change, problems) => {
    expectRejected(await validate('v2', changed(change)), problems)
  })

  it('v1 and v2 both accept a 20-character postal_zone', async () => {
    for (const version of VERSIONS) {
      const reply = await validate(
        version,
        changed((inv) => (inv.accounting_supplier_party.postal_address.postal_zone = '1'.repeat(20))),
      )
      expect(reply.status).toBe(200)
    }
  })

  it('lets the tax representative go without party_name, in v1 and v2', async () => {
    const withoutName = (inv: Body) => delete inv.tax_representative_party.party_name
    expect((await validate('v1', changed(withoutName))).status).toBe(200)
    expect((await validate('v2', changed(withoutName))).status).toBe(200)
  })

  it('applies the required fields of an optional party when it is present', async () => {
    for (const version of VERSIONS) {
      expectRejected(
        await validate(
          version,
          changed((inv) => delete inv.ship_party.tin),
        ),
        [{ path: 'ship_party/tin', code: 'NG-SC-01' }],
      )
    }
  })

  describe('POST /api/v2/si/validate', () => {
    it("takes the v1 record on /api/v2/si/validate, as the spec's endpoint table says", async () => {
      const invoice = changed((inv) => delete inv.invoice_kind)
      const reply = await clients.si.post<any>('/api/v2/si/validate', invoice)
      expect(reply.status).toBe(200)
      expect(reply.body).toEqual({
        message: 'Invoice validated successfully',
        payment_status: 'PENDING',
        irn: invoice.irn,
      })
    })
  })
})

describe("the authority's published samples", () => {
  const sample = (file: string): Body => {
    const body = JSON.parse(
      readFileSync(new URL(`../../../data/authority-samples/${file}`, import.meta.url), 'utf8'),
    )
    // Fill the placeholders an integrator must fill: their business id, an IRN with their service id.
    body.business_id = DEV.supplier.businessId
    body.irn = newIrn()
    return body
  }
  // The party the samples' customer names by `id` ({{PARTY_ID}}): one of the supplier's, created first.
  let partyId = ''
  beforeAll(async () => {
    const created = await clients.app.post<any>('/api/v1/invoice/party', {
      business_id: DEV.supplier.businessId,
      party_name: 'Dangote Group TMZ',
      tin: 'TIN-000001',
      email: 'business@email.com',
      postal_address: {
        street_name: '32, owonikoko street',
        city_name: 'Gwarikpa',
        postal_zone: '023401',
        country: 'NG',
      },
    })
    partyId = created.body.data.id
  })
  const SAMPLES = [
    '01-validate-invoice-postman-396-local-sales-tax.json',
    '03-validate-invoice-swagger-party-id-ref.json',
    '04-sign-invoice-swagger-party-id-ref.json',
  ]

  /** What the spec requires and the samples leave out or get wrong, fixed the least possible way. */
  function completed(file: string): Body {
    const body = sample(file)
    body.payment_status ??= 'PENDING'
    if (body.accounting_customer_party.id) body.accounting_customer_party.id = partyId
    // Their TINs (TIN-0099990001, TIN-000001) are the authority's own form: kept as published.
    for (const key of ['accounting_supplier_party', 'accounting_customer_party']) {
      body[key].postal_address ??= {
        street_name: '32, owonikoko street',
        city_name: 'Gwarikpa',
        postal_zone: '023401',
        country: 'NG',
      }
      Object.assign(body[key].postal_address, { state: 'NG-FC', lga: 'NG-FC-AMA' })
    }
    for (const line of body.invoice_line) {
      line.hsn_code = '2523.29'
      line.discount_rate ??= line.dicount_rate
      line.discount_amount ??= line.dicount_amount
    }
    return body
  }

  // What the spec makes mandatory and each sample lacks; never an arithmetic rule (lenient mode).
  const parties = (...fields: string[]) =>
    ['accounting_supplier_party', 'accounting_customer_party'].flatMap((p) => fields.map((f) => `${p}/${f}`))
  const lines = (...fields: string[]) => [0, 1].flatMap((i) => fields.map((f) => `invoice_line/${i}/${f}`))
  const EXPECTED: Record<string, [string, string][]> = {
    [SAMPLES[0]!]: [
      ['accounting_supplier_party/postal_address/lga', 'NG-SC-01'],
      ['accounting_supplier_party/postal_address/state', 'NG-SC-01'],
      ['accounting_customer_party/postal_address/lga', 'NG-SC-01'],
      ['accounting_customer_party/postal_address/state', 'NG-SC-01'],
      ...lines('hsn_code').map((p): [string, string] => [p, 'NG-CL-08']),
    ],
    [SAMPLES[1]!]: [
      // Their placeholders name no party or address of the business ({{TEST_ADDRESS_ID}}, {{PARTY_ID}}),
      // and the supplier, named by postal_address_id only, so has no address.
      ['accounting_supplier_party/postal_address_id', 'NG-PT-01'],
      ['accounting_customer_party/id', 'NG-PT-01'],
      ['accounting_supplier_party/postal_address', 'NG-SC-01'],
      ['accounting_customer_party/postal_address/lga', 'NG-SC-01'],
      ['accounting_customer_party/postal_address/state', 'NG-SC-01'],
      // Sent as dicount_rate / dicount_amount.
      ...lines('discount_rate', 'discount_amount').map((p): [string, string] => [p, 'NG-SC-01']),
      ...lines('hsn_code').map((p): [string, string] => [p, 'NG-CL-08']),
    ],
    [SAMPLES[2]!]: [
      ['accounting_customer_party/id', 'NG-PT-01'],
      ['payment_status', 'NG-SC-01'],
      ...parties('postal_address/lga', 'postal_address/state').map((p): [string, string] => [p, 'NG-SC-01']),
      ...lines('discount_rate', 'discount_amount').map((p): [string, string] => [p, 'NG-SC-01']),
      ...lines('hsn_code').map((p): [string, string] => [p, 'NG-CL-08']),
    ],
  }

  // The unknown keys each sample's 400 lists as ignored: the misspellings behind its missing keys.
  const dicount = lines('dicount_rate', 'dicount_amount')
  const IGNORED: Record<string, string[]> = {
    [SAMPLES[0]!]: ['_document_reference'],
    [SAMPLES[1]!]: dicount,
    [SAMPLES[2]!]: dicount,
  }

  it.each(SAMPLES)('%s: as published, fails even in lenient mode on what the spec requires', async (file) => {
    const reply = await validate('v1', sample(file), { 'x-validation-mode': 'lenient' })
    expectRejected(
      reply,
      EXPECTED[file]!.map(([path, code]) => ({ path, code })),
      IGNORED[file]!.map((path) => ({ path, code: 'NG-UK-01', message: expect.any(String) })),
    )
  })

  it.each(SAMPLES)(
    '%s: completed, passes in lenient mode with its arithmetic listed as warnings',
    async (file) => {
      const body = completed(file)
      const reply = await validate('v1', body, { 'x-validation-mode': 'lenient' })
      expect(reply.status).toBe(200)
      const arithmetic = reply.body.warnings
        .filter((w: { code: string }) => w.code !== 'NG-UK-01')
        .map((w: { code: string }) => w.code)
      expect(arithmetic).toEqual([
        'NG-CO-01',
        'NG-CO-01',
        'NG-CO-10',
        'NG-CO-13',
        'NG-CO-17',
        'NG-CO-14',
        'NG-CO-15',
      ])
    },
  )

  it.each(SAMPLES)('%s: completed, fails in strict mode on its arithmetic alone', async (file) => {
    const reply = await validate('v1', completed(file))
    expect(reply.status).toBe(400)
    expect(reply.body.errors.map((e: { code: string }) => e.code)).toEqual([
      'NG-CO-01',
      'NG-CO-01',
      'NG-CO-10',
      'NG-CO-13',
      'NG-CO-17',
      'NG-CO-14',
      'NG-CO-15',
    ])
  })
})

describe('the LGA rule once the full LGA list is loaded', () => {
  const lgaRows = JSON.parse(
    readFileSync(new URL('../../../data/reference/lgas.json', import.meta.url), 'utf8'),
  ) as unknown[]
  const source = { version: 'test', sourceDate: '2025-05-21', source: 'test' }
  beforeAll(() => writeList('lgas', lgaRows, { ...source, complete: true }))
  afterAll(() => writeList('lgas', lgaRows, { ...source, complete: false }))

  /** Every address in Abia, whose four LGAs are the ones the sample list holds. */
  const inAbia = (lga: string) =>
    changed((inv) => {
      for (const key of [
        'accounting_supplier_party',
        'accounting_customer_party',
        'payee_party',
        'bill_party',
        'ship_party',
        'tax_representative_party',
      ]) {
        Object.assign(inv[key].postal_address, { state: 'NG-AB', lga: 'NG-AB-ANO' })
      }
      inv.accounting_supplier_party.postal_address.lga = lga
    })

  it('accepts an LGA that is in the list for its state', async () => {
    expect((await validate('v2', inAbia('NG-AB-BEN'))).status).toBe(200)
  })

  it('NG-CL-05: refuses an LGA of the right form that is not in the list', async () => {
    expectRejected(await validate('v2', inAbia('NG-AB-XYZ')), [
      {
        path: 'accounting_supplier_party/postal_address/lga',
        code: 'NG-CL-05',
        message: /not in the LGAs list/,
      },
    ])
  })
})

/** CONTRACT section 17: the mistakes integrators make most are refused with the fix named. */
describe.each(VERSIONS)('refusals that name the fix, in %s', (version) => {
  it("says 380 is the authority's Credit Note and names 381 and 396 when billing_reference is missing", async () => {
    const invoice = changed((inv) => {
      inv.invoice_type_code = '380'
      delete inv.billing_reference
    })
    expectRejected(await validate(version, invoice), [
      {
        path: 'billing_reference',
        code: 'NG-BR-01',
        message:
          /^Invoice type 380 is the authority's Credit Note .*billing_reference must name .*send invoice_type_code 381 \(Commercial Invoice\) or 396 \(Invoice Request\)$/,
      },
    ])
  })

  it("says where a party's tin and email belong when they are sent under postal_address", async () => {
    const invoice = changed((inv) => {
      const party = inv.accounting_customer_party
      Object.assign(party.postal_address, { tin: party.tin, email: party.email })
      delete party.tin
      delete party.email
    })
    const misplaced = (key: string) => ({
      path: `accounting_customer_party/postal_address/${key}`,
      code: 'NG-UK-01',
      message: `Unknown key "${key}" was ignored and not stored: ${key} belongs in accounting_customer_party, beside postal_address`,
    })
    expectRejected(
      await validate(version, invoice),
      ['tin', 'email'].map((key) => ({
        path: `accounting_customer_party/${key}`,
        code: 'NG-SC-01',
        message: new RegExp(
          `^${key} is required; the body has it under postal_address \\(accounting_customer_party/postal_address/${key}\\), where it is ignored: it belongs in accounting_customer_party, beside postal_address$`,
        ),
      })),
      [misplaced('tin'), misplaced('email')],
    )
  })

  it('lists the unknown keys it ignored beside the problems of a 400', async () => {
    const invoice = changed((inv) => {
      inv.invoice_date = inv.issue_date
      delete inv.issue_date
      inv.supplier = { party_name: 'Not read' }
      inv.invoice_items = []
    })
    expectRejected(
      await validate(version, invoice),
      [{ path: 'issue_date', code: 'NG-SC-01' }],
      ['invoice_date', 'supplier', 'invoice_items'].map((key) => ({
        path: key,
        code: 'NG-UK-01',
        message: `Unknown key "${key}" was ignored and not stored`,
      })),
    )
  })

  it('lists at most 20 unknown keys beside a 400, and counts the rest in truncated (CONTRACT 17)', async () => {
    const invoice = changed((inv) => {
      delete inv.issue_date
      for (let i = 0; i < 25; i++) inv[`extra_${i}`] = i
    })
    const reply = await validate(version, invoice)
    expect(reply.status).toBe(400)
    expect(reply.body.message).toBe('The invoice is invalid: 1 problem found')
    expect(reply.body.warnings).toHaveLength(20)
    expect(reply.body.warnings.at(-1).path).toBe('extra_19')
    expect(reply.body.truncated).toEqual({ errors: 0, warnings: 5 })
  })
})
