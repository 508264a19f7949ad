import { type XmlDocument as Doc, XmlDocument, type XmlNode } from 'libxml2-wasm'

/**
 * Reads a UBL document made by lib/documents/ubl.ts back into the invoice JSON, for the round-trip
 * test: written independently of the writer (by XPath, against the UBL element names), so that a
 * field the writer drops or misplaces shows as a difference rather than agreeing with itself.
 */

const NS = {
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
  inv: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  cn: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
}

type Json = Record<string, unknown>

const text = (at: XmlNode, path: string): string | undefined => at.get(path, NS)?.content
const all = (at: XmlNode, path: string): XmlNode[] => at.find(path, NS)
const number = (at: XmlNode, path: string): number | undefined => {
  const value = text(at, path)
  return value === undefined ? undefined : Number(value)
}
/** Drops undefined values, and the whole object when nothing is left. */
const compact = (o: Json): Json | undefined => {
  const kept = Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined))
  return Object.keys(kept).length ? kept : undefined
}
const nonEmpty = <T>(items: T[]): T[] | undefined => (items.length ? items : undefined)

function ref(at: XmlNode | null | undefined): Json | undefined {
  if (!at) return undefined
  return { irn: text(at, 'cbc:ID'), issue_date: text(at, 'cbc:IssueDate') }
}

function party(at: XmlNode | null | undefined): Json | undefined {
  if (!at) return undefined
  return compact({
    id: text(at, 'cac:PartyIdentification/cbc:ID[not(@schemeName)]'),
    party_name: text(at, 'cac:PartyName/cbc:Name'),
    tin: text(at, 'cac:PartyTaxScheme/cbc:CompanyID'),
    email: text(at, 'cac:Contact/cbc:ElectronicMail'),
    telephone: text(at, 'cac:Contact/cbc:Telephone'),
    business_description: text(at, 'cac:PartyLegalEntity/cbc:CompanyLegalForm'),
    postal_address_id: text(at, 'cac:PostalAddress/cbc:ID'),
    postal_address: compact({
      street_name: text(at, 'cac:PostalAddress/cbc:StreetName'),
      city_name: text(at, 'cac:PostalAddress/cbc:CityName'),
      postal_zone: text(at, 'cac:PostalAddress/cbc:PostalZone'),
      lga: text(at, 'cac:PostalAddress/cbc:District'),
      state: text(at, 'cac:PostalAddress/cbc:CountrySubentityCode'),
      country: text(at, 'cac:PostalAddress/cac:Country/cbc:IdentificationCode'),
    }),
  })
}

/** A percent from UBL's factor (0.075 -> 7.5), by the decimal text, not binary arithmetic. */
const percentOf = (factor: string | undefined) => (factor === undefined ? undefined : Number(`${factor}e2`))

function line(at: XmlNode): Json {
  const charge = (reason: string) => `cac:AllowanceCharge[cbc:AllowanceChargeReason='${reason}']`
  const item = at.get('cac:Item', NS)!
  return compact({
    invoiced_quantity: number(at, 'cbc:InvoicedQuantity|cbc:CreditedQuantity'),
    line_extension_amount: number(at, 'cbc:LineExtensionAmount'),
    discount_rate: percentOf(text(at, `${charge('Discount')}/cbc:MultiplierFactorNumeric`)),
    discount_amount: number(at, `${charge('Discount')}/cbc:Amount`),
    fee_rate: percentOf(text(at, `${charge('Fee')}/cbc:MultiplierFactorNumeric`)),
    fee_amount: number(at, `${charge('Fee')}/cbc:Amount`),
    item: compact({
      name: text(item, 'cbc:Name'),
      description: text(item, 'cbc:Description'),
      sellers_item_identification: text(item, 'cac:SellersItemIdentification/cbc:ID'),
    }),
    hsn_code: text(item, "cac:CommodityClassification/cbc:ItemClassificationCode[@listID='HS']"),
    isic_code: text(item, "cac:CommodityClassification/cbc:ItemClassificationCode[@listID='ISIC']"),
    product_category: text(item, "cac:AdditionalItemProperty[cbc:Name='product_category']/cbc:Value"),
    service_category: text(item, "cac:AdditionalItemProperty[cbc:Name='service_category']/cbc:Value"),
    price: compact({
      price_amount: number(at, 'cac:Price/cbc:PriceAmount'),
      base_quantity: number(at, 'cac:Price/cbc:BaseQuantity'),
      price_unit: text(at, 'cac:Price/cbc:PriceType'),
    }),
  })!
}

function invoiceOf(doc: Doc): Json {
  const root = doc.root
  const credit = root.name === 'CreditNote'
  const p = credit ? 'cn' : 'inv'
  const at = (path: string) => root.get(path, NS)
  const t = (path: string) => text(root, path)
  const supplier = at('cac:AccountingSupplierParty/cac:Party')
  const period = at('cac:InvoicePeriod')
  return compact({
    irn: t('cbc:ID'),
    business_id: supplier
      ? text(supplier, "cac:PartyIdentification/cbc:ID[@schemeName='business_id']")
      : undefined,
    issue_date: t('cbc:IssueDate'),
    issue_time: t('cbc:IssueTime'),
    due_date: credit ? t('cac:PaymentTerms/cbc:PaymentDueDate') : t('cbc:DueDate'),
    invoice_type_code: t(`cbc:${credit ? 'CreditNoteTypeCode' : 'InvoiceTypeCode'}/@name`),
    invoice_kind: t('cbc:ProfileID'),
    note: t('cbc:Note'),
    tax_point_date: t('cbc:TaxPointDate'),
    document_currency_code: t('cbc:DocumentCurrencyCode'),
    tax_currency_code: t('cbc:TaxCurrencyCode'),
    accounting_cost: t('cbc:AccountingCost'),
    buyer_reference: t('cbc:BuyerReference'),
    invoice_delivery_period: period
      ? { start_date: text(period, 'cbc:StartDate'), end_date: text(period, 'cbc:EndDate') }
      : undefined,
    order_reference: t('cac:OrderReference/cbc:ID'),
    billing_reference: nonEmpty(
      all(root, 'cac:BillingReference/cac:InvoiceDocumentReference').map((r) => ref(r)!),
    ),
    dispatch_document_reference: ref(at('cac:DespatchDocumentReference')),
    receipt_document_reference: ref(at('cac:ReceiptDocumentReference')),
    originator_document_reference: ref(at('cac:OriginatorDocumentReference')),
    contract_document_reference: ref(at('cac:ContractDocumentReference')),
    document_reference: nonEmpty(
      all(root, "cac:AdditionalDocumentReference[cbc:DocumentType='document_reference']").map((r) => ref(r)!),
    ),
    additional_document_reference: nonEmpty(
      all(root, 'cac:AdditionalDocumentReference[not(cbc:DocumentType)]').map((r) => ref(r)!),
    ),
    accounting_supplier_party: party(supplier),
    accounting_customer_party: party(at('cac:AccountingCustomerParty/cac:Party')),
    payee_party: party(at('cac:PayeeParty')),
    bill_party: party(at('cac:BuyerCustomerParty/cac:Party')),
    ship_party: party(at('cac:Delivery/cac:DeliveryParty')),
    tax_representative_party: party(at('cac:TaxRepresentativeParty')),
    actual_delivery_date: t('cac:Delivery/cbc:ActualDeliveryDate'),
    payment_means: nonEmpty(
      all(root, 'cac:PaymentMeans').map((m) => {
        const code = text(m, 'cbc:PaymentMeansCode')
        return (
          compact({
            payment_means_code: code === 'ZZZ' ? undefined : code,
            payment_due_date: text(m, 'cbc:PaymentDueDate'),
          }) ?? {}
        )
      }),
    ),
    payment_terms_note: t('cac:PaymentTerms/cbc:Note'),
    allowance_charge: nonEmpty(
      all(root, `/${p}:*/cac:AllowanceCharge`).map((a) => ({
        charge_indicator: text(a, 'cbc:ChargeIndicator') === 'true',
        amount: number(a, 'cbc:Amount'),
      })),
    ),
    tax_total: all(root, 'cac:TaxTotal').map((tax) => ({
      tax_amount: number(tax, 'cbc:TaxAmount'),
      tax_subtotal: all(tax, 'cac:TaxSubtotal').map((sub) =>
        compact({
          taxable_amount: number(sub, 'cbc:TaxableAmount'),
          tax_amount: number(sub, 'cbc:TaxAmount'),
          tax_category_percent: number(sub, 'cbc:Percent'),
          tax_category: {
            id: text(sub, 'cac:TaxCategory/cbc:ID'),
            percent: number(sub, 'cac:TaxCategory/cbc:Percent'),
          },
        }),
      ),
    })),
    legal_monetary_total: compact({
      line_extension_amount: number(root, 'cac:LegalMonetaryTotal/cbc:LineExtensionAmount'),
      tax_exclusive_amount: number(root, 'cac:LegalMonetaryTotal/cbc:TaxExclusiveAmount'),
      tax_inclusive_amount: number(root, 'cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount'),
      payable_amount: number(root, 'cac:LegalMonetaryTotal/cbc:PayableAmount'),
    }),
    invoice_line: all(root, 'cac:InvoiceLine|cac:CreditNoteLine').map(line),
  })!
}

/** The invoice a UBL document holds, with the document's root element name. */
export function readUbl(xml: string): { root: string; typeCode: string | undefined; invoice: Json } {
  const doc = XmlDocument.fromString(xml)
  try {
    const typeCode = doc.root.get('cbc:InvoiceTypeCode|cbc:CreditNoteTypeCode', NS)?.content
    return { root: doc.root.name, typeCode, invoice: invoiceOf(doc) }
  } finally {
    doc.dispose()
  }
}
