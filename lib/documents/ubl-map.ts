import { TYPE_CODES, type UblDocument } from './type-codes.ts'
import { TEST_NOTE } from './ubl.ts'
import { UBL_NS } from './ubl-namespaces.ts'
import type { XmlElement } from './xml-reader.ts'

/**
 * A UBL 2.1 Invoice or CreditNote, read by lib/documents/xml-reader.ts and found schema-valid, mapped
 * to the invoice record (CONTRACT 22): the inverse of lib/documents/ubl.ts, field by field as its
 * header lists them, so every document the service exports maps back to the invoice it came from.
 * Pure. Beside the invoice it gives, for every field it set, the XPath of the element the value came
 * from, so that a problem the rules find at a record path is reported at the element at fault.
 *
 * Codes: the invoice type is the `name` attribute of the type code when it is one of the authority's
 * (what the export writes), else the UNCL 1001 code read backwards through the explicit map of
 * CONTRACT 16 (lib/documents/type-codes.ts); a tax category given in EN 16931's UNCL 5305 codes (S, Z,
 * AA) under the VAT or GST scheme is the authority's category of that scheme (S + VAT: STANDARD_VAT).
 */

type Json = Record<string, unknown>

export interface MappingProblem {
  /** The XPath of the element at fault. */
  path: string
  message: string
}

export interface MappedUbl {
  invoice: Json
  /** Record path (`invoice_line/0/item/name`) -> the XPath its value came from. */
  xpaths: Map<string, string>
  problems: MappingProblem[]
}

/** UNCL 1001 -> the authority's code, for a type code without the authority's own in `name`. */
const FROM_UNCL: Readonly<Record<string, string>> = (() => {
  const reverse: Record<string, string> = {}
  for (const [authority, mapping] of Object.entries(TYPE_CODES)) {
    // Only the exact ones: UNCL 380 is the commercial invoice (381), not the statement of account
    // the export also writes as 380 with its own code beside it; the first of 385 and 394 (both 389).
    if (mapping.exact && reverse[mapping.uncl] === undefined) reverse[mapping.uncl] = authority
  }
  return reverse
})()

/** EN 16931's VAT category codes (UNCL 5305) the authority's list has a category for, by tax scheme. */
const UNCL_5305: Readonly<Record<string, string>> = { S: 'STANDARD', Z: 'ZERO', AA: 'REDUCED' }

const child = (at: XmlElement | undefined, prefix: 'cac' | 'cbc', name: string) =>
  at?.children.find((c) => c.name === name && c.ns === UBL_NS[prefix])
const childrenOf = (at: XmlElement | undefined, prefix: 'cac' | 'cbc', name: string) =>
  at ? at.children.filter((c) => c.name === name && c.ns === UBL_NS[prefix]) : []

/** Element text as the schema's whitespace rule reads it: trimmed (token, normalizedString, decimal). */
const textOf = (at: XmlElement | undefined) => (at ? at.text.trim() : undefined)

/** What the mapping functions read with: values noted with the XPath they came from. */
interface Reader {
  credit: boolean
  problems: MappingProblem[]
  noted: (path: string, at: XmlElement | undefined) => void
  text: (path: string, at: XmlElement | undefined) => string | undefined
  number: (path: string, at: XmlElement | undefined) => number | undefined
  cbcText: (path: string, at: XmlElement | undefined, name: string) => string | undefined
  cbcNumber: (path: string, at: XmlElement | undefined, name: string) => number | undefined
}

function readerOf(xpaths: Map<string, string>, credit: boolean): Reader {
  const noted = (path: string, at: XmlElement | undefined) => {
    if (at) xpaths.set(path, at.path)
  }
  const text = (path: string, at: XmlElement | undefined): string | undefined => {
    const value = textOf(at)
    if (value !== undefined) noted(path, at)
    return value
  }
  const number = (path: string, at: XmlElement | undefined): number | undefined => {
    const value = text(path, at)
    return value === undefined ? undefined : Number(value)
  }
  return {
    credit,
    problems: [],
    noted,
    text,
    number,
    cbcText: (path, at, name) => text(path, child(at, 'cbc', name)),
    cbcNumber: (path, at, name) => number(path, child(at, 'cbc', name)),
  }
}

function refOf(r: Reader, path: string, at: XmlElement | undefined): Json | undefined {
  if (!at) return undefined
  r.noted(path, at)
  return compact({
    irn: r.cbcText(`${path}/irn`, at, 'ID'),
    issue_date: r.cbcText(`${path}/issue_date`, at, 'IssueDate'),
  })
}

const refsOf = (r: Reader, path: string, elements: XmlElement[]) =>
  nonEmpty(elements.map((e, i) => refOf(r, `${path}/${i}`, e) ?? {}))

function partyOf(r: Reader, path: string, at: XmlElement | undefined): Json | undefined {
  if (!at) return undefined
  r.noted(path, at)
  const ids = childrenOf(at, 'cac', 'PartyIdentification')
  const own = ids.map((i) => child(i, 'cbc', 'ID')).find((id) => id && id.attributes.schemeName === undefined)
  const address = child(at, 'cac', 'PostalAddress')
  const contact = child(at, 'cac', 'Contact')
  const a = `${path}/postal_address`
  if (address) r.noted(a, address)
  return compact({
    id: r.text(`${path}/id`, own),
    party_name: r.text(`${path}/party_name`, child(child(at, 'cac', 'PartyName'), 'cbc', 'Name')),
    tin: r.text(`${path}/tin`, child(child(at, 'cac', 'PartyTaxScheme'), 'cbc', 'CompanyID')),
    email: r.cbcText(`${path}/email`, contact, 'ElectronicMail'),
    telephone: r.cbcText(`${path}/telephone`, contact, 'Telephone'),
    business_description: r.text(
      `${path}/business_description`,
      child(child(at, 'cac', 'PartyLegalEntity'), 'cbc', 'CompanyLegalForm'),
    ),
    postal_address_id: r.cbcText(`${path}/postal_address_id`, address, 'ID'),
    postal_address: compact({
      street_name: r.cbcText(`${a}/street_name`, address, 'StreetName'),
      city_name: r.cbcText(`${a}/city_name`, address, 'CityName'),
      postal_zone: r.cbcText(`${a}/postal_zone`, address, 'PostalZone'),
      lga: r.cbcText(`${a}/lga`, address, 'District'),
      state: r.cbcText(`${a}/state`, address, 'CountrySubentityCode'),
      country: r.cbcText(`${a}/country`, child(address, 'cac', 'Country'), 'IdentificationCode'),
    }),
  })
}

/** A percent from UBL's factor (0.075 -> 7.5), moved by its decimal text, not binary arithmetic. */
function percentOf(r: Reader, path: string, at: XmlElement | undefined): number | undefined {
  const factor = r.text(path, at)
  return factor === undefined ? undefined : Number(`${factor}e2`)
}

function lineOf(r: Reader, at: XmlElement, index: number): Json {
  const path = `invoice_line/${index}`
  r.noted(path, at)
  const charges = childrenOf(at, 'cac', 'AllowanceCharge')
  const charge = (reason: string) =>
    charges.find((c) => textOf(child(c, 'cbc', 'AllowanceChargeReason')) === reason)
  const discount = charge('Discount')
  const fee = charge('Fee')
  const price = child(at, 'cac', 'Price')
  if (price) r.noted(`${path}/price`, price)
  return (
    compact({
      invoiced_quantity: r.cbcNumber(
        `${path}/invoiced_quantity`,
        at,
        r.credit ? 'CreditedQuantity' : 'InvoicedQuantity',
      ),
      line_extension_amount: r.cbcNumber(`${path}/line_extension_amount`, at, 'LineExtensionAmount'),
      discount_rate: percentOf(r, `${path}/discount_rate`, child(discount, 'cbc', 'MultiplierFactorNumeric')),
      discount_amount: r.cbcNumber(`${path}/discount_amount`, discount, 'Amount'),
      fee_rate: percentOf(r, `${path}/fee_rate`, child(fee, 'cbc', 'MultiplierFactorNumeric')),
      fee_amount: r.cbcNumber(`${path}/fee_amount`, fee, 'Amount'),
      ...itemOf(r, path, child(at, 'cac', 'Item')),
      price: compact({
        price_amount: r.cbcNumber(`${path}/price/price_amount`, price, 'PriceAmount'),
        base_quantity: r.cbcNumber(`${path}/price/base_quantity`, price, 'BaseQuantity'),
        price_unit: r.cbcText(`${path}/price/price_unit`, price, 'PriceType'),
      }),
    }) ?? {}
  )
}

/** A line's item and what the export writes inside cac:Item (codes, categories). */
function itemOf(r: Reader, path: string, item: XmlElement | undefined): Json {
  if (item) r.noted(`${path}/item`, item)
  const classifications = childrenOf(item, 'cac', 'CommodityClassification').map((c) =>
    child(c, 'cbc', 'ItemClassificationCode'),
  )
  const classification = (listID: string) => classifications.find((c) => c?.attributes.listID === listID)
  const properties = childrenOf(item, 'cac', 'AdditionalItemProperty')
  const property = (name: string) =>
    child(
      properties.find((p) => textOf(child(p, 'cbc', 'Name')) === name),
      'cbc',
      'Value',
    )
  return {
    item: compact({
      name: r.cbcText(`${path}/item/name`, item, 'Name'),
      description: r.cbcText(`${path}/item/description`, item, 'Description'),
      sellers_item_identification: r.cbcText(
        `${path}/item/sellers_item_identification`,
        child(item, 'cac', 'SellersItemIdentification'),
        'ID',
      ),
    }),
    hsn_code: r.text(`${path}/hsn_code`, classification('HS')),
    isic_code: r.text(`${path}/isic_code`, classification('ISIC')),
    product_category: r.text(`${path}/product_category`, property('product_category')),
    service_category: r.text(`${path}/service_category`, property('service_category')),
  }
}

/** The authority's invoice type code of the document's type code element. */
function invoiceTypeCodeOf(r: Reader, root: XmlElement): string | undefined {
  const element = child(root, 'cbc', r.credit ? 'CreditNoteTypeCode' : 'InvoiceTypeCode')
  if (!element) return undefined
  r.noted('invoice_type_code', element)
  const uncl = textOf(element)!
  const own = element.attributes.name?.trim()
  if (own !== undefined && TYPE_CODES[own]) {
    if (TYPE_CODES[own].uncl === uncl) return own
    r.problems.push({
      path: element.path,
      message: `The type code's name ${own} is the authority's ${TYPE_CODES[own].name}, which is UNCL 1001 ${TYPE_CODES[own].uncl}, not ${uncl}: send the two that belong together, or the UNCL code alone`,
    })
    return undefined
  }
  const mapped = FROM_UNCL[uncl]
  if (mapped) return mapped
  r.problems.push({
    path: element.path,
    message: `UNCL 1001 document type ${uncl} has no counterpart among the authority's invoice types: use one of ${Object.keys(FROM_UNCL).join(', ')}, or give the authority's code in the name attribute`,
  })
  return undefined
}

/** The document-level fields before the parties: identity, dates, codes, notes, references. */
function headerOf(r: Reader, root: XmlElement): Json {
  const supplier = child(child(root, 'cac', 'AccountingSupplierParty'), 'cac', 'Party')
  const businessId = childrenOf(supplier, 'cac', 'PartyIdentification')
    .map((i) => child(i, 'cbc', 'ID'))
    .find((id) => id?.attributes.schemeName === 'business_id')
  const period = child(root, 'cac', 'InvoicePeriod')
  if (period) r.noted('invoice_delivery_period', period)
  const paymentTerms = child(root, 'cac', 'PaymentTerms')
  return {
    irn: r.cbcText('irn', root, 'ID'),
    business_id: r.text('business_id', businessId),
    issue_date: r.cbcText('issue_date', root, 'IssueDate'),
    issue_time: r.cbcText('issue_time', root, 'IssueTime'),
    due_date: r.credit
      ? r.cbcText('due_date', paymentTerms, 'PaymentDueDate')
      : r.cbcText('due_date', root, 'DueDate'),
    invoice_type_code: invoiceTypeCodeOf(r, root),
    invoice_kind: r.cbcText('invoice_kind', root, 'ProfileID'),
    // Lifecycle, not content: the export leaves it out, and an invoice sent is PENDING.
    payment_status: 'PENDING',
    // The export's first note in test mode says so (./ubl.ts TEST_NOTE): the invoice's own is the last.
    note: r.text(
      'note',
      childrenOf(root, 'cbc', 'Note')
        .filter((n) => n.text !== TEST_NOTE)
        .at(-1),
    ),
    tax_point_date: r.cbcText('tax_point_date', root, 'TaxPointDate'),
    document_currency_code: r.cbcText('document_currency_code', root, 'DocumentCurrencyCode'),
    tax_currency_code: r.cbcText('tax_currency_code', root, 'TaxCurrencyCode'),
    accounting_cost: r.cbcText('accounting_cost', root, 'AccountingCost'),
    buyer_reference: r.cbcText('buyer_reference', root, 'BuyerReference'),
    invoice_delivery_period: period
      ? compact({
          start_date: r.cbcText('invoice_delivery_period/start_date', period, 'StartDate'),
          end_date: r.cbcText('invoice_delivery_period/end_date', period, 'EndDate'),
        })
      : undefined,
    order_reference: r.cbcText('order_reference', child(root, 'cac', 'OrderReference'), 'ID'),
    payment_terms_note: r.cbcText('payment_terms_note', paymentTerms, 'Note'),
    ...referencesOf(r, root),
  }
}

function referencesOf(r: Reader, root: XmlElement): Json {
  const additional = childrenOf(root, 'cac', 'AdditionalDocumentReference')
  const isDocumentReference = (e: XmlElement) =>
    textOf(child(e, 'cbc', 'DocumentType')) === 'document_reference'
  return {
    billing_reference: refsOf(
      r,
      'billing_reference',
      childrenOf(root, 'cac', 'BillingReference')
        .map((b) => child(b, 'cac', 'InvoiceDocumentReference'))
        .filter((e): e is XmlElement => e !== undefined),
    ),
    dispatch_document_reference: refOf(
      r,
      'dispatch_document_reference',
      child(root, 'cac', 'DespatchDocumentReference'),
    ),
    receipt_document_reference: refOf(
      r,
      'receipt_document_reference',
      child(root, 'cac', 'ReceiptDocumentReference'),
    ),
    originator_document_reference: refOf(
      r,
      'originator_document_reference',
      child(root, 'cac', 'OriginatorDocumentReference'),
    ),
    contract_document_reference: refOf(
      r,
      'contract_document_reference',
      child(root, 'cac', 'ContractDocumentReference'),
    ),
    document_reference: refsOf(r, 'document_reference', additional.filter(isDocumentReference)),
    additional_document_reference: refsOf(
      r,
      'additional_document_reference',
      additional.filter((e) => !isDocumentReference(e)),
    ),
  }
}

function partiesOf(r: Reader, root: XmlElement): Json {
  const delivery = child(root, 'cac', 'Delivery')
  return {
    accounting_supplier_party: partyOf(
      r,
      'accounting_supplier_party',
      child(child(root, 'cac', 'AccountingSupplierParty'), 'cac', 'Party'),
    ),
    accounting_customer_party: partyOf(
      r,
      'accounting_customer_party',
      child(child(root, 'cac', 'AccountingCustomerParty'), 'cac', 'Party'),
    ),
    payee_party: partyOf(r, 'payee_party', child(root, 'cac', 'PayeeParty')),
    bill_party: partyOf(r, 'bill_party', child(child(root, 'cac', 'BuyerCustomerParty'), 'cac', 'Party')),
    ship_party: partyOf(r, 'ship_party', child(delivery, 'cac', 'DeliveryParty')),
    tax_representative_party: partyOf(
      r,
      'tax_representative_party',
      child(root, 'cac', 'TaxRepresentativeParty'),
    ),
    actual_delivery_date: r.cbcText('actual_delivery_date', delivery, 'ActualDeliveryDate'),
  }
}

/** Payment means, document allowances and charges, tax totals and the monetary total. */
function amountsOf(r: Reader, root: XmlElement): Json {
  const total = child(root, 'cac', 'LegalMonetaryTotal')
  if (total) r.noted('legal_monetary_total', total)
  const t = 'legal_monetary_total'
  return {
    payment_means: nonEmpty(
      childrenOf(root, 'cac', 'PaymentMeans').map((m, i) => {
        r.noted(`payment_means/${i}`, m)
        const code = r.cbcText(`payment_means/${i}/payment_means_code`, m, 'PaymentMeansCode')
        return (
          compact({
            // "ZZZ" is what the export writes for a means without a code.
            payment_means_code: code === 'ZZZ' ? undefined : code,
            payment_due_date: r.cbcText(`payment_means/${i}/payment_due_date`, m, 'PaymentDueDate'),
          }) ?? {}
        )
      }),
    ),
    allowance_charge: nonEmpty(
      childrenOf(root, 'cac', 'AllowanceCharge').map((a, i) => {
        r.noted(`allowance_charge/${i}`, a)
        return {
          charge_indicator:
            r.cbcText(`allowance_charge/${i}/charge_indicator`, a, 'ChargeIndicator') === 'true',
          amount: r.cbcNumber(`allowance_charge/${i}/amount`, a, 'Amount'),
        }
      }),
    ),
    tax_total: childrenOf(root, 'cac', 'TaxTotal').map((tax, i) => taxTotalOf(r, tax, `tax_total/${i}`)),
    legal_monetary_total: compact({
      line_extension_amount: r.cbcNumber(`${t}/line_extension_amount`, total, 'LineExtensionAmount'),
      tax_exclusive_amount: r.cbcNumber(`${t}/tax_exclusive_amount`, total, 'TaxExclusiveAmount'),
      tax_inclusive_amount: r.cbcNumber(`${t}/tax_inclusive_amount`, total, 'TaxInclusiveAmount'),
      payable_amount: r.cbcNumber(`${t}/payable_amount`, total, 'PayableAmount'),
    }),
  }
}

function taxTotalOf(r: Reader, tax: XmlElement, at: string): Json {
  r.noted(at, tax)
  return {
    tax_amount: r.cbcNumber(`${at}/tax_amount`, tax, 'TaxAmount'),
    tax_subtotal: childrenOf(tax, 'cac', 'TaxSubtotal').map((sub, s) => {
      const path = `${at}/tax_subtotal/${s}`
      r.noted(path, sub)
      const category = child(sub, 'cac', 'TaxCategory')
      if (category) r.noted(`${path}/tax_category`, category)
      return compact({
        taxable_amount: r.cbcNumber(`${path}/taxable_amount`, sub, 'TaxableAmount'),
        tax_amount: r.cbcNumber(`${path}/tax_amount`, sub, 'TaxAmount'),
        tax_category_percent: r.cbcNumber(`${path}/tax_category_percent`, sub, 'Percent'),
        tax_category: compact({
          id: categoryOf(
            r.cbcText(`${path}/tax_category/id`, category, 'ID'),
            textOf(child(child(category, 'cac', 'TaxScheme'), 'cbc', 'ID')),
          ),
          percent: r.cbcNumber(`${path}/tax_category/percent`, category, 'Percent'),
        }),
      })
    }),
  }
}

export function mapUbl(root: XmlElement): MappedUbl {
  const xpaths = new Map<string, string>()
  const credit = (root.name as UblDocument) === 'CreditNote'
  const r = readerOf(xpaths, credit)
  const invoice = compact({
    ...headerOf(r, root),
    ...partiesOf(r, root),
    ...amountsOf(r, root),
    invoice_line: childrenOf(root, 'cac', credit ? 'CreditNoteLine' : 'InvoiceLine').map((l, i) =>
      lineOf(r, l, i),
    ),
  })!
  return { invoice, xpaths, problems: r.problems }
}

/** The authority's category for a category id: its own as sent, EN 16931's (S, Z, AA) by the tax scheme. */
function categoryOf(id: string | undefined, scheme: string | undefined): string | undefined {
  const kind = id === undefined ? undefined : UNCL_5305[id]
  if (kind && (scheme === 'VAT' || scheme === 'GST')) return `${kind}_${scheme}`
  return id
}

/** Drops undefined values, and the whole object when nothing is left. */
function compact(o: Json): Json | undefined {
  const kept = Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined))
  return Object.keys(kept).length ? kept : undefined
}
const nonEmpty = <T>(items: T[]): T[] | undefined => (items.length ? items : undefined)

/**
 * The XPath for a record path a problem names: the element its value came from, else (a field that
 * is missing) that of its nearest ancestor that was read, else the document's root.
 */
export function xpathOf(recordPath: string, xpaths: ReadonlyMap<string, string>, rootPath: string): string {
  const segments = recordPath.split('/').filter(Boolean)
  for (let n = segments.length; n > 0; n--) {
    const found = xpaths.get(segments.slice(0, n).join('/'))
    if (found) return found
  }
  return rootPath
}
