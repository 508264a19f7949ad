import type { XmlElement } from '../documents/xml-reader.js'
import type {
  AllowanceCharge,
  CodedValue,
  Line,
  Model,
  Party,
  Period,
  TaxCategory,
  TaxSubtotal,
  TaxTotal,
  Term,
} from './model.js'

/**
 * The EN 16931 model of a UBL 2.1 Invoice or CreditNote, as the official UBL binding reads it: each
 * term from the element the artefact's rules name (EN16931-UBL-model.sch), in one pass over the
 * document (no rule scans it again).
 */

const CAC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2'
const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2'

const kids = (element: XmlElement | undefined, ns: string, name: string): XmlElement[] =>
  element ? element.children.filter((child) => child.ns === ns && child.name === name) : []
const kid = (element: XmlElement | undefined, ns: string, name: string): XmlElement | undefined =>
  element?.children.find((child) => child.ns === ns && child.name === name)
const cac = (element: XmlElement | undefined, name: string) => kid(element, CAC, name)
const cacs = (element: XmlElement | undefined, name: string) => kids(element, CAC, name)

/** The string value of an element (its own text and its descendants', as XPath's string()). */
function stringValue(element: XmlElement): string {
  if (element.children.length === 0) return element.text
  let text = element.text
  for (const child of element.children) text += stringValue(child)
  return text
}

function term(element: XmlElement | undefined): Term | undefined {
  if (!element) return undefined
  const attributes = Object.keys(element.attributes).length > 0 ? { ...element.attributes } : undefined
  return { value: stringValue(element), path: element.path, ...(attributes ? { attributes } : {}) }
}
const cbc = (element: XmlElement | undefined, name: string) => term(kid(element, CBC, name))
const cbcs = (element: XmlElement | undefined, name: string) =>
  kids(element, CBC, name).map((child) => term(child) as Term)

const isVatScheme = (element: XmlElement) => {
  const id = cbc(cac(element, 'TaxScheme'), 'ID')
  return id !== undefined && id.value.trim().toUpperCase() === 'VAT'
}

function taxCategory(element: XmlElement): TaxCategory {
  return {
    path: element.path,
    id: cbc(element, 'ID'),
    percent: cbc(element, 'Percent'),
    vat: isVatScheme(element),
    exemptionReason: cbc(element, 'TaxExemptionReason'),
    exemptionReasonCode: cbc(element, 'TaxExemptionReasonCode'),
  }
}

function allowanceCharge(element: XmlElement): AllowanceCharge {
  return {
    path: element.path,
    indicator: cbc(element, 'ChargeIndicator'),
    amount: cbc(element, 'Amount'),
    baseAmount: cbc(element, 'BaseAmount'),
    reason: cbc(element, 'AllowanceChargeReason'),
    reasonCode: cbc(element, 'AllowanceChargeReasonCode'),
    taxCategories: cacs(element, 'TaxCategory').map(taxCategory),
  }
}

function period(element: XmlElement): Period {
  return {
    path: element.path,
    start: cbc(element, 'StartDate'),
    end: cbc(element, 'EndDate'),
    descriptionCode: cbc(element, 'DescriptionCode'),
    hasChildren: element.children.length > 0,
  }
}

function party(element: XmlElement | undefined): Party | undefined {
  if (!element) return undefined
  const address = cac(element, 'PostalAddress')
  return {
    path: element.path,
    registrationName: cbc(cac(element, 'PartyLegalEntity'), 'RegistrationName'),
    names: cacs(element, 'PartyName').flatMap((name) => cbcs(name, 'Name')),
    identifiers: cacs(element, 'PartyIdentification').flatMap((id) => cbcs(id, 'ID')),
    legalCompanyIds: cacs(element, 'PartyLegalEntity').flatMap((entity) => cbcs(entity, 'CompanyID')),
    taxSchemes: cacs(element, 'PartyTaxScheme').map((scheme) => ({
      path: scheme.path,
      companyId: cbc(scheme, 'CompanyID'),
      vat: isVatScheme(scheme),
    })),
    address: address
      ? { path: address.path, country: cbc(cac(address, 'Country'), 'IdentificationCode') }
      : undefined,
    endpoint: cbc(element, 'EndpointID'),
  }
}

function line(element: XmlElement): Line {
  const item = cac(element, 'Item')
  const price = cac(element, 'Price')
  return {
    path: element.path,
    id: cbc(element, 'ID'),
    quantity: cbc(element, 'InvoicedQuantity') ?? cbc(element, 'CreditedQuantity'),
    lineExtensionAmount: cbc(element, 'LineExtensionAmount'),
    itemName: cbc(item, 'Name'),
    priceAmount: cbc(price, 'PriceAmount'),
    priceAllowanceCharges: cacs(price, 'AllowanceCharge').map(allowanceCharge),
    classifiedTaxCategories: cacs(item, 'ClassifiedTaxCategory').map(taxCategory),
    allowanceCharges: cacs(element, 'AllowanceCharge').map(allowanceCharge),
    periods: cacs(element, 'InvoicePeriod').map(period),
    standardIds: cacs(item, 'StandardItemIdentification').flatMap((id) => cbcs(id, 'ID')),
    classificationCodes: cacs(item, 'CommodityClassification').flatMap((code) =>
      cbcs(code, 'ItemClassificationCode'),
    ),
    properties: cacs(item, 'AdditionalItemProperty').map((property) => ({
      path: property.path,
      name: cbc(property, 'Name'),
      value: cbc(property, 'Value'),
    })),
  }
}

function taxTotal(element: XmlElement): TaxTotal {
  return {
    path: element.path,
    taxAmounts: cbcs(element, 'TaxAmount'),
    subtotals: cacs(element, 'TaxSubtotal').map(
      (subtotal): TaxSubtotal => ({
        path: subtotal.path,
        taxableAmount: cbc(subtotal, 'TaxableAmount'),
        taxAmount: cbc(subtotal, 'TaxAmount'),
        categories: cacs(subtotal, 'TaxCategory').map(taxCategory),
      }),
    ),
  }
}

const AMOUNTS = new Set([
  'Amount',
  'BaseAmount',
  'PriceAmount',
  'TaxAmount',
  'TaxableAmount',
  'LineExtensionAmount',
  'TaxExclusiveAmount',
  'TaxInclusiveAmount',
  'AllowanceTotalAmount',
  'ChargeTotalAmount',
  'PrepaidAmount',
  'PayableRoundingAmount',
  'PayableAmount',
])

interface CodeContext {
  element: XmlElement
  parent: XmlElement | undefined
  parentName: string
  ancestors: ReadonlySet<string>
}

/**
 * The BR-CL rule contexts of EN16931-UBL-codes.sch, in the artefact's order (the first that matches
 * an element checks it): the element, the rule, the list, and the value checked (text or attribute).
 */
const CODE_CONTEXTS: [
  (c: CodeContext) => boolean,
  string,
  (c: CodeContext) => string,
  (c: CodeContext) => string,
][] = [
  [
    ({ element }) => element.name === 'InvoiceTypeCode',
    'BR-CL-01',
    () => 'INVOICE_TYPE_CODES',
    ({ element }) => element.text,
  ],
  [
    ({ element }) => element.name === 'CreditNoteTypeCode',
    'BR-CL-01',
    () => 'CREDIT_NOTE_TYPE_CODES',
    ({ element }) => element.text,
  ],
  [
    ({ element }) => AMOUNTS.has(element.name),
    'BR-CL-03',
    () => 'CURRENCY_CODES',
    ({ element }) => element.attributes.currencyID ?? '',
  ],
  [
    ({ element }) => element.name === 'DocumentCurrencyCode',
    'BR-CL-04',
    () => 'CURRENCY_CODES',
    ({ element }) => element.text,
  ],
  [
    ({ element }) => element.name === 'TaxCurrencyCode',
    'BR-CL-05',
    () => 'CURRENCY_CODES',
    ({ element }) => element.text,
  ],
  [
    ({ element, parentName }) => element.name === 'DescriptionCode' && parentName === 'InvoicePeriod',
    'BR-CL-06',
    () => 'PERIOD_DESCRIPTION_CODES',
    ({ element }) => element.text,
  ],
  [
    ({ element, parent, parentName }) =>
      element.name === 'ID' &&
      element.attributes.schemeID !== undefined &&
      (parentName === 'AdditionalDocumentReference' || parentName === 'DocumentReference') &&
      kids(parent, CBC, 'DocumentTypeCode').some((code) => stringValue(code) === '130'),
    'BR-CL-07',
    () => 'OBJECT_SCHEME_CODES',
    ({ element }) => element.attributes.schemeID ?? '',
  ],
  [
    ({ element, parentName }) =>
      element.name === 'ID' &&
      element.attributes.schemeID !== undefined &&
      parentName === 'PartyIdentification',
    'BR-CL-10',
    ({ ancestors }) =>
      ancestors.has('AccountingSupplierParty') || ancestors.has('PayeeParty') ? 'ICD_OR_SEPA' : 'ICD_CODES',
    ({ element }) => element.attributes.schemeID ?? '',
  ],
  [
    ({ element, parentName }) =>
      element.name === 'CompanyID' &&
      parentName === 'PartyLegalEntity' &&
      element.attributes.schemeID !== undefined,
    'BR-CL-11',
    () => 'ICD_CODES',
    ({ element }) => element.attributes.schemeID ?? '',
  ],
  [
    ({ element, parentName }) =>
      element.name === 'ItemClassificationCode' &&
      parentName === 'CommodityClassification' &&
      element.attributes.listID !== undefined,
    'BR-CL-13',
    () => 'ITEM_CLASSIFICATION_CODES',
    ({ element }) => element.attributes.listID ?? '',
  ],
  [
    ({ element, parentName }) => element.name === 'IdentificationCode' && parentName === 'Country',
    'BR-CL-14',
    () => 'COUNTRY_CODES',
    ({ element }) => element.text,
  ],
  [
    ({ element, parentName }) => element.name === 'IdentificationCode' && parentName === 'OriginCountry',
    'BR-CL-15',
    () => 'COUNTRY_CODES',
    ({ element }) => element.text,
  ],
  [
    ({ element, parentName }) => element.name === 'PaymentMeansCode' && parentName === 'PaymentMeans',
    'BR-CL-16',
    () => 'PAYMENT_MEANS_CODES',
    ({ element }) => element.text,
  ],
  [
    ({ element, parentName }) => element.name === 'ID' && parentName === 'TaxCategory',
    'BR-CL-17',
    () => 'VAT_CATEGORY_CODES',
    ({ element }) => element.text,
  ],
  [
    ({ element, parentName }) => element.name === 'ID' && parentName === 'ClassifiedTaxCategory',
    'BR-CL-18',
    () => 'VAT_CATEGORY_CODES',
    ({ element }) => element.text,
  ],
  [
    ({ element, parent, parentName }) =>
      element.name === 'AllowanceChargeReasonCode' &&
      parentName === 'AllowanceCharge' &&
      booleanOf(cbc(parent, 'ChargeIndicator')) === false,
    'BR-CL-19',
    () => 'ALLOWANCE_REASON_CODES',
    ({ element }) => element.text,
  ],
  [
    ({ element, parent, parentName }) =>
      element.name === 'AllowanceChargeReasonCode' &&
      parentName === 'AllowanceCharge' &&
      booleanOf(cbc(parent, 'ChargeIndicator')) === true,
    'BR-CL-20',
    () => 'CHARGE_REASON_CODES',
    ({ element }) => element.text,
  ],
  [
    ({ element, parentName }) =>
      element.name === 'ID' &&
      element.attributes.schemeID !== undefined &&
      parentName === 'StandardItemIdentification',
    'BR-CL-21',
    () => 'ICD_CODES',
    ({ element }) => element.attributes.schemeID ?? '',
  ],
  [
    ({ element }) => element.name === 'TaxExemptionReasonCode',
    'BR-CL-22',
    () => 'EXEMPTION_REASON_CODES',
    ({ element }) => element.text,
  ],
  [
    ({ element }) => QUANTITIES.has(element.name) && element.attributes.unitCode !== undefined,
    'BR-CL-23',
    () => 'UNIT_CODES',
    ({ element }) => element.attributes.unitCode ?? '',
  ],
  [
    ({ element }) =>
      element.name === 'EmbeddedDocumentBinaryObject' && element.attributes.mimeCode !== undefined,
    'BR-CL-24',
    () => 'MIME_CODES',
    ({ element }) => element.attributes.mimeCode ?? '',
  ],
  [
    ({ element }) => element.name === 'EndpointID' && element.attributes.schemeID !== undefined,
    'BR-CL-25',
    () => 'EAS_CODES',
    ({ element }) => element.attributes.schemeID ?? '',
  ],
  [
    ({ element, parentName }) =>
      element.name === 'ID' && element.attributes.schemeID !== undefined && parentName === 'DeliveryLocation',
    'BR-CL-26',
    () => 'ICD_CODES',
    ({ element }) => element.attributes.schemeID ?? '',
  ],
]

const QUANTITIES = new Set(['InvoicedQuantity', 'BaseQuantity', 'CreditedQuantity'])

/** Every coded value of the document with the BR-CL rule whose context it matches. */
function collectCodes(root: XmlElement): CodedValue[] {
  const codes: CodedValue[] = []
  const visit = (element: XmlElement, parent: XmlElement | undefined, ancestors: ReadonlySet<string>) => {
    if (element.ns === CBC) {
      const context = { element, parent, parentName: parent?.ns === CAC ? parent.name : '', ancestors }
      const match = CODE_CONTEXTS.find(([applies]) => applies(context))
      if (match)
        codes.push({ rule: match[1], list: match[2](context), value: match[3](context), path: element.path })
      return
    }
    const next = element.ns === CAC ? new Set([...ancestors, element.name]) : ancestors
    for (const child of element.children) visit(child, element, next)
  }
  visit(root, undefined, new Set())
  return codes
}

/** xs:boolean of an element's text: true for 'true'/'1', false for 'false'/'0', undefined otherwise. */
export function booleanOf(indicator: Term | undefined): boolean | undefined {
  const value = indicator?.value.trim()
  if (value === 'true' || value === '1') return true
  if (value === 'false' || value === '0') return false
  return undefined
}

function totalsOf(totals: XmlElement): NonNullable<Model['totals']> {
  return {
    path: totals.path,
    lineExtensionAmount: cbc(totals, 'LineExtensionAmount'),
    taxExclusiveAmount: cbc(totals, 'TaxExclusiveAmount'),
    taxInclusiveAmount: cbc(totals, 'TaxInclusiveAmount'),
    allowanceTotalAmount: cbc(totals, 'AllowanceTotalAmount'),
    chargeTotalAmount: cbc(totals, 'ChargeTotalAmount'),
    prepaidAmount: cbc(totals, 'PrepaidAmount'),
    payableRoundingAmount: cbc(totals, 'PayableRoundingAmount'),
    payableAmount: cbc(totals, 'PayableAmount'),
  }
}

function deliveryOf(delivery: XmlElement): Model['deliveries'][number] {
  const address = cac(cac(delivery, 'DeliveryLocation'), 'Address')
  return {
    path: delivery.path,
    actualDate: cbc(delivery, 'ActualDeliveryDate'),
    address: address
      ? { path: address.path, country: cbc(cac(address, 'Country'), 'IdentificationCode') }
      : undefined,
  }
}

export function modelFromUbl(root: XmlElement): Model {
  const kind = root.name === 'CreditNote' ? 'CreditNote' : 'Invoice'
  const supplier = cac(root, 'AccountingSupplierParty')
  const customer = cac(root, 'AccountingCustomerParty')
  const totals = cac(root, 'LegalMonetaryTotal')
  return {
    kind,
    path: root.path,
    customizationId: cbc(root, 'CustomizationID'),
    id: cbc(root, 'ID'),
    issueDate: cbc(root, 'IssueDate'),
    typeCode: cbc(root, kind === 'CreditNote' ? 'CreditNoteTypeCode' : 'InvoiceTypeCode'),
    currency: cbc(root, 'DocumentCurrencyCode'),
    taxCurrencies: cbcs(root, 'TaxCurrencyCode'),
    taxPointDate: cbc(root, 'TaxPointDate'),
    notes: cbcs(root, 'Note'),
    periods: cacs(root, 'InvoicePeriod').map(period),
    precedingInvoices: cacs(root, 'BillingReference').map((reference) => ({
      path: reference.path,
      id: cbc(cac(reference, 'InvoiceDocumentReference'), 'ID'),
    })),
    additionalDocuments: cacs(root, 'AdditionalDocumentReference').map((reference) => ({
      path: reference.path,
      id: cbc(reference, 'ID'),
    })),
    seller: supplier ? { path: supplier.path, party: party(cac(supplier, 'Party')) } : undefined,
    buyer: customer ? { path: customer.path, party: party(cac(customer, 'Party')) } : undefined,
    payee: party(cac(root, 'PayeeParty')),
    taxRepresentative: party(cac(root, 'TaxRepresentativeParty')),
    deliveries: cacs(root, 'Delivery').map(deliveryOf),
    paymentMeans: cacs(root, 'PaymentMeans').map((means) => ({
      path: means.path,
      code: cbc(means, 'PaymentMeansCode'),
      accounts: cacs(means, 'PayeeFinancialAccount').map((account) => ({
        path: account.path,
        id: cbc(account, 'ID'),
      })),
      cardNumbers: cacs(means, 'CardAccount').flatMap((card) => cbcs(card, 'PrimaryAccountNumberID')),
    })),
    allowanceCharges: cacs(root, 'AllowanceCharge').map(allowanceCharge),
    taxTotals: cacs(root, 'TaxTotal').map(taxTotal),
    totals: totals ? totalsOf(totals) : undefined,
    lines: [...cacs(root, 'InvoiceLine'), ...cacs(root, 'CreditNoteLine')].map(line),
    codes: collectCodes(root),
  }
}
