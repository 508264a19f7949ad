import * as z from 'zod'
import { type EndpointDocs, endpointsOf } from '#lib/platform/http/endpoint.ts'
import { IrnPath } from '#lib/lifecycle/schemas.ts'
import { ANY, reads, writes } from './common.ts'

/** The invoice as a document: its PDF (CONTRACT section 16). The UBL XML is get-invoice's (lifecycle.ts). */

const documents = /* @__PURE__ */ endpointsOf({
  domain: 'documents',
  stack: 'invoicing',
  area: 'A',
  auth: 'api-signature',
  reply: 'envelope',
  versions: ['v1', 'v2'],
})

export const invoicePdf = /* @__PURE__ */ documents({
  functionId: 'invoice-pdf',
  routes: [{ method: 'GET', path: '/invoices/{irn}/pdf' }],
  roles: ANY,
  access: {
    // Reads the invoice and the buyer's business (by TIN on the record); writes the invoice's QR text
    // once (InvoiceRecord.qrText), encrypted with the authority key.
    table: [reads(['BUSINESS#']), writes(['IRN#'])],
    secrets: ['qr-authority-key'],
  },
  request: { params: IrnPath },
})

export const invoicePdfDocs = (): EndpointDocs => ({
  summary: 'The invoice as a PDF (supplier or buyer)',
  description:
    "A printable A4 invoice: parties, lines, totals, the IRN and the authority QR code, whose text verify-qr resolves to the IRN. The supplier or the buyer (customer party TIN = your business TIN) may fetch it once the invoice is SIGNED; anyone else gets 404. The same invoice always gives the same bytes: the QR text is made on the first request and stored, and the document's dates are the signing time. The notes (note, payment_terms_note) and the payment status are not printed.",
  replies: () => ({
    200: {
      description: 'The invoice as a PDF',
      data: z.string().meta({ format: 'binary' }),
      mediaType: 'application/pdf',
      headers: { 'content-disposition': '`inline; filename="<IRN>.pdf"`' },
    },
    400: 'The IRN in the path is invalid',
    404: 'No signed invoice with this IRN names your business as buyer or supplier',
    409: 'The business certificate is too long for the QR payload (one RSA-2048 block)',
    503: 'The QR authority key, or another dependency, is unavailable: retry shortly',
  }),
})
