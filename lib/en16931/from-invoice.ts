import { typeCodeOf } from '../documents/type-codes.ts'
import { decimalText } from '../documents/xml.ts'
import type { AllowanceCharge, Line, Model, Party, TaxCategory, Term } from './model.js'

/**
 * The EN 16931 model of the service's invoice record (lib/invoice/schemas.ts), with each term where
 * the service's own UBL export writes it (lib/documents/ubl.ts, CONTRACT 16), so that a finding on a
 * JSON invoice names the same XPath as on its exported document. Where the record speaks the
 * authority's language, the model speaks EN 16931's:
 * - the type code is UNCL 1001's (authority 381 -> 380, 380 -> 381 in a CreditNote, ...);
 * - the VAT categories STANDARD_VAT and REDUCED_VAT are EN 16931's S, ZERO_VAT is Z; other taxes keep
 *   their code and are not VAT (their scheme is GST, or the tax's own);
 * - party_name is the legal name (BT-27, BT-44) and the trading name (BT-28, BT-45); tin is the
 *   party's tax identifier of its scheme (a TIN, not a VAT identifier);
 * - a line has no VAT category of its own in the record: when the breakdown has exactly one VAT
 *   category, every line carries it (the invoice is at that one rate); otherwise lines have none.
 * Terms the record has no field for (the specification identifier BT-24, the unit code of a quantity,
 * the legal registration name element) are absent, and the rules that need them say so.
 */

type Json = Record<string, unknown>

const obj = (value: unknown): Json | undefined =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value.filter(obj) as Json[]) : [])
const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' ? decimalText(value) : undefined

function term(value: unknown, path: string, attributes?: Record<string, string>): Term | undefined {
  const written = text(value)
  return written === undefined ? undefined : { value: written, path, ...(attributes ? { attributes } : {}) }
}

const EN_CATEGORY: Record<string, string> = { STANDARD_VAT: 'S', REDUCED_VAT: 'S', ZERO_VAT: 'Z' }
const schemeOf = (id: string) => /_(VAT|GST)$/.exec(id)?.[1] ?? id

function category(value: Json | undefined, path: string): TaxCategory {
  const id = text(value?.id) ?? ''
  const en = EN_CATEGORY[id]
  return {
    path,
    id: term(en ?? id, `${path}/cbc:ID`),
    percent: term(value?.percent, `${path}/cbc:Percent`),
    vat: en !== undefined || schemeOf(id) === 'VAT',
  }
}

function party(value: unknown, path: string, businessId?: unknown): Party | undefined {
  const p = obj(value)
  if (!p) return undefined
  const address = obj(p.postal_address)
  const name = term(p.party_name, `${path}/cac:PartyName/cbc:Name`)
  const ids = [
    term(businessId, `${path}/cac:PartyIdentification[1]/cbc:ID`, { schemeName: 'business_id' }),
    term(p.id, `${path}/cac:PartyIdentification${businessId === undefined ? '' : '[2]'}/cbc:ID`),
  ].filter((id) => id !== undefined)
  return {
    path,
    registrationName: name && { ...name, path: `${path}/cac:PartyLegalEntity/cbc:RegistrationName` },
    names: name ? [name] : [],
    identifiers: ids,
    legalCompanyIds: [],
    taxSchemes:
      p.tin === undefined
        ? []
        : [
            {
              path: `${path}/cac:PartyTaxScheme`,
              companyId: term(p.tin, `${path}/cac:PartyTaxScheme/cbc:CompanyID`),
              vat: false,
            },
          ],
    address: address
      ? {
          path: `${path}/cac:PostalAddress`,
          country: term(address.country, `${path}/cac:PostalAddress/cac:Country/cbc:IdentificationCode`),
        }
      : undefined,
  }
}

function lineOf(value: Json, index: number, credit: boolean, currency: string, lineCategory?: Json): Line {
  const path = `/${credit ? 'CreditNote' : 'Invoice'}/cac:${credit ? 'CreditNoteLine' : 'InvoiceLine'}[${index + 1}]`
  const amount = (v: unknown, at: string) => term(v, `${path}/${at}`, { currencyID: currency })
  const charges: AllowanceCharge[] = []
  for (const [charge, money, reason] of [
    [false, value.discount_amount, 'Discount'],
    [true, value.fee_amount, 'Fee'],
  ] as const) {
    if (typeof money !== 'number') continue
    const at = `${path}/cac:AllowanceCharge[${charges.length + 1}]`
    charges.push({
      path: at,
      indicator: { value: String(charge), path: `${at}/cbc:ChargeIndicator` },
      amount: term(money, `${at}/cbc:Amount`, { currencyID: currency }),
      reason: term(reason, `${at}/cbc:AllowanceChargeReason`),
      taxCategories: [],
    })
  }
  const item = obj(value.item)
  const price = obj(value.price)
  return {
    path,
    id: term(String(index + 1), `${path}/cbc:ID`),
    quantity: term(
      value.invoiced_quantity,
      `${path}/cbc:${credit ? 'CreditedQuantity' : 'InvoicedQuantity'}`,
    ),
    lineExtensionAmount: amount(value.line_extension_amount, 'cbc:LineExtensionAmount'),
    itemName: term(item?.name, `${path}/cac:Item/cbc:Name`),
    priceAmount: price ? amount(price.price_amount, 'cac:Price/cbc:PriceAmount') : undefined,
    priceAllowanceCharges: [],
    classifiedTaxCategories: lineCategory
      ? [category(lineCategory, `${path}/cac:Item/cac:ClassifiedTaxCategory`)]
      : [],
    allowanceCharges: charges,
    periods: [],
    standardIds: [],
    classificationCodes: [
      [value.hsn_code, 'HS'],
      [value.isic_code, 'ISIC'],
    ].flatMap(([code, listID], at, all) => {
      const index = all.slice(0, at + 1).filter(([c]) => text(c) !== undefined).length
      return text(code) === undefined
        ? []
        : [
            term(code, `${path}/cac:Item/cac:CommodityClassification[${index}]/cbc:ItemClassificationCode`, {
              listID: String(listID),
            })!,
          ]
    }),
    properties: [
      ['product_category', value.product_category],
      ['service_category', value.service_category],
    ].flatMap(([name, v]) =>
      v === undefined
        ? []
        : [{ path: `${path}/cac:Item/cac:AdditionalItemProperty`, name: term(name, ''), value: term(v, '') }],
    ),
  }
}

function totalsOf(value: Json | undefined, root: string, currency: string): Model['totals'] {
  const path = `${root}/cac:LegalMonetaryTotal`
  const amount = (name: string) => term(value?.[name], `${path}/cbc:${camel(name)}`, { currencyID: currency })
  return {
    path,
    lineExtensionAmount: amount('line_extension_amount'),
    taxExclusiveAmount: amount('tax_exclusive_amount'),
    taxInclusiveAmount: amount('tax_inclusive_amount'),
    payableAmount: amount('payable_amount'),
  }
}

const camel = (name: string) => name.replace(/(^|_)([a-z])/g, (_m, _s, c: string) => c.toUpperCase())

function taxTotals(invoice: Json, root: string, currency: string): Model['taxTotals'] {
  return list(invoice.tax_total).map((total, t) => {
    const path = `${root}/cac:TaxTotal${list(invoice.tax_total).length > 1 ? `[${t + 1}]` : ''}`
    const subtotals = list(total.tax_subtotal)
    return {
      path,
      taxAmounts: [term(total.tax_amount, `${path}/cbc:TaxAmount`, { currencyID: currency })].filter(
        (amount) => amount !== undefined,
      ),
      subtotals: subtotals.map((sub, s) => {
        const at = `${path}/cac:TaxSubtotal${subtotals.length > 1 ? `[${s + 1}]` : ''}`
        return {
          path: at,
          taxableAmount: term(sub.taxable_amount, `${at}/cbc:TaxableAmount`, { currencyID: currency }),
          taxAmount: term(sub.tax_amount, `${at}/cbc:TaxAmount`, { currencyID: currency }),
          categories: [category(obj(sub.tax_category), `${at}/cac:TaxCategory`)],
        }
      }),
    }
  })
}

/** The codes of the record the BR-CL rules check, where the export writes them. */
function codesOf(model: Model, invoice: Json): Model['codes'] {
  const codes: Model['codes'] = []
  const add = (rule: string, listName: string, value: Term | undefined) => {
    if (value) codes.push({ rule, list: listName, value: value.value, path: value.path })
  }
  add(
    'BR-CL-01',
    model.kind === 'CreditNote' ? 'CREDIT_NOTE_TYPE_CODES' : 'INVOICE_TYPE_CODES',
    model.typeCode,
  )
  add('BR-CL-04', 'CURRENCY_CODES', model.currency)
  for (const currency of model.taxCurrencies) add('BR-CL-05', 'CURRENCY_CODES', currency)
  for (const p of [model.seller?.party, model.buyer?.party, model.payee, model.taxRepresentative])
    add('BR-CL-14', 'COUNTRY_CODES', p?.address?.country)
  for (const [i, means] of list(invoice.payment_means).entries())
    add(
      'BR-CL-16',
      'PAYMENT_MEANS_CODES',
      term(
        means.payment_means_code ?? 'ZZZ',
        `${model.path}/cac:PaymentMeans[${i + 1}]/cbc:PaymentMeansCode`,
      ),
    )
  for (const total of model.taxTotals)
    for (const subtotal of total.subtotals)
      for (const c of subtotal.categories) add('BR-CL-17', 'VAT_CATEGORY_CODES', c.id)
  for (const line of model.lines) {
    for (const c of line.classifiedTaxCategories) add('BR-CL-18', 'VAT_CATEGORY_CODES', c.id)
    for (const code of line.classificationCodes)
      add('BR-CL-13', 'ITEM_CLASSIFICATION_CODES', { value: code.attributes?.listID ?? '', path: code.path })
  }
  return codes
}

function paymentMeansOf(invoice: Json, root: string): Model['paymentMeans'] {
  return list(invoice.payment_means).map((means, i) => {
    const path = `${root}/cac:PaymentMeans[${i + 1}]`
    return {
      path,
      code: term(means.payment_means_code ?? 'ZZZ', `${path}/cbc:PaymentMeansCode`),
      accounts: [],
      cardNumbers: [],
    }
  })
}

function allowanceChargesOf(invoice: Json, root: string, currency: string): AllowanceCharge[] {
  return list(invoice.allowance_charge)
    .filter((ac) => typeof ac.amount === 'number')
    .map((ac, i) => {
      const path = `${root}/cac:AllowanceCharge[${i + 1}]`
      return {
        path,
        indicator: { value: String(ac.charge_indicator === true), path: `${path}/cbc:ChargeIndicator` },
        amount: term(ac.amount, `${path}/cbc:Amount`, { currencyID: currency }),
        taxCategories: [],
      }
    })
}

function precedingOf(invoice: Json, root: string): Model['precedingInvoices'] {
  return list(invoice.billing_reference).map((ref, i, all) => {
    const path = `${root}/cac:BillingReference${all.length > 1 ? `[${i + 1}]` : ''}`
    return { path, id: term(ref.irn, `${path}/cac:InvoiceDocumentReference/cbc:ID`) }
  })
}

/** The one VAT category of the breakdown, which the lines then carry; undefined when there are several or none. */
function soleVatCategory(invoice: Json): Json | undefined {
  const vatCategories = list(invoice.tax_total)
    .flatMap((total) => list(total.tax_subtotal))
    .map((sub) => obj(sub.tax_category))
    .filter((c) => c !== undefined && category(c, '').vat)
  return vatCategories.length === 1 ? vatCategories[0] : undefined
}

/** The EN 16931 model of a stored (or validated) invoice record. */
export function modelFromInvoice(record: object): Model {
  const invoice = record as Json
  const mapping = typeCodeOf(String(invoice.invoice_type_code ?? ''))
  const credit = mapping.document === 'CreditNote'
  const root = `/${mapping.document}`
  const currency = text(invoice.document_currency_code) ?? ''
  const lineCategory = soleVatCategory(invoice)
  const period = obj(invoice.invoice_delivery_period)
  const model: Model = {
    kind: mapping.document,
    path: root,
    id: term(invoice.irn, `${root}/cbc:ID`),
    issueDate: term(invoice.issue_date, `${root}/cbc:IssueDate`),
    typeCode: term(mapping.uncl, `${root}/cbc:${credit ? 'CreditNoteTypeCode' : 'InvoiceTypeCode'}`),
    currency: term(invoice.document_currency_code, `${root}/cbc:DocumentCurrencyCode`),
    taxCurrencies: [term(invoice.tax_currency_code, `${root}/cbc:TaxCurrencyCode`)].filter(
      (t) => t !== undefined,
    ),
    taxPointDate: term(invoice.tax_point_date, `${root}/cbc:TaxPointDate`),
    notes: [],
    periods: period
      ? [
          {
            path: `${root}/cac:InvoicePeriod`,
            start: term(period.start_date, `${root}/cac:InvoicePeriod/cbc:StartDate`),
            end: term(period.end_date, `${root}/cac:InvoicePeriod/cbc:EndDate`),
            hasChildren: true,
          },
        ]
      : [],
    precedingInvoices: precedingOf(invoice, root),
    additionalDocuments: [],
    seller: {
      path: `${root}/cac:AccountingSupplierParty`,
      party: party(
        invoice.accounting_supplier_party,
        `${root}/cac:AccountingSupplierParty/cac:Party`,
        invoice.business_id,
      ),
    },
    buyer: {
      path: `${root}/cac:AccountingCustomerParty`,
      party: party(invoice.accounting_customer_party, `${root}/cac:AccountingCustomerParty/cac:Party`),
    },
    payee: party(invoice.payee_party, `${root}/cac:PayeeParty`),
    taxRepresentative: party(invoice.tax_representative_party, `${root}/cac:TaxRepresentativeParty`),
    deliveries: [],
    paymentMeans: paymentMeansOf(invoice, root),
    allowanceCharges: allowanceChargesOf(invoice, root, currency),
    taxTotals: taxTotals(invoice, root, currency),
    totals: totalsOf(obj(invoice.legal_monetary_total), root, currency),
    lines: list(invoice.invoice_line).map((line, i) => lineOf(line, i, credit, currency, lineCategory)),
    codes: [],
  }
  model.codes = codesOf(model, invoice)
  return model
}
