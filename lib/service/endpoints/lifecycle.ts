import * as z from 'zod'
import { SEARCH_LIST_PREFIX } from '#lib/platform/db/keys.ts'
import { type EndpointDocs, endpointsOf } from '#lib/platform/http/endpoint.ts'
import { INVOICE_STATUSES, PAYMENT_STATUSES } from '#lib/invoice/record.ts'
import { IrnPath, TransmitRequest, UpdateRequest } from '#lib/lifecycle/schemas.ts'
import { Adjustments, APP, INVALID_BODY, Irn, IsoDateTime, reads, SI, writes } from './common.ts'

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
    table: [writes(['IRN#', 'EVENT#', 'AUDIT#']), reads(['BUSINESS#', 'TIN#'], ['gsi1'])],
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
  access: { table: [writes(['IRN#', 'EVENT#', 'AUDIT#', SEARCH_LIST_PREFIX]), reads(['BUSINESS#'])] },
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
    'Only the supplier business: PENDING -> PAID or REJECTED. The same value again is a no-op 200; leaving PAID or REJECTED is 409. `payment_status` may be the name or the numeric code (0=REJECTED, 1=PENDING, 2=PAID).',
  example: { payment_status: 'PAID' },
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
        adjustments: Adjustments(),
      }),
    },
    400: BAD_IRN,
    404: 'No signed invoice with this IRN names your business as buyer or supplier',
  }),
})
