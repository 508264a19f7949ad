import * as z from 'zod'
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
  // The QR text opens with the authority key; the IRN it names is then looked up.
  access: { table: [reads(['IRN#', 'BUSINESS#'])], secrets: ['qr-authority-key'] },
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
      description: 'What the QR code says',
      data: z.object({
        irn: Irn(),
        timestamp: z.int().meta({ description: 'When the QR code was made, Unix seconds' }),
        issued_at: IsoDateTime().meta({ description: 'The same time, ISO 8601' }),
        certificate_valid: z
          .boolean()
          .meta({ description: "Whether the certificate is the IRN's business's" }),
        status: z.enum(['GENERATED', 'VALIDATED', 'SIGNED', 'TRANSMITTED']).meta({
          description: "The invoice's lifecycle status",
        }),
        mode: z.enum(['live', 'test']).meta({
          description:
            'The mode the QR code was made in: `test` for a sandbox QR code, which is no tax document',
        }),
      }),
    },
    400: `${INVALID_BODY}, or the text is not a QR code of this service`,
    404: 'The QR code names an IRN this service does not know',
  }),
})
