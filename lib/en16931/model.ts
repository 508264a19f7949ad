/**
 * The EN 16931 semantic model as far as its business rules read it: business terms (BT-n) and groups
 * (BG-n), each value kept as written (the rules look at digits after the decimal point, at blanks,
 * at presence) with the UBL XPath of the element it came from, so a finding names the element at
 * fault as the official validation report would. Built from a UBL document (from-ubl.ts) or from the
 * service's invoice record (from-invoice.ts); judged by judge.ts.
 */

/** A business term's value as written, and where it is. */
export interface Term {
  value: string
  path: string
  /** Its attributes (currencyID, schemeID, unitCode, listID, mimeCode) when it has any. */
  attributes?: Record<string, string>
}

/** A VAT category (BG-23's BT-118, BT-119, BT-120, BT-121; BT-151, BT-152 on a line; BT-95, BT-96 on an allowance). */
export interface TaxCategory {
  path: string
  id?: Term
  percent?: Term
  /** Its tax scheme is VAT (cac:TaxScheme/cbc:ID, upper-cased and trimmed). */
  vat: boolean
  exemptionReason?: Term
  exemptionReasonCode?: Term
}

/** An allowance or a charge (BG-20, BG-21 on the document; BG-27, BG-28 on a line; the price's). */
export interface AllowanceCharge {
  path: string
  /** cbc:ChargeIndicator as written: 'true'/'1' a charge, 'false'/'0' an allowance. */
  indicator?: Term
  amount?: Term
  baseAmount?: Term
  reason?: Term
  reasonCode?: Term
  taxCategories: TaxCategory[]
}

/** An invoicing period (BG-14, BG-26). */
export interface Period {
  path: string
  start?: Term
  end?: Term
  descriptionCode?: Term
  /** It has any child element. */
  hasChildren: boolean
}

/** A party (seller BG-4, buyer BG-7, payee BG-10, tax representative BG-11). */
export interface Party {
  /** The cac:Party (or cac:PayeeParty, cac:TaxRepresentativeParty) element. */
  path: string
  registrationName?: Term
  names: Term[]
  identifiers: Term[]
  legalCompanyIds: Term[]
  /** cac:PartyTaxScheme: its CompanyID and whether its scheme is VAT. */
  taxSchemes: { path: string; companyId?: Term; vat: boolean }[]
  address?: { path: string; country?: Term }
  endpoint?: Term
}

/** An invoice line (BG-25). */
export interface Line {
  path: string
  id?: Term
  quantity?: Term
  lineExtensionAmount?: Term
  itemName?: Term
  priceAmount?: Term
  priceAllowanceCharges: AllowanceCharge[]
  classifiedTaxCategories: TaxCategory[]
  allowanceCharges: AllowanceCharge[]
  periods: Period[]
  standardIds: Term[]
  classificationCodes: Term[]
  properties: { path: string; name?: Term; value?: Term }[]
}

export interface TaxSubtotal {
  path: string
  taxableAmount?: Term
  taxAmount?: Term
  categories: TaxCategory[]
}

export interface TaxTotal {
  path: string
  taxAmounts: Term[]
  subtotals: TaxSubtotal[]
}

/** A code drawn from a code list (BR-CL-*), with the rule that checks it. */
export interface CodedValue {
  rule: string
  /** The list it is checked against (a key of CODE_LISTS in rules/codes.ts). */
  list: string
  /** The code as written (for attributes, the attribute's value; '' when absent). */
  value: string
  path: string
}

export interface Model {
  kind: 'Invoice' | 'CreditNote'
  path: string
  customizationId?: Term
  id?: Term
  issueDate?: Term
  typeCode?: Term
  currency?: Term
  taxCurrencies: Term[]
  taxPointDate?: Term
  notes: Term[]
  periods: Period[]
  precedingInvoices: { path: string; id?: Term }[]
  additionalDocuments: { path: string; id?: Term }[]
  seller?: { path: string; party?: Party }
  buyer?: { path: string; party?: Party }
  payee?: Party
  taxRepresentative?: Party
  deliveries: { path: string; actualDate?: Term; address?: { path: string; country?: Term } }[]
  paymentMeans: { path: string; code?: Term; accounts: { path: string; id?: Term }[]; cardNumbers: Term[] }[]
  allowanceCharges: AllowanceCharge[]
  taxTotals: TaxTotal[]
  totals?: {
    path: string
    lineExtensionAmount?: Term
    taxExclusiveAmount?: Term
    taxInclusiveAmount?: Term
    allowanceTotalAmount?: Term
    chargeTotalAmount?: Term
    prepaidAmount?: Term
    payableRoundingAmount?: Term
    payableAmount?: Term
  }
  lines: Line[]
  codes: CodedValue[]
}

export interface Finding {
  /** The official rule identifier: `BR-01`, `BR-CO-15`, `BR-S-08`, `BR-CL-14`. */
  rule: string
  flag: 'fatal' | 'warning'
  /** The UBL XPath of the element at fault, in cac/cbc prefixes. */
  path: string
  message: string
}
