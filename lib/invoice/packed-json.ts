import { constants, deflateSync, gunzipSync, inflateSync } from 'node:zlib'

/**
 * How invoice and receipt bodies are stored compressed (the invoice record's `invoiceGzip`, a
 * receipt's `bodyGzip`, a batch item's `invoiceGzip`): zlib (RFC 1950) with a preset dictionary of
 * the invoice's member names. Most of a small invoice's bytes are its member names, and gzip, which
 * starts each body with an empty window, pays for each name once per body; with the names in the
 * dictionary it pays a few bits for each. Measured (BENCHMARKS.md, tenth round): the authority's
 * sample invoices 1,024 and 1,060 bytes gzipped -> 634 and 681; a fixture receipt 861 -> 597; a
 * 10-line invoice 1,354 -> 913, a 100-line one 2,773 -> 2,435. Brotli (no preset dictionary in
 * node:zlib) gives 845 and 881 on the samples: less than gzip, more than this.
 *
 * Bodies written before hold gzip (RFC 1952), which `unpackJson` still reads: a gzip stream starts
 * with the bytes 1f 8b, a zlib stream never does (its first byte is 0x78 here). The attribute names
 * keep saying gzip so that those items need no migration.
 *
 * The dictionary is fixed for good: a stream names its dictionary only by the dictionary's Adler-32
 * (the header's DICTID), and a body packed with it cannot be read without these exact bytes
 * (test/unit/invoice/packed-json.test.ts pins them). A better dictionary would be a second one,
 * told apart on reading by that DICTID. It is the canonical JSON of a v2 invoice with every member
 * present and every value empty (the member names in canonical order; a member added to the schemas
 * later still compresses, only less well), the payee, bill, ship and tax representative parties left
 * empty (their members are the buyer's and the seller's: writing them four more times would add
 * 830 bytes to every function that packs, for 2-7 bytes a body), then a receipt's own members.
 */
const INVOICE_DICTIONARY = Buffer.from(
  [
    '{"accounting_cost":"","accounting_customer_party":{"business_description":"","email":"","id":"",',
    '"party_name":"","postal_address":{"city_name":"","country":"","lga":"","postal_zone":"","state":',
    '"","street_name":""},"postal_address_id":"","telephone":"","tin":""},"accounting_supplier_party"',
    ':{"business_description":"","email":"","id":"","party_name":"","postal_address":{"city_name":"",',
    '"country":"","lga":"","postal_zone":"","state":"","street_name":""},"postal_address_id":"","tele',
    'phone":"","tin":""},"actual_delivery_date":"","additional_document_reference":[{"irn":"","issue_',
    'date":""}],"allowance_charge":[{"amount":0,"charge_indicator":false}],"bill_party":{},"billing_r',
    'eference":[{"irn":"","issue_date":""}],"business_id":"","buyer_reference":"","contract_document_',
    'reference":{"irn":"","issue_date":""},"dispatch_document_reference":{"irn":"","issue_date":""},"',
    'document_currency_code":"","document_reference":[{"irn":"","issue_date":""}],"due_date":"","invo',
    'ice_delivery_period":{"end_date":"","start_date":""},"invoice_kind":"B2C","invoice_line":[{"disc',
    'ount_amount":0,"discount_rate":0,"fee_amount":0,"fee_rate":0,"hsn_code":"","invoiced_quantity":0',
    ',"isic_code":"","item":{"description":"","name":"","sellers_item_identification":""},"line_exten',
    'sion_amount":0,"price":{"base_quantity":0,"price_amount":0,"price_unit":""},"product_category":"',
    '","service_category":""}],"invoice_type_code":"","irn":"","issue_date":"","issue_time":"","legal',
    '_monetary_total":{"line_extension_amount":0,"payable_amount":0,"tax_exclusive_amount":0,"tax_inc',
    'lusive_amount":0},"note":"","order_reference":"","originator_document_reference":{"irn":"","issu',
    'e_date":""},"payee_party":{},"payment_means":[{"payment_due_date":"","payment_means_code":""}],"',
    'payment_status":"PENDING","payment_terms_note":"","receipt_document_reference":{"irn":"","issue_',
    'date":""},"ship_party":{},"tax_currency_code":"","tax_point_date":"","tax_representative_party":',
    '{},"tax_total":[{"tax_amount":0,"tax_subtotal":[{"tax_amount":0,"tax_category":{"id":"","percent',
    '":0},"tax_category_percent":0,"taxable_amount":0}]}]}{"corrects":"","device":{"counter":0,"devic',
    'e_id":"","issued_at":"","prev_hash":""},"mode":"test","signature":""}',
  ].join(''),
  'utf8',
)

/** Whether these bytes are a gzip stream (RFC 1952's ID1 ID2), as bodies written before were. */
const isGzip = (bytes: Uint8Array) => bytes[0] === 0x1f && bytes[1] === 0x8b

/** The UTF-8 JSON packed for storage; `fast` trades about 30% of size for a tenth of the time (large bodies). */
export function packJson(utf8: Buffer, options: { fast?: boolean } = {}): Uint8Array {
  const level = options.fast ? constants.Z_BEST_SPEED : constants.Z_DEFAULT_COMPRESSION
  return new Uint8Array(deflateSync(utf8, { level, dictionary: INVOICE_DICTIONARY }))
}

/** The JSON text of a stored body, packed by `packJson` or gzipped before it. */
export function unpackJson(bytes: Uint8Array): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (isGzip(buffer)) return gunzipSync(buffer).toString('utf8')
  return inflateSync(buffer, { dictionary: INVOICE_DICTIONARY }).toString('utf8')
}

/** `packJson` of a value's JSON. */
export const packValue = (value: unknown): Uint8Array => packJson(Buffer.from(JSON.stringify(value), 'utf8'))

/** The value of a stored body (`unpackJson`, parsed). */
export const unpackValue = <T>(bytes: Uint8Array): T => JSON.parse(unpackJson(bytes)) as T
