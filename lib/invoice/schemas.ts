import * as z from 'zod'
import { TIN_PATTERN } from '#lib/taxpayer/tin.ts'
import { PAYMENT_STATUSES, type PaymentStatus } from './record.ts'

/**
 * The invoice request of the spec's A.2-A.5, in v1 (`ValidateInvoiceRequest`) and v2
 * (`ValidateInvoiceRequestV2`), as one zod source: the handlers validate with it and the OpenAPI
 * document is generated from it. v2 differs from v1 exactly where the spec's Versioning part says:
 * invoice_kind required and limited to B2C/B2B/B2G, postal_zone 0-20 characters, item and price
 * required on every line, and the tax representative's postal_address required.
 *
 * Objects strip unknown keys (they are reported as warnings by problems.ts, never stored). Rules that
 * need reference data or the caller (code lists, the IRN's service id, arithmetic) live in rules.ts.
 */

export type ApiVersion = 'v1' | 'v2'
export const API_VERSIONS: readonly ApiVersion[] = ['v1', 'v2']

/**
 * Whose request rules apply: the interface's (the seed paths, batches), or the authority's more
 * lenient documentation on its own paths (CONTRACT 17). The edge picks it from the route's profile;
 * the schemas differ only in the postal address's lga and state (lib/invoice/authority-rules.ts
 * applies the rest before the schema).
 */
export type RuleSet = 'interface' | 'authority'

/** `<reference>-<serviceId>-<YYYYMMDD>`: letters/digits, hyphen, letters/digits, hyphen, 8 digits (A.6). */
export const IRN_PATTERN = /^[A-Za-z0-9]+-[A-Za-z0-9]+-\d{8}$/
/** A.3: an optional leading + and digits only. */
export const TELEPHONE_PATTERN = /^[+]?[0-9]*$/
/** The reference page's reading of issue_time: 24-hour `HH:MM:SS`. */
export const TIME_PATTERN = /^(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d$/
export { TIN_PATTERN }

/**
 * Amounts are JSON numbers (A.1). The bounds keep every accepted value storable as a DynamoDB number
 * (whose range stops at 1E-130 and 1E+126) and far beyond any real invoice; a value outside them is
 * a typo or an attack, and is refused with a message rather than failing at the database. One check
 * instead of three: amounts are most of an invoice's values, and each zod check costs per value.
 */
export const MAX_AMOUNT = 1e15
export const MIN_NONZERO_AMOUNT = 1e-10
const Amount = z
  .number()
  .refine((n) => n === 0 || (Math.abs(n) >= MIN_NONZERO_AMOUNT && Math.abs(n) <= MAX_AMOUNT), {
    message: `must be 0 or between ${MIN_NONZERO_AMOUNT} and ${MAX_AMOUNT} in magnitude`,
    params: { rule: 'NG-SC-04' },
  })
  .meta({ minimum: -MAX_AMOUNT, maximum: MAX_AMOUNT })

/** Required strings must say something; postal_zone is the one field the spec lets be empty. */
const Text = z.string().min(1)
/** A.1: `YYYY-MM-DD`, and a day that exists (2024-02-30 is refused). */
export const DateString = z.iso.date()
const Irn = z.string().regex(IRN_PATTERN)

// Numeric codes of the reference page: 0=REJECTED, 1=PENDING, 2=PAID; stored as names.
const PAYMENT_STATUS_CODES: Record<number, PaymentStatus> = { 0: 'REJECTED', 1: 'PENDING', 2: 'PAID' }
export const PaymentStatusInput = z
  .union([z.enum(PAYMENT_STATUSES), z.literal([0, 1, 2])], {
    error: 'must be PENDING, PAID or REJECTED, or the numeric code 0 (REJECTED), 1 (PENDING) or 2 (PAID)',
  })
  .transform((v): PaymentStatus => (typeof v === 'number' ? PAYMENT_STATUS_CODES[v]! : v))

/** The schema's reading of issue_time (a Java LocalTime); second and nano default to 0. */
export const LocalTime = z.object({
  hour: z.int().min(0).max(23),
  minute: z.int().min(0).max(59),
  second: z.int().min(0).max(59).optional(),
  nano: z.int().min(0).max(999_999_999).optional(),
})

const two = (n: number) => String(n).padStart(2, '0')
/** Both readings are stored as `HH:MM:SS` (a non-zero nano adds `.nnnnnnnnn`), so equal times hash equally. */
export const IssueTime = z
  .union([z.string().regex(TIME_PATTERN), LocalTime], {
    error: 'must be a time "HH:MM:SS" or a LocalTime object {hour, minute, second, nano}',
  })
  .transform((v) => {
    if (typeof v === 'string') return v
    const base = `${two(v.hour)}:${two(v.minute)}:${two(v.second ?? 0)}`
    return v.nano ? `${base}.${String(v.nano).padStart(9, '0')}` : base
  })

export const DocumentRef = z.object({ irn: Irn, issue_date: DateString })

/** The authority's rules need street_name, city_name, postal_zone and country only. */
const postalAddress = (version: ApiVersion, rules: RuleSet) => {
  const subdivision = rules === 'authority' ? Text.optional() : Text
  return z.object({
    street_name: Text,
    city_name: Text,
    postal_zone: version === 'v2' ? z.string().max(20) : z.string(),
    lga: subdivision,
    state: subdivision,
    country: Text,
  })
}

/**
 * A.3, plus `id` and `postal_address_id`, which A.7 shows on parties and the authority's samples send.
 * A party named by `id`, or an address by `postal_address_id`, is resolved before this schema sees
 * the invoice (lib/parties/resolve.ts): what is validated and stored is the resolved party, ids kept.
 */
const partyShape = (address: ReturnType<typeof postalAddress>) => ({
  id: z.string().optional(),
  postal_address_id: z.string().optional(),
  tin: z.string().regex(TIN_PATTERN),
  email: Text,
  party_name: Text,
  telephone: z.string().regex(TELEPHONE_PATTERN).optional(),
  business_description: z.string().optional(),
  postal_address: address,
})

export const Item = z.object({
  name: Text,
  description: Text,
  sellers_item_identification: z.string().optional(),
})

/** base_quantity is the quantity price_amount is for; 0 would make the unit price undefined. */
export const Price = z.object({ price_amount: Amount, base_quantity: z.int32().min(1), price_unit: Text })

const invoiceLine = (version: ApiVersion) =>
  z.object({
    item: version === 'v2' ? Item : Item.optional(),
    price: version === 'v2' ? Price : Price.optional(),
    hsn_code: z.string().optional(),
    product_category: z.string().optional(),
    isic_code: z.string().optional(),
    service_category: z.string().optional(),
    discount_rate: Amount,
    discount_amount: Amount,
    fee_rate: Amount,
    fee_amount: Amount,
    invoiced_quantity: z.int32(),
    line_extension_amount: Amount,
  })

/** A.5 says the PaymentMeans fields are optional in the schema and required on the page: both pass. */
export const PaymentMeans = z.object({
  payment_means_code: Text.optional(),
  payment_due_date: DateString.optional(),
})

/**
 * The schema marks AllowanceCharge's fields optional; they are required here because
 * tax_exclusive_amount cannot be checked without knowing each amount and whether it adds or subtracts.
 */
export const AllowanceCharge = z.object({ charge_indicator: z.boolean(), amount: Amount })

export const TaxCategory = z.object({ id: Text, percent: Amount })
export const TaxSubtotal = z.object({
  taxable_amount: Amount,
  tax_amount: Amount,
  tax_category: TaxCategory,
  /** Carried by the authority's sample request; informational (the rule uses tax_category.percent). */
  tax_category_percent: Amount.optional(),
})
export const TaxTotal = z.object({ tax_amount: Amount, tax_subtotal: z.array(TaxSubtotal) })
export const LegalMonetaryTotal = z.object({
  line_extension_amount: Amount,
  tax_exclusive_amount: Amount,
  tax_inclusive_amount: Amount,
  payable_amount: Amount,
})

export const INVOICE_KINDS = ['B2C', 'B2B', 'B2G'] as const

/** Every named part is built once per version, so each appears once in the OpenAPI components. */
function buildVersion(version: ApiVersion, rules: RuleSet) {
  const address = postalAddress(version, rules)
  const shape = partyShape(address)
  const party = z.object(shape)
  // The tax representative needs only email and tin in v1; v2 also requires its postal_address.
  const taxRepresentative = z.object({
    ...shape,
    party_name: shape.party_name.optional(),
    postal_address: version === 'v2' ? address : address.optional(),
  })
  const line = invoiceLine(version)
  const invoice = z.object({
    irn: Irn,
    business_id: Text,
    issue_date: DateString,
    due_date: DateString.optional(),
    issue_time: IssueTime.optional(),
    invoice_type_code: Text,
    invoice_kind: version === 'v2' ? z.enum(INVOICE_KINDS) : z.string().optional(),
    payment_status: PaymentStatusInput,
    note: z.string().optional(),
    tax_point_date: DateString.optional(),
    document_currency_code: Text,
    tax_currency_code: Text,
    accounting_cost: z.union([z.string(), Amount], { error: 'must be a string or a number' }).optional(),
    buyer_reference: z.string().optional(),
    invoice_delivery_period: z.object({ start_date: DateString, end_date: DateString }).optional(),
    order_reference: z.string().optional(),
    billing_reference: z.array(DocumentRef).optional(),
    dispatch_document_reference: DocumentRef.optional(),
    receipt_document_reference: DocumentRef.optional(),
    originator_document_reference: DocumentRef.optional(),
    contract_document_reference: DocumentRef.optional(),
    document_reference: z.array(DocumentRef).optional(),
    additional_document_reference: z.array(DocumentRef).optional(),
    accounting_supplier_party: party,
    accounting_customer_party: party.optional(),
    payee_party: party.optional(),
    bill_party: party.optional(),
    ship_party: party.optional(),
    tax_representative_party: taxRepresentative.optional(),
    actual_delivery_date: DateString.optional(),
    payment_means: z.array(PaymentMeans).optional(),
    payment_terms_note: z.string().optional(),
    allowance_charge: z.array(AllowanceCharge).optional(),
    tax_total: z.array(TaxTotal).min(1),
    legal_monetary_total: LegalMonetaryTotal,
    invoice_line: z.array(line).min(1),
  })
  return { address, party, taxRepresentative, line, invoice }
}

type VersionParts = ReturnType<typeof buildVersion>
// Built on first use, once: a function that reads only v1 (si/validate) never builds v2's, and one
// with no authority path never builds the authority's.
const parts: Partial<Record<`${ApiVersion}:${RuleSet}`, VersionParts>> = {}
const partsOf = (version: ApiVersion, rules: RuleSet = 'interface'): VersionParts => {
  parts[`${version}:${rules}`] ??= buildVersion(version, rules)
  return parts[`${version}:${rules}`]!
}
export const invoiceSchema = (version: ApiVersion, rules?: RuleSet) => partsOf(version, rules).invoice

export type InvoiceV1 = z.output<VersionParts['invoice']>
export type InvoiceV2 = z.output<VersionParts['invoice']>
/** The invoice as stored: the validated request with unknown keys dropped and both readings normalised. */
export type StoredInvoice = InvoiceV1 | InvoiceV2

/**
 * The named schemas of the OpenAPI document's components. Each schema object here appears once in
 * the document, and every use of it becomes a `$ref`.
 */
export function invoiceComponents(): Record<string, z.ZodType> {
  const components: Record<string, z.ZodType> = {
    Date: DateString,
    DocumentRef,
    LocalTime,
    Item,
    Price,
    PaymentMeans,
    AllowanceCharge,
    TaxCategory,
    TaxSubtotal,
    TaxTotal,
    LegalMonetaryTotal,
  }
  for (const version of API_VERSIONS) {
    const suffix = version === 'v2' ? 'V2' : ''
    const p = partsOf(version)
    components[`ValidateInvoiceRequest${suffix}`] = p.invoice
    components[`Party${suffix}`] = p.party
    components[`TaxRepresentativeParty${suffix}`] = p.taxRepresentative
    components[`PostalAddress${suffix}`] = p.address
    components[`InvoiceLine${suffix}`] = p.line
  }
  return components
}
