import * as z from 'zod'
import { endpoint } from '#lib/http/endpoint.ts'
import { GenerateInvoiceNumberRequest } from '#lib/invoice-number/schemas.ts'
import { GenerateIrnRequest, ValidateIrnRequest } from '#lib/irn/schemas.ts'
import { GenerateQrCodeRequest, VerifyQrRequest } from '#lib/qr/schemas.ts'
import { VerifyTinRequest } from '#lib/taxpayer/schemas.ts'
import { INVALID_BODY, Irn, IsoDateTime, NOT_YOURS } from './common.ts'

/** IRNs, QR codes, invoice numbers and TINs: the small Area A endpoints (A.6, CONTRACT section 5). */

export const GenerateIrnResponse = z.object({ irn: Irn }).meta({ id: 'GenerateIRNResponse' })

const irnRequestExample = {
  invoice_number: 'INV000042',
  issuance_date: '20261121',
  service_id: '94ND90NR',
  business_id: '11111111-1111-4111-8111-111111111111',
}

export const generateIrn = endpoint({
  functionId: 'si-generate-irn',
  summary: 'Generate an IRN',
  description:
    "Builds `<invoice_number>-<service_id>-<issuance_date or today>` and records it as GENERATED for the caller's business. The same request again returns the same IRN.",
  request: { body: GenerateIrnRequest, example: irnRequestExample },
  replies: {
    200: {
      description: 'The IRN',
      data: GenerateIrnResponse,
      example: { irn: 'INV000042-94ND90NR-20261121' },
    },
    400: `${INVALID_BODY}, or service_id is not your business's service id`,
    404: NOT_YOURS,
    409: 'The IRN is already registered to another business',
  },
})

export const validateIrn = endpoint({
  functionId: 'app-invoice-validate-irn',
  summary: 'Validate an IRN generated earlier',
  description: "Replies the IRN when it was generated for the caller's business; 400 otherwise.",
  request: {
    body: ValidateIrnRequest,
    example: { irn: 'INV000042-94ND90NR-20261121', business_id: irnRequestExample.business_id },
  },
  replies: {
    200: { description: 'The IRN was generated for this business', data: GenerateIrnResponse },
    400: `${INVALID_BODY}, or the IRN was not generated for this business`,
    404: NOT_YOURS,
  },
})

export const GenerateQrCodeResponse = z.object({
  qr_code_base64: z.string().meta({ description: 'The QR code as a data:image/png;base64,... URL' }),
  qr_code_file_bytes: z.base64().meta({ description: 'The same PNG, base64' }),
})

export const generateQrCode = endpoint({
  functionId: 'si-generate-qr-code',
  summary: 'Generate an IRN and its QR code',
  description:
    "Generates the IRN as generate-irn does and encodes it in the authority's QR form: Base64(RSA-PKCS#1 v1.5(authority key, {irn.timestamp, certificate})). `certificate` overrides the business's own.",
  request: { body: GenerateQrCodeRequest, example: irnRequestExample },
  replies: {
    200: { description: 'The QR code of the IRN', data: GenerateQrCodeResponse },
    400: `${INVALID_BODY}, or the QR payload does not fit one RSA-2048 block`,
    404: NOT_YOURS,
    409: 'The IRN is already registered to another business',
  },
})

export const VerifyQrResponse = z.object({
  irn: Irn,
  timestamp: z.int().meta({ description: 'When the QR code was made, Unix seconds' }),
  issued_at: IsoDateTime.meta({ description: 'The same time, ISO 8601' }),
  certificate_valid: z.boolean().meta({ description: "Whether the certificate is the IRN's business's" }),
  status: z.enum(['GENERATED', 'VALIDATED', 'SIGNED', 'TRANSMITTED']).meta({
    description: "The invoice's lifecycle status",
  }),
})

export const verifyQr = endpoint({
  functionId: 'resource-verify-qr',
  summary: 'Verify a QR code',
  description:
    "Decrypts a QR text made by this service and replies its IRN, when it was made, whether its certificate belongs to the IRN's business, and the invoice's status, so a buyer can check a printed invoice.",
  request: { body: VerifyQrRequest, example: { qr: 'bXlRckNvZGVUZXh0' } },
  replies: {
    200: { description: 'What the QR code says', data: VerifyQrResponse },
    400: `${INVALID_BODY}, or the text is not a QR code of this service`,
    404: 'The QR code names an IRN this service does not know',
  },
})

export const GenerateInvoiceNumberResponse = z.object({
  invoice_number: z.string().meta({ description: 'code + serial number zero-padded to 6, e.g. INV000042' }),
})

export const generateInvoiceNumber = endpoint({
  functionId: 'si-generate-invoice-number',
  summary: 'Generate a standardised invoice number',
  description:
    '`code` (default INV) + `serial_number` zero-padded to 6. Without serial_number, the next value of an atomic per-business, per-code counter is used.',
  request: { body: GenerateInvoiceNumberRequest, example: { code: 'INV', serial_number: 42 } },
  replies: {
    200: {
      description: 'The invoice number',
      data: GenerateInvoiceNumberResponse,
    },
    400: INVALID_BODY,
  },
})

export const VerifyTinApiResponse = z.object({
  message: z.string(),
  tin: z.string().meta({ description: 'Taxpayer Identification Number' }),
  taxpayer_name: z.string(),
  address: z.string(),
  taxofficer_id: z.string(),
  taxofficer_name: z.string(),
  rc_number: z.string().meta({ description: 'Company registration number' }),
  email: z.string(),
  phone: z.string(),
})

export const verifyTin = endpoint({
  functionId: 'resource-verify-tin',
  summary: 'Verify a TIN',
  description: 'Looks the TIN up in the taxpayer registry.',
  request: { body: VerifyTinRequest, example: { tin: '12345678-0001' } },
  replies: {
    200: { description: 'The taxpayer', data: VerifyTinApiResponse },
    400: INVALID_BODY,
    404: 'No taxpayer has this TIN',
  },
})
