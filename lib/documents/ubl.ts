import { type TypeCodeMapping, typeCodeOf } from './type-codes.ts'
import { UBL_NS } from './ubl-namespaces.ts'
import { decimalText, leaf, node, requiredNode, shiftLeft, XML_DECLARATION } from './xml.ts'

/**
 * The invoice as an OASIS UBL 2.1 document (CONTRACT section 16): `Invoice`, or `CreditNote` for the
 * authority's credit notes (lib/documents/type-codes.ts). Pure: the stored invoice in, the XML text
 * out, every element in the order the UBL 2.1 schemas require.
 *
 * Where each field goes:
 *   irn -> cbc:ID; issue_date, issue_time, due_date (a CreditNote: cac:PaymentTerms/cbc:PaymentDueDate,
 *   as UBL 2.1's CreditNote has no DueDate), tax_point_date, note, document_currency_code,
 *   tax_currency_code, accounting_cost, buyer_reference -> their cbc namesakes;
 *   invoice_type_code -> cbc:InvoiceTypeCode / cbc:CreditNoteTypeCode (UNCL 1001) with the authority's
 *   own code in its `name` attribute; invoice_kind (B2B, B2C, B2G) -> cbc:ProfileID;
 *   invoice_delivery_period -> cac:InvoicePeriod; order_reference -> cac:OrderReference/cbc:ID;
 *   billing_reference -> cac:BillingReference/cac:InvoiceDocumentReference; the dispatch, receipt,
 *   originator and contract references -> cac:Despatch/Receipt/Originator/ContractDocumentReference;
 *   document_reference and additional_document_reference -> cac:AdditionalDocumentReference (the first
 *   with cbc:DocumentType "document_reference"); accounting_supplier_party, accounting_customer_party,
 *   payee_party, tax_representative_party -> their cac namesakes, bill_party -> cac:BuyerCustomerParty,
 *   ship_party -> cac:Delivery/cac:DeliveryParty, actual_delivery_date -> cac:Delivery;
 *   payment_means -> cac:PaymentMeans; payment_terms_note -> cac:PaymentTerms/cbc:Note;
 *   allowance_charge -> cac:AllowanceCharge; tax_total -> cac:TaxTotal; legal_monetary_total ->
 *   cac:LegalMonetaryTotal; invoice_line -> cac:InvoiceLine / cac:CreditNoteLine.
 *   A party: business_id (the supplier's) and id -> cac:PartyIdentification (the first with
 *   schemeName "business_id"), party_name -> cac:PartyName, postal_address_id and postal_address ->
 *   cac:PostalAddress (state -> CountrySubentityCode, lga -> District), tin -> cac:PartyTaxScheme,
 *   business_description -> cac:PartyLegalEntity/cbc:CompanyLegalForm, telephone and email -> cac:Contact.
 *   A line: discount and fee -> cac:AllowanceCharge (reason "Discount" / "Fee", the rate in percent as
 *   cbc:MultiplierFactorNumeric), item -> cac:Item (hsn_code and isic_code as classification codes,
 *   product_category and service_category as item properties), price -> cac:Price (price_unit ->
 *   cbc:PriceType).
 *   payment_status is the invoice's lifecycle, not its content: UBL carries it in other documents
 *   (ApplicationResponse), never in the Invoice, so it is not exported.
 * Every amount carries the document currency.
 */

type Json = Record<string, unknown>
type Party = Json & { postal_address?: Json }

const NS = UBL_NS

export const UBL_CONTENT_TYPE = 'application/xml; charset=utf-8'

const str = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' ? decimalText(value) : undefined
const num = (value: unknown): string | undefined =>
  typeof value === 'number' ? decimalText(value) : undefined
const obj = (value: unknown): Json | undefined =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value.filter(obj) as Json[]) : [])

const cbc = (name: string, value: unknown, attributes?: Record<string, string | undefined>) =>
  leaf(`cbc:${name}`, str(value), attributes)
const cac = (name: string, children: readonly string[]) => node(`cac:${name}`, children)

function documentReference(name: string, ref: Json | undefined, documentType?: string): string {
  if (!ref) return ''
  return cac(name, [cbc('ID', ref.irn), cbc('IssueDate', ref.issue_date), cbc('DocumentType', documentType)])
}

function address(party: Party): string {
  const a = obj(party.postal_address)
  return cac('PostalAddress', [
    cbc('ID', party.postal_address_id),
    cbc('StreetName', a?.street_name),
    cbc('CityName', a?.city_name),
    cbc('PostalZone', a?.postal_zone),
    cbc('CountrySubentityCode', a?.state),
    cbc('District', a?.lga),
    cac('Country', [cbc('IdentificationCode', a?.country)]),
  ])
}

/** A party as `element` (a UBL PartyType: cac:Party, cac:PayeeParty, cac:DeliveryParty...). */
function party(value: unknown, element = 'cac:Party', businessId?: unknown): string {
  const p = obj(value) as Party | undefined
  if (!p) return ''
  return requiredNode(element, [
    cac('PartyIdentification', [cbc('ID', businessId, { schemeName: 'business_id' })]),
    cac('PartyIdentification', [cbc('ID', p.id)]),
    cac('PartyName', [cbc('Name', p.party_name)]),
    address(p),
    p.tin === undefined
      ? ''
      : cac('PartyTaxScheme', [cbc('CompanyID', p.tin), cac('TaxScheme', [cbc('ID', 'TIN')])]),
    cac('PartyLegalEntity', [cbc('CompanyLegalForm', p.business_description)]),
    cac('Contact', [cbc('Telephone', p.telephone), cbc('ElectronicMail', p.email)]),
  ])
}

/** The tax scheme of a category of the authority's list (STANDARD_VAT -> VAT; others as they are). */
const taxSchemeOf = (categoryId: string | undefined) =>
  /_(VAT|GST)$/.exec(categoryId ?? '')?.[1] ?? categoryId

function lineAllowanceCharge(
  charge: boolean,
  reason: string,
  rate: unknown,
  amount: unknown,
  currency: string,
) {
  const rateText = num(rate)
  // UBL requires the amount: without one (never in a stored invoice), no element.
  if (num(amount) === undefined) return ''
  return cac('AllowanceCharge', [
    cbc('ChargeIndicator', String(charge)),
    cbc('AllowanceChargeReason', reason),
    cbc('MultiplierFactorNumeric', rateText === undefined ? undefined : shiftLeft(rateText, 2)),
    cbc('Amount', num(amount), { currencyID: currency }),
  ])
}

function line(value: Json, index: number, mapping: TypeCodeMapping, currency: string): string {
  const item = obj(value.item)
  const price = obj(value.price)
  const property = (name: string, v: unknown) =>
    v === undefined ? '' : cac('AdditionalItemProperty', [cbc('Name', name), cbc('Value', v)])
  const classification = (code: unknown, listID: string) =>
    cac('CommodityClassification', [cbc('ItemClassificationCode', code, { listID })])
  const credit = mapping.document === 'CreditNote'
  return cac(credit ? 'CreditNoteLine' : 'InvoiceLine', [
    cbc('ID', String(index + 1)),
    cbc(credit ? 'CreditedQuantity' : 'InvoicedQuantity', num(value.invoiced_quantity)),
    cbc('LineExtensionAmount', num(value.line_extension_amount), { currencyID: currency }),
    lineAllowanceCharge(false, 'Discount', value.discount_rate, value.discount_amount, currency),
    lineAllowanceCharge(true, 'Fee', value.fee_rate, value.fee_amount, currency),
    requiredNode('cac:Item', [
      cbc('Description', item?.description),
      cbc('Name', item?.name),
      cac('SellersItemIdentification', [cbc('ID', item?.sellers_item_identification)]),
      classification(value.hsn_code, 'HS'),
      classification(value.isic_code, 'ISIC'),
      property('product_category', value.product_category),
      property('service_category', value.service_category),
    ]),
    price
      ? cac('Price', [
          cbc('PriceAmount', num(price.price_amount), { currencyID: currency }),
          cbc('BaseQuantity', num(price.base_quantity)),
          cbc('PriceType', price.price_unit),
        ])
      : '',
  ])
}

/** The note a test-mode (sandbox) invoice's UBL carries before its own (CONTRACT 18). */
export const TEST_NOTE = 'TEST - NOT A TAX INVOICE: made in test mode (sandbox), signed with a test key'

/** The UBL 2.1 XML of a stored (or pulled) invoice; `test`: a test-mode invoice, which says so. */
export function ublOf(invoice: Json, { test = false }: { test?: boolean } = {}): string {
  const mapping = typeCodeOf(String(invoice.invoice_type_code ?? ''))
  const credit = mapping.document === 'CreditNote'
  const currency = str(invoice.document_currency_code) ?? 'NGN'
  const amount = (name: string, value: unknown) => cbc(name, num(value), { currencyID: currency })
  const period = obj(invoice.invoice_delivery_period)
  const total = obj(invoice.legal_monetary_total)
  const documentRefs = list(invoice.document_reference).map((ref) =>
    documentReference('AdditionalDocumentReference', ref, 'document_reference'),
  )
  const additionalRefs = list(invoice.additional_document_reference).map((ref) =>
    documentReference('AdditionalDocumentReference', ref),
  )
  const originator = documentReference(
    'OriginatorDocumentReference',
    obj(invoice.originator_document_reference),
  )
  const typeCode = cbc(credit ? 'CreditNoteTypeCode' : 'InvoiceTypeCode', mapping.uncl, {
    listID: 'UNCL1001',
    name: str(invoice.invoice_type_code),
  })
  const testNote = test ? cbc('Note', TEST_NOTE) : ''
  const children = [
    cbc('UBLVersionID', '2.1'),
    cbc('ProfileID', invoice.invoice_kind),
    cbc('ID', invoice.irn),
    cbc('IssueDate', invoice.issue_date),
    cbc('IssueTime', invoice.issue_time),
    credit ? '' : cbc('DueDate', invoice.due_date),
    credit ? '' : typeCode,
    credit ? '' : testNote,
    credit ? '' : cbc('Note', invoice.note),
    cbc('TaxPointDate', invoice.tax_point_date),
    credit ? typeCode : '',
    credit ? testNote : '',
    credit ? cbc('Note', invoice.note) : '',
    cbc('DocumentCurrencyCode', invoice.document_currency_code),
    cbc('TaxCurrencyCode', invoice.tax_currency_code),
    cbc('AccountingCost', invoice.accounting_cost),
    cbc('BuyerReference', invoice.buyer_reference),
    period
      ? cac('InvoicePeriod', [cbc('StartDate', period.start_date), cbc('EndDate', period.end_date)])
      : '',
    cac('OrderReference', [cbc('ID', invoice.order_reference)]),
    ...list(invoice.billing_reference).map((ref) =>
      cac('BillingReference', [documentReference('InvoiceDocumentReference', ref)]),
    ),
    documentReference('DespatchDocumentReference', obj(invoice.dispatch_document_reference)),
    documentReference('ReceiptDocumentReference', obj(invoice.receipt_document_reference)),
    credit ? '' : originator,
    documentReference('ContractDocumentReference', obj(invoice.contract_document_reference)),
    ...documentRefs,
    ...additionalRefs,
    credit ? originator : '',
    requiredNode('cac:AccountingSupplierParty', [
      party(invoice.accounting_supplier_party, 'cac:Party', invoice.business_id),
    ]),
    // Required by UBL even for a sale to a consumer without one (B2C): then empty.
    requiredNode('cac:AccountingCustomerParty', [party(invoice.accounting_customer_party)]),
    party(invoice.payee_party, 'cac:PayeeParty'),
    cac('BuyerCustomerParty', [party(invoice.bill_party)]),
    party(invoice.tax_representative_party, 'cac:TaxRepresentativeParty'),
    cac('Delivery', [
      cbc('ActualDeliveryDate', invoice.actual_delivery_date),
      party(invoice.ship_party, 'cac:DeliveryParty'),
    ]),
    ...list(invoice.payment_means).map((means) =>
      cac('PaymentMeans', [
        // UBL requires a code; "ZZZ" (mutually defined, UNCL 4461) stands for one the invoice leaves out.
        cbc('PaymentMeansCode', means.payment_means_code ?? 'ZZZ'),
        cbc('PaymentDueDate', means.payment_due_date),
      ]),
    ),
    cac('PaymentTerms', [
      cbc('Note', invoice.payment_terms_note),
      credit ? cbc('PaymentDueDate', invoice.due_date) : '',
    ]),
    ...list(invoice.allowance_charge)
      .filter((ac) => typeof ac.amount === 'number')
      .map((ac) =>
        cac('AllowanceCharge', [
          cbc('ChargeIndicator', String(ac.charge_indicator === true)),
          amount('Amount', ac.amount),
        ]),
      ),
    ...list(invoice.tax_total).map((tax) =>
      cac('TaxTotal', [
        amount('TaxAmount', tax.tax_amount),
        ...list(tax.tax_subtotal).map((sub) => {
          const category = obj(sub.tax_category)
          return cac('TaxSubtotal', [
            amount('TaxableAmount', sub.taxable_amount),
            amount('TaxAmount', sub.tax_amount),
            cbc('Percent', num(sub.tax_category_percent)),
            requiredNode('cac:TaxCategory', [
              cbc('ID', category?.id),
              cbc('Percent', num(category?.percent)),
              requiredNode('cac:TaxScheme', [cbc('ID', taxSchemeOf(str(category?.id)))]),
            ]),
          ])
        }),
      ]),
    ),
    requiredNode('cac:LegalMonetaryTotal', [
      amount('LineExtensionAmount', total?.line_extension_amount),
      amount('TaxExclusiveAmount', total?.tax_exclusive_amount),
      amount('TaxInclusiveAmount', total?.tax_inclusive_amount),
      amount('PayableAmount', total?.payable_amount),
    ]),
    ...list(invoice.invoice_line).map((l, i) => line(l, i, mapping, currency)),
  ]
  return (
    XML_DECLARATION +
    node(mapping.document, children, {
      xmlns: NS[mapping.document],
      'xmlns:cac': NS.cac,
      'xmlns:cbc': NS.cbc,
    })
  )
}
