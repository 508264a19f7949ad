import * as z from 'zod'
import { INBOX_PREFIX, SEARCH_LIST_PREFIX } from '#lib/platform/db/keys.ts'
import { type EndpointDocs, endpointsOf } from '#lib/platform/http/endpoint.ts'
import { INVOICE_STATUSES, PAYMENT_STATUSES } from '#lib/invoice/record.ts'
import { IrnPath, PullQuery, TransmitRequest, UpdateRequest } from '#lib/lifecycle/schemas.ts'
import { Adjustments, ANY, APP, INVALID_BODY, Irn, IsoDateTime, reads, SI, writes } from './common.ts'

/** Transmit, update, confirm and get-invoice (CONTRACT section 5). */

const lifecycle = /* @__PURE__ */ endpointsOf({
  domain: 'lifecycle',
  stack: 'invoicing',
  area: 'A',
  auth: 'api-signature',
  reply: 'envelope',
  versions: ['v1', 'v2'],
})

export const transmit = /* @__PURE__ */ lifecycle({
  functionId: 'app-invoice-transmit',
  routes: [
    { method: 'POST', path: '/app/invoice/transmit' },
    // The authority's transmit names the invoice in its path and sends no body.
    { method: 'POST', path: '/api/v1/invoice/transmit/{irn}', profile: 'authority', bodyFromPath: true },
  ],
  roles: APP,
  // Transmit hands the stored invoice, notes opened, to the buyer's system.
  access: {
    // The buyer is found by TIN, and its system by its business's clients (gsi1, BUSINESS#<id>#CLIENTS).
    // The buyer's inbox item (INBOX#, lib/lifecycle/inbox.ts) is put in the transmit's transaction.
    table: [writes(['IRN#', 'EVENT#', 'AUDIT#', INBOX_PREFIX]), reads(['BUSINESS#', 'TIN#'], ['gsi1'])],
    decrypt: ['invoice'],
  },
  // The authority's path names the IRN (its body is built from it); the seed's path has none.
  request: { body: TransmitRequest, params: /* @__PURE__ */ IrnPath.partial() },
})
export const update = /* @__PURE__ */ lifecycle({
  functionId: 'app-invoice-update',
  routes: [
    { method: 'PATCH', path: '/app/invoice/update/{irn}' },
    { method: 'PATCH', path: '/api/v1/invoice/update/{irn}', profile: 'authority' },
  ],
  roles: APP,
  // The invoice's search list item (INVLIST#) shows its payment status too.
  // ...and so does the buyer's inbox item (INBOX#), with the update's `reference`.
  access: {
    table: [writes(['IRN#', 'EVENT#', 'AUDIT#', SEARCH_LIST_PREFIX, INBOX_PREFIX]), reads(['BUSINESS#'])],
  },
  request: { params: IrnPath, body: UpdateRequest },
})
export const confirm = /* @__PURE__ */ lifecycle({
  functionId: 'app-invoice-confirm',
  routes: [
    { method: 'GET', path: '/app/invoice/confirm/{irn}' },
    { method: 'GET', path: '/api/v1/invoice/confirm/{irn}', profile: 'authority' },
  ],
  roles: APP,
  access: { table: [reads(['IRN#', 'BUSINESS#'])] },
  request: { params: IrnPath },
})
export const getInvoice = /* @__PURE__ */ lifecycle({
  functionId: 'si-get-invoice',
  routes: [
    { method: 'GET', path: '/si/get-invoice/{irn}' },
    // The authority's download serves the supplier or the buyer, whatever its role.
    {
      method: 'GET',
      path: '/api/v1/invoice/download/{irn}',
      roles: ['SI', 'APP', 'ADMIN'],
      profile: 'authority',
    },
  ],
  roles: SI,
  access: { table: [reads(['IRN#', 'BUSINESS#'])], decrypt: ['invoice'] },
  request: { params: IrnPath },
})

/** The authority's routes the seed lacks (CONTRACT 17): the buyer's side of the exchange. */
export const confirmReceipt = /* @__PURE__ */ lifecycle({
  functionId: 'invoice-confirm-receipt',
  stack: 'exchange',
  // The authority's client sends no body: the IRN in the path is the request.
  routes: [
    { method: 'PATCH', path: '/api/v1/invoice/transmit/{irn}', profile: 'authority', bodyFromPath: true },
  ],
  // The buyer confirms whatever its key's role: the authority's clients use one key for everything.
  roles: ANY,
  // The record (IRN#), its event and audit, and the buyer's inbox item (INBOX#); the caller's business
  // (BUSINESS#) says whether it is the buyer.
  access: { table: [writes(['IRN#', 'EVENT#', 'AUDIT#', INBOX_PREFIX]), reads(['BUSINESS#'])] },
  request: { params: IrnPath },
})
export const transmitLookup = /* @__PURE__ */ lifecycle({
  functionId: 'invoice-transmit-lookup',
  stack: 'exchange',
  routes: [{ method: 'GET', path: '/api/v1/invoice/transmit/lookup/{irn}', profile: 'authority' }],
  roles: ANY,
  access: { table: [reads(['IRN#', 'BUSINESS#'])] },
  request: { params: IrnPath },
})
export const transmitPull = /* @__PURE__ */ lifecycle({
  functionId: 'invoice-transmit-pull',
  stack: 'exchange',
  routes: [{ method: 'GET', path: '/api/v1/invoice/transmit/pull', profile: 'authority' }],
  roles: ANY,
  // Only the caller's own inbox: the table partition and its two receipt partitions on gsi1.
  access: { table: [reads([INBOX_PREFIX], ['gsi1'])] },
  request: { query: PullQuery },
})

const UNKNOWN_IRN = "No invoice of the caller's business has this IRN"
const BAD_IRN = 'The IRN in the path is invalid'

export const transmitDocs = (): EndpointDocs => ({
  summary: 'Transmit a signed invoice',
  description:
    "Checks the webhook of every involved party that has one (2 s timeout each), delivers the signed invoice to the buyer's webhook and records it as TRANSMITTED. If any webhook is down, 503 and nothing changes. Transmitting again is idempotent. In test mode only the parties' test-mode systems count, and two buyer TINs are magic (docs/sandbox.md): `00000000-0101` is a buyer whose system is up (200; its `invoice.received` goes to your own subscriptions) and `00000000-0102` one whose system is down (503 WEBHOOK_DOWN).",
  example: { irn: 'INV000042-94ND90NR-20261121' },
  examples: {
    sandboxBuyerUp: {
      summary:
        'Test mode: an invoice whose buyer TIN (accounting_customer_party.tin) is 00000000-0101, a buyer system that is up: 200, invoice.received delivered to your own subscriptions',
      value: { irn: 'INV000101-94ND90NR-20261121' },
    },
    sandboxBuyerDown: {
      summary:
        'Test mode: an invoice whose buyer TIN is 00000000-0102, a buyer system that is down: 503 WEBHOOK_DOWN, the invoice stays SIGNED',
      value: { irn: 'INV000102-94ND90NR-20261121' },
    },
  },
  replies: () => ({
    200: {
      description: 'Transmitted (or already transmitted)',
      data: z.object({ message: z.array(z.string()).meta({ description: 'One line per party and step' }) }),
    },
    400: INVALID_BODY,
    404: UNKNOWN_IRN,
    409: 'The invoice is not SIGNED yet',
    503: "A party's webhook is down, or a dependency is unavailable: nothing changed",
  }),
})

export const updateDocs = (): EndpointDocs => ({
  summary: "Update an invoice's payment status",
  description:
    "Only the supplier business: PENDING -> PAID or REJECTED, with an optional `reference` (up to 200 characters, e.g. the payment's own reference) stored with the change and shown by confirm, the pulled invoice and the buyer's inbox. The same value again is a no-op 200 (the reference stays as it was); leaving PAID or REJECTED is 409. `payment_status` may be the name or the numeric code (0=REJECTED, 1=PENDING, 2=PAID).",
  example: { payment_status: 'PAID', reference: 'TRF-2026-000123' },
  replies: () => ({
    200: {
      description: 'Updated, or unchanged',
      data: z.object({ message: z.string().meta({ description: 'What changed' }) }),
    },
    400: 'The body or the IRN in the path is invalid',
    404: UNKNOWN_IRN,
    409: 'A forbidden transition (leaving PAID or REJECTED)',
  }),
})

const timestamp = (what: string) =>
  IsoDateTime()
    .nullable()
    .meta({ description: `${what}; null until then` })

export const confirmDocs = (): EndpointDocs => ({
  summary: 'Confirm the status of an IRN',
  description: "The invoice's lifecycle: status, payment status and when each step happened.",
  replies: () => ({
    200: {
      description: "The invoice's lifecycle",
      data: z.object({
        irn: Irn(),
        status: z.enum(INVOICE_STATUSES).meta({ description: 'Lifecycle status' }),
        payment_status: z.enum(PAYMENT_STATUSES),
        business_id: z.string().meta({ description: 'The issuing business' }),
        validated_at: timestamp('When the invoice was validated'),
        signed_at: timestamp('When it was signed'),
        transmitted_at: timestamp('When it was transmitted'),
        received_at: timestamp('When the buyer confirmed receipt (PATCH /api/v1/invoice/transmit/{irn})'),
        reference: z.string().nullable().meta({
          description: "The supplier's payment reference, given with its last payment status update",
        }),
      }),
    },
    400: BAD_IRN,
    404: UNKNOWN_IRN,
  }),
})

export const getInvoiceDocs = (): EndpointDocs => ({
  summary: 'Pull a signed invoice (buyer or supplier)',
  description:
    "The buyer (customer party TIN = your business TIN) or the supplier may pull an invoice once it is SIGNED; anyone else gets 404. The reply is the invoice as signed (A.7 InvoiceResponse), with its current payment status (CANCELLED where it was REJECTED, or once credit notes took all of its payable amount) and `adjustments`: the credit notes (380, 393) and debit notes (384) signed against it. With `Accept: application/xml`, the same invoice as an OASIS UBL 2.1 document: `CreditNote` for credit notes (380, 393), `Invoice` for every other type, the authority's type code mapped to UN/CEFACT 1001 (381 -> 380, 380 -> 381, 384 -> 383) with the authority's own code in the type code's `name` attribute.",
  replies: () => ({
    200: {
      description: 'The invoice (A.7 InvoiceResponse)',
      otherMedia: {
        'application/xml':
          'The invoice as UBL 2.1 XML (Invoice or CreditNote), valid against the OASIS UBL 2.1 schemas',
      },
      data: z.looseObject({
        irn: Irn(),
        payment_status: z.enum(['PENDING', 'PAID', 'CANCELLED']).meta({
          description: 'CANCELLED where it was REJECTED, or once credit notes took all of its payable amount',
        }),
        reference: z
          .string()
          .optional()
          .meta({ description: "The supplier's payment reference, once an update gave one" }),
        adjustments: Adjustments(),
      }),
    },
    400: BAD_IRN,
    404: 'No signed invoice with this IRN names your business as buyer or supplier',
  }),
})

const Party = () =>
  z
    .object({ tin: z.string(), name: z.string().nullable() })
    .nullable()
    .meta({ description: 'As the invoice names it; null when it names none' })

export const confirmReceiptDocs = (): EndpointDocs => ({
  summary: 'Confirm receipt of a transmitted invoice (buyer)',
  description:
    "The buyer (customer party TIN = your business's TIN) says it has received a TRANSMITTED invoice: the invoice records `received_at`, shown by confirm and the transmit lookup, and the supplier's business gets an `invoice.receipt_confirmed` event. Confirming again is a no-op 200 with the first `received_at` and no second event. The authority's path; no body.",
  replies: () => ({
    200: {
      description: "Receipt confirmed (or confirmed before): the invoice's lifecycle",
      data: z.object({
        irn: Irn(),
        status: z.enum(INVOICE_STATUSES),
        payment_status: z.enum(PAYMENT_STATUSES),
        business_id: z.string().meta({ description: 'The issuing (supplier) business' }),
        validated_at: timestamp('When the invoice was validated'),
        signed_at: timestamp('When it was signed'),
        transmitted_at: timestamp('When it was transmitted'),
        received_at: IsoDateTime().meta({ description: 'When the buyer confirmed receipt (the first time)' }),
        reference: z.string().nullable().meta({ description: "The supplier's payment reference" }),
      }),
    },
    400: BAD_IRN,
    404: 'No signed invoice with this IRN names your business as buyer',
    409: 'The invoice is SIGNED but not transmitted yet',
  }),
})

export const transmitLookupDocs = (): EndpointDocs => ({
  summary: "An invoice's exchange record (supplier or buyer)",
  description:
    "The parties of a signed invoice (TIN and name as the invoice gives them), when it was transmitted and when the buyer confirmed receipt. Only the supplier or the buyer (customer party TIN = your business TIN) sees it; anyone else gets 404. The authority's path.",
  replies: () => ({
    200: {
      description: 'The exchange record',
      data: z.object({
        irn: Irn(),
        status: z.enum(INVOICE_STATUSES),
        supplier: Party(),
        buyer: Party(),
        transmitted_at: timestamp('When it was transmitted'),
        received_at: timestamp('When the buyer confirmed receipt'),
      }),
    },
    400: BAD_IRN,
    404: 'No signed invoice with this IRN names your business as buyer or supplier',
  }),
})

export const transmitPullDocs = (): EndpointDocs => ({
  summary: "The buyer's inbox: invoices transmitted to your business",
  description:
    "Invoices transmitted to your business (customer party TIN = your business's TIN, registered here when transmitted), newest first by `transmitted_at`. `confirmed=true` lists those whose receipt you confirmed, `false` the others; `from` and `to` (a date, or a date-time with offset; inclusive) bound `transmitted_at`. `page` counts from 1 and `data.page.number` from 0; a page reads at most `size` + 1 items, however deep: page 2 and later are read with the previous page's `page.next_cursor` (`cursor=`), which the reply's `Link` header (`rel=\"next\"`) carries. The authority's path.",
  replies: () => ({
    200: {
      description: 'One page of the inbox',
      headers: { Link: 'The next page (`rel="next"`), when there is one' },
      data: z.object({
        content: z
          .array(
            z.object({
              irn: Irn(),
              supplier: z.object({ tin: z.string().nullable(), name: z.string().nullable() }),
              issue_date: z.string().nullable(),
              currency: z.string().nullable().meta({ description: 'The document currency' }),
              amounts: z.record(z.string(), z.number()).nullable().meta({
                description:
                  'legal_monetary_total as signed: line_extension_amount, tax_exclusive_amount, tax_inclusive_amount, payable_amount',
              }),
              transmitted_at: IsoDateTime(),
              received_at: timestamp('When you confirmed receipt'),
              payment_status: z.enum(PAYMENT_STATUSES).meta({ description: 'As the supplier last set it' }),
              reference: z.string().nullable().meta({ description: "The supplier's payment reference" }),
            }),
          )
          .meta({ description: 'Newest first' }),
        page: z.object({
          size: z.int().meta({ description: 'Page size' }),
          number: z.int().meta({ description: "0-based: the request's `page` minus 1" }),
          more: z.boolean().meta({ description: 'Whether a next page exists' }),
          next_cursor: z
            .string()
            .nullable()
            .meta({ description: 'Pass as `cursor` (with `page` + 1) for the next page; null on the last' }),
        }),
      }),
    },
    400: 'A query parameter is invalid: every problem is listed',
  }),
})
