import * as z from 'zod'
import { type EndpointDocs, endpointsOf } from '#lib/platform/http/endpoint.ts'
import { GenerateInvoiceNumberRequest } from '#lib/invoice-number/schemas.ts'
import { INVALID_BODY, SI } from './common.ts'

/** The standardised invoice number (A.6, CONTRACT section 5). */

export const generateInvoiceNumber = /* @__PURE__ */ /* @__PURE__ */ endpointsOf({
  domain: 'invoice-number',
  stack: 'invoicing',
  area: 'A',
  auth: 'api-signature',
  reply: 'envelope',
  versions: ['v1', 'v2'],
})({
  functionId: 'si-generate-invoice-number',
  routes: [{ method: 'POST', path: '/si/generate-invoice-number' }],
  roles: SI,
  // The counter is an item of the business's own partition (keys.invoiceNumberCounter): one ADD.
  access: { table: [{ actions: ['UpdateItem'], keys: ['BUSINESS#'] }] },
  request: { body: GenerateInvoiceNumberRequest },
})

export const generateInvoiceNumberDocs = (): EndpointDocs => ({
  summary: 'Generate a standardised invoice number',
  description:
    '`code` (default INV) + `serial_number` zero-padded to 6. Without serial_number, the next value of an atomic per-business, per-code counter is used.',
  example: { code: 'INV', serial_number: 42 },
  replies: () => ({
    200: {
      description: 'The invoice number',
      data: z.object({
        invoice_number: z
          .string()
          .meta({ description: 'code + serial number zero-padded to 6, e.g. INV000042' }),
      }),
    },
    400: INVALID_BODY,
  }),
})
