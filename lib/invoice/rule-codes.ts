/**
 * The stable codes of every problem an invoice can be refused or warned for. Integrators match on
 * these, so a code is never reused for another meaning; docs/errors.md, generated from the error
 * catalogue (lib/service/error-catalogue.ts), documents each.
 *
 * `lenient: true` marks the arithmetic rules of CONTRACT section 4: they fail in strict mode (the
 * default) and come back as warnings with `x-validation-mode: lenient`. Every other code always fails,
 * except NG-UK-01, which is only ever a warning.
 */
export interface RuleCode {
  meaning: string
  example: string
  lenient: boolean
  warningOnly?: boolean
  /** The HTTP status of a reply that carries it; 400 when left out. */
  status?: number
  /** What the client should do (docs/errors.md); left out, lib/service/error-catalogue.ts says it from the rest. */
  action?: string
}

export const RULE_CODES = {
  'NG-SC-01': {
    meaning: 'A required field is missing',
    example: 'accounting_supplier_party/email',
    lenient: false,
  },
  'NG-SC-02': {
    meaning: 'A field has the wrong JSON type',
    example: 'invoice_line/0/invoiced_quantity',
    lenient: false,
  },
  'NG-SC-03': {
    meaning: 'A value is not one of the allowed values',
    example: 'invoice_kind',
    lenient: false,
  },
  'NG-SC-04': {
    meaning: 'A length, count or number is out of its range',
    example: 'accounting_supplier_party/postal_address/postal_zone',
    lenient: false,
  },
  'NG-FM-01': {
    meaning: 'A TIN is not of the form NNNNNNNN-NNNN, the 13-digit Tax ID or TIN- and digits',
    example: 'accounting_customer_party/tin',
    lenient: false,
  },
  'NG-FM-02': {
    meaning: 'A telephone number has characters other than digits and a leading +',
    example: 'accounting_supplier_party/telephone',
    lenient: false,
  },
  'NG-FM-03': { meaning: 'issue_time is not a 24-hour time', example: 'issue_time', lenient: false },
  'NG-FM-04': {
    meaning: 'A string holds a lone surrogate (an unpaired \\uD800-\\uDFFF escape)',
    example: 'note',
    lenient: false,
  },
  'NG-DT-01': { meaning: 'A date is not YYYY-MM-DD or does not exist', example: 'due_date', lenient: false },
  'NG-DT-02': { meaning: 'due_date is before issue_date', example: 'due_date', lenient: true },
  'NG-DT-03': {
    meaning: 'The delivery period starts after it ends',
    example: 'invoice_delivery_period/end_date',
    lenient: true,
  },
  'NG-IRN-01': {
    meaning:
      "An IRN is not of the form `<reference>-<service id>-<YYYYMMDD>`, or the invoice's own IRN has a reference other than 2 to 50 letters and digits",
    example: 'irn',
    lenient: false,
  },
  'NG-IRN-02': {
    meaning: "An IRN's date segment is not a real date",
    example: 'billing_reference/0/irn',
    lenient: false,
  },
  'NG-IRN-03': {
    meaning: "The IRN's service id is not the caller's business's service id",
    example: 'irn',
    lenient: false,
  },
  'NG-PT-01': {
    meaning:
      "A party's id or postal_address_id names no party or postal address of the caller's business (POST /api/v1/invoice/party stores them)",
    example: 'accounting_customer_party/id',
    lenient: false,
  },
  'NG-CL-01': {
    meaning: 'invoice_type_code is not in the invoice types list',
    example: 'invoice_type_code',
    lenient: false,
  },
  'NG-CL-02': {
    meaning: 'A currency code is not in the currencies list',
    example: 'document_currency_code',
    lenient: false,
  },
  'NG-CL-03': {
    meaning: 'A country is not in the countries list (alpha-2)',
    example: 'accounting_supplier_party/postal_address/country',
    lenient: false,
  },
  'NG-CL-04': {
    meaning: 'A Nigerian address has a state not in the states list',
    example: 'accounting_supplier_party/postal_address/state',
    lenient: false,
  },
  'NG-CL-05': {
    meaning:
      "A Nigerian address's lga is not in the LGA list for its state (or, while the list is incomplete, not of the form NG-XX-YYY with NG-XX its state)",
    example: 'accounting_supplier_party/postal_address/lga',
    lenient: false,
  },
  'NG-CL-06': {
    meaning: 'A tax category id is not in the tax categories list',
    example: 'tax_total/0/tax_subtotal/0/tax_category/id',
    lenient: false,
  },
  'NG-CL-07': {
    meaning: 'A payment means code is not in the payment means list',
    example: 'payment_means/0/payment_means_code',
    lenient: false,
  },
  'NG-CL-08': {
    meaning: "A line's hsn_code is not an HS code of the product codes list",
    example: 'invoice_line/0/hsn_code',
    lenient: false,
  },
  'NG-CL-09': {
    meaning: "A line's isic_code is not in the service codes list",
    example: 'invoice_line/0/isic_code',
    lenient: false,
  },
  'NG-BR-01': {
    meaning: 'A credit note, debit note or self-billed invoice has no billing_reference',
    example: 'billing_reference',
    lenient: false,
  },
  'NG-BR-02': {
    meaning: 'A billing reference is not to an earlier document',
    example: 'billing_reference/0/issue_date',
    lenient: false,
  },
  'NG-BR-03': {
    meaning:
      'A signed credit or debit note does not name, in billing_reference, an invoice signed by the same business',
    example: 'billing_reference/0/irn',
    lenient: false,
  },
  'NG-BR-04': {
    meaning:
      "A credit note's payable_amount is more than what remains of the original's payable amount after its earlier credit notes",
    example: 'legal_monetary_total/payable_amount',
    lenient: false,
  },
  'NG-BR-05': {
    meaning: "A signed credit note's original (billing_reference) is itself a credit note",
    example: 'billing_reference/0/irn',
    lenient: false,
  },
  'NG-BR-06': {
    meaning: "A signed credit note's buyer TIN is not its original's buyer TIN",
    example: 'accounting_customer_party/tin',
    lenient: false,
  },
  'NG-BR-07': {
    meaning: 'payable_amount is negative (a credit note states the amount it credits as a positive figure)',
    example: 'legal_monetary_total/payable_amount',
    lenient: false,
  },
  'NG-BR-08': {
    meaning: 'A tax percent is negative',
    example: 'tax_total/0/tax_subtotal/0/tax_category/percent',
    lenient: false,
  },
  'NG-CO-01': {
    meaning: "A line's line_extension_amount is not invoiced_quantity x price_amount / base_quantity",
    example: 'invoice_line/0/line_extension_amount',
    lenient: true,
  },
  'NG-CO-10': {
    meaning: 'legal_monetary_total.line_extension_amount is not the sum of the lines',
    example: 'legal_monetary_total/line_extension_amount',
    lenient: true,
  },
  'NG-CO-13': {
    meaning: 'tax_exclusive_amount is not line_extension_amount - allowances + charges',
    example: 'legal_monetary_total/tax_exclusive_amount',
    lenient: true,
  },
  'NG-CO-14': {
    meaning: "A TaxTotal's tax_amount is not the sum of its subtotals",
    example: 'tax_total/0/tax_amount',
    lenient: true,
  },
  'NG-CO-15': {
    meaning: 'tax_inclusive_amount is not tax_exclusive_amount + the tax total',
    example: 'legal_monetary_total/tax_inclusive_amount',
    lenient: true,
  },
  'NG-CO-16': {
    meaning: 'payable_amount is more than tax_inclusive_amount',
    example: 'legal_monetary_total/payable_amount',
    lenient: true,
  },
  'NG-CO-17': {
    meaning: "A TaxSubtotal's tax_amount is not taxable_amount x percent / 100",
    example: 'tax_total/0/tax_subtotal/0/tax_amount',
    lenient: true,
  },
  'NG-UK-01': {
    meaning: 'An unknown key was ignored and not stored (a warning, never an error)',
    example: 'invoice_line/0/dicount_rate',
    lenient: false,
    warningOnly: true,
  },
  // The authority's request rules on its paths (CONTRACT 17): each default or relaxed rule applied.
  'NG-AU-01': {
    meaning: 'payment_status was absent on an authority path: PENDING applied (a warning, never an error)',
    example: 'payment_status',
    lenient: false,
    warningOnly: true,
  },
  'NG-AU-02': {
    meaning:
      'tax_currency_code was absent on an authority path: the document currency applied (a warning, never an error)',
    example: 'tax_currency_code',
    lenient: false,
    warningOnly: true,
  },
  'NG-AU-03': {
    meaning:
      "A line's discount or fee fields were absent on an authority path: 0 applied (a warning, never an error)",
    example: 'invoice_line/0',
    lenient: false,
    warningOnly: true,
  },
  'NG-AU-04': {
    meaning:
      'A code sent as a number on an authority path was taken as its string (a warning, never an error)',
    example: 'payment_means/0/payment_means_code',
    lenient: false,
    warningOnly: true,
  },
  'NG-AU-05': {
    meaning:
      'A postal address without lga or state was accepted on an authority path (a warning, never an error)',
    example: 'accounting_supplier_party/postal_address',
    lenient: false,
    warningOnly: true,
  },
  'NG-AU-06': {
    meaning:
      "A line's hsn_code or isic_code is not in its list, on an authority path (a warning, never an error)",
    example: 'invoice_line/0/hsn_code',
    lenient: false,
    warningOnly: true,
  },
  'NG-AU-07': {
    meaning:
      'The arithmetic findings are warnings because an authority path validates leniently by default (a warning, never an error)',
    example: 'x-validation-mode',
    lenient: false,
    warningOnly: true,
  },
  'NG-SZ-01': {
    meaning: 'The validated invoice is too large to store, even compressed',
    example: '(body)',
    lenient: false,
    status: 413,
  },
  'NG-XML-01': {
    meaning:
      'A UBL body is not well-formed XML, declares a DOCTYPE (never read), or nests deeper than 32 elements or holds more than 200,000',
    example: '/Invoice/cac:InvoiceLine',
    lenient: false,
  },
  'NG-XML-02': {
    meaning:
      'A UBL body is not valid against the OASIS UBL 2.1 Invoice or CreditNote schema (element order, cardinality, value or attribute)',
    example: '/Invoice/cbc:IssueDate',
    lenient: false,
  },
  'NG-XML-03': {
    meaning:
      "A UBL type code has no counterpart among the authority's invoice types, or its name attribute and UNCL 1001 code disagree",
    example: '/Invoice/cbc:InvoiceTypeCode',
    lenient: false,
  },
} as const satisfies Record<string, RuleCode>

export type RuleCodeId = keyof typeof RULE_CODES

/**
 * The codes of the service's other request problems (IRNs, QR codes, transmit, merchant history,
 * keys, batches), kept apart from the invoice rules so that a test of invoice replies can still insist
 * on invoice codes. Both maps are part of the error catalogue (lib/service/error-catalogue.ts), which
 * docs/errors.md and the OpenAPI document are generated from (test/unit/invoice/error-codes.test.ts
 * collects the codes lib/ writes and checks each is catalogued).
 */
export const REQUEST_CODES = {
  INVOICE_REFERENCE_MISMATCH: {
    meaning: "validate-irn's invoice_reference is not the IRN's first segment (its invoice reference)",
    example: 'invoice_reference',
    lenient: false,
  },
  SERVICE_ID_NOT_OWN: {
    meaning: "generate-irn's or generate-qr-code's service_id is not the caller's business's service id",
    example: 'service_id',
    lenient: false,
  },
  QR_PAYLOAD_TOO_LONG: {
    meaning: 'The QR payload (IRN, timestamp, certificate) is longer than one RSA-2048 block',
    example: 'certificate',
    lenient: false,
  },
  TEST_CLOCK_LIMIT: {
    meaning: 'A test clock advance would take the clock more than 10 years ahead of the real time in all',
    example: 'seconds',
    lenient: false,
  },
  QR_NOT_RECOGNISED: {
    meaning: 'verify-qr was sent a text that is not a QR code issued by this service',
    example: 'qr',
    lenient: false,
  },
  too_many_matches: {
    meaning: 'A merchant history reference names more transactions than status and date filters apply to',
    example: 'query/reference',
    lenient: false,
  },
  API_SECRET_SENT: {
    meaning:
      'An Area A request carried x-api-secret: the secret is never sent, the request is signed with it',
    example: 'x-api-secret',
    lenient: false,
    status: 401,
  },
  TOO_MANY_KEYS: {
    meaning:
      'POST /api/v1/keys: the business already has 20 active API keys of that mode; revoke one it no longer uses first',
    example: 'mode',
    lenient: false,
    status: 409,
  },
  malformed_path: {
    meaning: "A path segment's percent-encoding does not decode to UTF-8 (encode each byte as %XX)",
    example: 'path',
    lenient: false,
  },
  INVOICE_NOT_FOUND: {
    meaning:
      "No invoice with this IRN belongs to the caller's business (another business's invoices are never shown)",
    example: 'irn',
    lenient: false,
    status: 404,
    action: "Check the IRN, and that it is your business's and of this mode (live or test)",
  },
  // Area D (notification templates).
  TEMPLATE_EXISTS: {
    meaning: 'A template for this productCode and messageType already exists',
    example: 'productCode',
    lenient: false,
    status: 409,
    action: 'Replace it with PUT /notification/template/{templateID} (the message names the id)',
  },
  TEMPLATE_VERSION_STALE: {
    meaning: "The PUT's version is not the template's current version (someone changed it)",
    example: 'version',
    lenient: false,
    status: 409,
    action: 'Read the template again and reapply your change',
  },
  TEMPLATE_NOT_FOUND: {
    meaning: 'No notification template has this templateID',
    example: 'templateId',
    lenient: false,
    status: 404,
    action: 'Check the id with GET /notification/template?product=',
  },
  WEBHOOK_DOWN: {
    meaning: "Transmit found a party's system down: the invoice stays SIGNED, retry later",
    example: 'parties/supplier/webhook',
    lenient: false,
    status: 503,
  },
  DELIVERY_FAILED: {
    meaning: "Transmit could not deliver the invoice to the buyer's system: it stays SIGNED, retry later",
    example: 'parties/buyer/delivery',
    lenient: false,
    status: 503,
  },
  BATCH_RESULT_TOO_LARGE: {
    meaning:
      "A batch item's result is too large to keep with the batch: the item failed and nothing of its invoice was written; send that invoice on its own",
    example: '(body)',
    lenient: false,
    status: 413,
  },
  BATCH_ITEM_RETRIES_EXHAUSTED: {
    meaning:
      'A batch item met a fault on our side on each of its attempts and failed: submit that invoice again',
    example: '(body)',
    lenient: false,
    status: 503,
  },
  STATEMENT_PERIOD_MISSING: {
    meaning:
      'GET /api/v1/merchant/statement: give from and to (Lagos days, YYYY-MM-DD), both, or date for one day',
    example: 'query/from',
    lenient: false,
  },
  STATEMENT_PERIOD_REVERSED: {
    meaning: 'GET /api/v1/merchant/statement: to is before from; swap them',
    example: 'query/to',
    lenient: false,
  },
  STATEMENT_PERIOD_TOO_LONG: {
    meaning:
      'GET /api/v1/merchant/statement: a statement covers at most 31 days; ask for the period in parts',
    example: 'query/to',
    lenient: false,
  },
  STATEMENT_CURSOR_INVALID: {
    meaning:
      "GET /api/v1/merchant/statement: the cursor is not one this statement gave; follow the previous page's Link with the same from and to",
    example: 'query/cursor',
    lenient: false,
  },
  STATEMENT_FORMAT_NOT_ACCEPTABLE: {
    meaning:
      'GET /api/v1/merchant/statement: format= and Accept disagree, or Accept names no statement format; make them agree or drop one',
    example: 'header/accept',
    lenient: false,
    status: 406,
  },
  // B2C devices and receipts (CONTRACT 23; lib/receipts). The RECEIPT_ codes are a REJECTED receipt's
  // `errors` in the 200 reply of POST /api/v1/receipts, its path within the receipt.
  INVALID_DEVICE_KEY: {
    meaning:
      'POST /api/v1/devices: public_key is not a public Ed25519 (OKP) or P-256 (EC) JWK, or it holds the private key (d)',
    example: 'public_key/d',
    lenient: false,
    action: 'Register the public half of the key: {kty, crv, x} (and y for EC), base64url coordinates',
  },
  TOO_MANY_DEVICES: {
    meaning: 'POST /api/v1/devices: the business already has 100 active devices of that mode',
    example: '(body)',
    lenient: false,
    status: 409,
    action: 'Revoke a device it no longer uses (DELETE /api/v1/devices/{id}) first',
  },
  DEVICE_KEY_REGISTERED: {
    meaning: 'POST /api/v1/devices: this public key is registered for a device of the business already',
    example: 'public_key',
    lenient: false,
    status: 409,
    action: 'Generate a new key pair on the device: each device has a key of its own',
  },
  RECEIPT_SHAPE: {
    meaning: 'A receipt lacks device {device_id, counter, prev_hash, issued_at} or signature in their forms',
    example: 'device/counter',
    lenient: false,
    status: 200,
    action: 'Build the receipt as CONTRACT 23 says (the client package does) and report it again',
  },
  RECEIPT_UNKNOWN_DEVICE: {
    meaning: "A receipt's device_id is no device of the business in the key's mode",
    example: 'device/device_id',
    lenient: false,
    status: 200,
    action: 'Register the device (POST /api/v1/devices) and sign with its key',
  },
  RECEIPT_DEVICE_REVOKED: {
    meaning: 'The device was revoked before the receipt was issued',
    example: 'device/issued_at',
    lenient: false,
    status: 200,
    action: 'Issue receipts from an active device',
  },
  RECEIPT_SIGNATURE: {
    meaning: "The receipt's signature does not verify with the device's key over its RFC 8785 bytes",
    example: 'signature',
    lenient: false,
    status: 200,
    action: 'Send the receipt exactly as signed, never rebuilt',
  },
  RECEIPT_GENESIS: {
    meaning: "Counter 1 does not name the device's genesis_hash as prev_hash",
    example: 'device/prev_hash',
    lenient: false,
    status: 200,
    action: 'Start the chain from the genesis_hash given at registration',
  },
  RECEIPT_FUTURE: {
    meaning: "The receipt's issued_at is more than 5 minutes ahead of the server's time",
    example: 'device/issued_at',
    lenient: false,
    status: 200,
    action: "Set the device's clock right and report a correction naming corrects",
  },
  RECEIPT_NOT_B2C: {
    meaning: "A receipt's invoice_kind is not B2C",
    example: 'invoice_kind',
    lenient: false,
    status: 200,
    action: 'Report B2B and B2G invoices through sign; report a correction naming corrects',
  },
  RECEIPT_IRN_USED: {
    meaning: "The receipt's IRN is used by another invoice or receipt",
    example: 'irn',
    lenient: false,
    status: 200,
    action: 'Report a correction with an IRN of its own, naming corrects',
  },
  RECEIPT_INVOICE: {
    meaning: "The receipt's invoice was refused for a reason the message gives",
    example: '(body)',
    lenient: false,
    status: 200,
    action: 'Report a correction naming corrects',
  },
  COMPLIANCE_RANGE: {
    meaning:
      'GET /api/v1/compliance/report: from or to is not a Lagos day (YYYY-MM-DD), to is before from, or the range is over 31 days',
    example: 'query/to',
    lenient: false,
    status: 400,
    action:
      'Ask for at most 31 issue days, from <= to, as YYYY-MM-DD; split a longer period into several reports',
  },
} as const satisfies Record<string, RuleCode>
