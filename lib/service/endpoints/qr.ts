import * as z from 'zod'
import { DEVICE_BY_ID_PREFIX, RECEIPT_PREFIX } from '#lib/platform/db/keys.ts'
import { type EndpointDocs, endpointsOf } from '#lib/platform/http/endpoint.ts'
import { GenerateQrCodeRequest, VerifyQrRequest } from '#lib/qr/schemas.ts'
import { ANY, INVALID_BODY, Irn, IsoDateTime, NOT_YOURS, reads, SI, writes } from './common.ts'
import { irnRequestExample, TAKEN } from './irn.ts'

/** The QR code of an IRN, and its verification (CONTRACT section 5). */

const qr = /* @__PURE__ */ endpointsOf({
  domain: 'qr',
  stack: 'invoicing',
  area: 'A',
  auth: 'api-signature',
  reply: 'envelope',
  versions: ['v1', 'v2'],
})

export const generateQrCode = /* @__PURE__ */ qr({
  functionId: 'si-generate-qr-code',
  routes: [{ method: 'POST', path: '/si/generate-qr-code' }],
  roles: SI,
  access: { table: [writes(['IRN#', 'AUDIT#']), reads(['BUSINESS#'])], secrets: ['qr-authority-key'] },
  request: { body: GenerateQrCodeRequest },
})
export const verifyQr = /* @__PURE__ */ qr({
  functionId: 'resource-verify-qr',
  versions: ['v1'],
  routes: [{ method: 'POST', path: '/resource/verify-qr' }],
  roles: ANY,
  // The QR text opens with the authority key; the IRN it names is then looked up. A receipt's QR (a
  // URL, CONTRACT 23) names its device (DEVICEID#) and its place in the device's chain (RCPT#).
  access: {
    table: [reads(['IRN#', 'BUSINESS#', DEVICE_BY_ID_PREFIX, RECEIPT_PREFIX])],
    secrets: ['qr-authority-key'],
  },
  request: { body: VerifyQrRequest },
})

export const generateQrCodeDocs = (): EndpointDocs => ({
  summary: 'Generate an IRN and its QR code',
  description:
    "Generates the IRN as generate-irn does and encodes it in the authority's QR form: Base64(RSA-PKCS#1 v1.5(authority key, {irn.timestamp, certificate})). `certificate` overrides the business's own.",
  example: irnRequestExample,
  replies: () => ({
    200: {
      description: 'The QR code of the IRN',
      data: z.object({
        qr_code_base64: z.string().meta({ description: 'The QR code as a data:image/png;base64,... URL' }),
        qr_code_file_bytes: z.base64().meta({ description: 'The same PNG, base64' }),
      }),
    },
    400: `${INVALID_BODY}, or the QR payload does not fit one RSA-2048 block`,
    404: NOT_YOURS,
    409: TAKEN,
  }),
})

export const verifyQrDocs = (): EndpointDocs => ({
  summary: 'Verify a QR code',
  description:
    "Decrypts a QR text made by this service and replies its IRN, when it was made, whether its certificate belongs to the IRN's business, and the invoice's status, so a buyer can check a printed invoice. Live and test mode have authority keys of their own: the QR text opens with the key of the caller's mode only (a test-mode QR code is not recognised by a live key, nor the reverse), and `mode` says which.",
  example: { qr: 'bXlRckNvZGVUZXh0' },
  replies: () => ({
    200: {
      description:
        'What the QR code says: an invoice\'s QR text, or a B2C receipt\'s QR URL (`kind: "receipt"`)',
      data: z.union([InvoiceQrReply(), ReceiptQrReply()]),
    },
    400: `${INVALID_BODY}, or the text is not a QR code of this service`,
    404: "The QR code names an IRN this service does not know, or a receipt's device not registered in your key's mode",
  }),
})

const InvoiceQrReply = () =>
  z.object({
    irn: Irn(),
    timestamp: z.int().meta({ description: 'When the QR code was made, Unix seconds' }),
    issued_at: IsoDateTime().meta({ description: 'The same time, ISO 8601' }),
    certificate_valid: z.boolean().meta({ description: "Whether the certificate is the IRN's business's" }),
    status: z.enum(['GENERATED', 'VALIDATED', 'SIGNED', 'TRANSMITTED']).meta({
      description: "The invoice's lifecycle status",
    }),
    mode: z.enum(['live', 'test']).meta({
      description: 'The mode the QR code was made in: `test` for a sandbox QR code, which is no tax document',
    }),
  })

/** What the receipt's verification page says (lib/receipts/verify-page-lookup.ts ReceiptCheck). */
const ReceiptQrReply = () =>
  z.object({
    kind: z.literal('receipt'),
    verdict: z.enum(['GENUINE', 'NOT_GENUINE', 'NOT_MATCHING', 'NOT_YET_REPORTED']).meta({
      description:
        "GENUINE: the device reported a receipt with this hash, IRN and signature (its signature checked against the device's key when reported); NOT_GENUINE: the signature or IRN is not the reported receipt's; NOT_MATCHING: the device reported another receipt under this counter; NOT_YET_REPORTED: nothing reported under this counter yet (the QR carries the hash, not the signed bytes, so the signature is checked once it is reported)",
    }),
    mode: z.enum(['live', 'test']),
    irn: Irn(),
    device_id: z.string(),
    counter: z.int(),
    hash: z.string(),
    device: z.object({
      status: z.enum(['ACTIVE', 'REVOKED']),
      revoked_at: IsoDateTime().optional(),
      status_at_issue: z.enum(['ACTIVE', 'REVOKED']).optional(),
    }),
    issued_at: IsoDateTime().optional(),
    reported_at: IsoDateTime()
      .optional()
      .meta({ description: 'When the service received it (GENUINE only)' }),
    late: z.boolean().optional().meta({ description: 'Received after issued_at + 24 h' }),
    report_status: z.enum(['REPORTED', 'FORK', 'REJECTED']).optional(),
  })
