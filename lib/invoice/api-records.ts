import * as z from 'zod'
import { PAYMENT_STATUSES } from './record.ts'
import { IRN_PATTERN, PaymentStatusInput, TIN_PATTERN } from './schemas.ts'

/**
 * The other Area A records of the spec (A.6, A.9), the contract's additions to them, and the Envelope
 * of A.1, as zod: the OpenAPI document is generated from these, and the services that implement the
 * endpoints may validate with them.
 */

/** `{path, code, message}`: one problem found in a request (CONTRACT section 3). */
export const Problem = z.object({
  path: z.string().meta({ description: 'JSON-pointer-like path, e.g. invoice_line/3/price/price_amount' }),
  code: z.string().meta({ description: 'A stable rule code (NG-...) or a validation code' }),
  message: z.string(),
})

/** A.9, with the contract's `errors` list. */
export const FirsErrorDetails = z.object({
  timestamp: z.iso.datetime(),
  message: z.string(),
  details: z.string().meta({ description: 'The errors as one readable string' }),
  status: z
    .string()
    .regex(/^\d{3} [A-Z0-9_]+$/)
    .meta({ description: '"<code> <NAME>", e.g. 400 BAD_REQUEST' }),
  errors: z.array(Problem),
})

/** A.1's Envelope around a success's data. */
export const envelopeOf = (data: z.ZodType) =>
  z.object({
    status: z.literal('SUCCESS'),
    message: z.string(),
    data,
    execTime: z.string().meta({ description: 'Handler time, e.g. "12ms"' }),
    error: z.null(),
  })

/** A.1's Envelope around a failure. */
export const FailedEnvelope = z.object({
  status: z.literal('FAILED'),
  message: z.string(),
  data: z.null(),
  execTime: z.string(),
  error: FirsErrorDetails,
})

/** AccessPointProviderResponse (A.6) plus irn, signed_at (CONTRACT section 5) and warnings (section 4). */
export const AccessPointProviderResponse = z.object({
  message: z.string(),
  payment_status: z.enum(PAYMENT_STATUSES),
  irn: z.string(),
  signed_at: z.iso
    .datetime()
    .optional()
    .meta({ description: 'When the invoice was signed (sign and app validate only)' }),
  warnings: z
    .array(Problem)
    .optional()
    .meta({ description: 'Unknown keys ignored, and in lenient mode the arithmetic findings' }),
})

const invoiceNumber = z.string().regex(/^[A-Za-z0-9]{2,50}$/)

export const GenerateIRNRequest = z.object({
  invoice_number: invoiceNumber,
  issuance_date: z
    .string()
    .regex(/^\d{8}$/)
    .optional(),
  service_id: z.string(),
  business_id: z.string(),
})
export const GenerateIRNRequestQRCode = GenerateIRNRequest.extend({ certificate: z.string().optional() })
export const GenerateIRNResponse = z.object({ irn: z.string().regex(IRN_PATTERN) })
export const GenerateInvoiceNumberRequest = z.object({
  code: z
    .string()
    .regex(/^[A-Z]{2,5}$/)
    .optional(),
  serial_number: z.int().min(1).optional(),
})
export const GenerateInvoiceNumberResponse = z.object({ invoice_number: z.string() })
export const GenerateQrCodeResponse = z.object({
  qr_code_base64: z.string().meta({ description: 'data:image/png;base64,... URL' }),
  qr_code_file_bytes: z.base64().meta({ description: 'The same PNG, base64' }),
})
export const VerifyTinRequest = z.object({ tin: z.string().regex(TIN_PATTERN) })
export const VerifyTinApiResponse = z.object({
  message: z.string(),
  tin: z.string(),
  taxpayer_name: z.string(),
  address: z.string(),
  taxofficer_id: z.string(),
  taxofficer_name: z.string(),
  rc_number: z.string(),
  email: z.string(),
  phone: z.string(),
})
export const ValidatePreGeneratedIrnRequest = z.object({
  irn: z.string().regex(IRN_PATTERN),
  business_id: z.string(),
})
export const TransmitInvoiceRequest = z.object({ irn: z.string() })
export const TransmitInvoiceResponse = z.object({ message: z.array(z.string()) })
export const UpdateInvoiceRequest = z.object({ payment_status: PaymentStatusInput })
export const DataResponse = z.object({ message: z.string() })
export const InvoiceTypeResponse = z.object({ code: z.string(), value: z.string() })
export const IrnPathParams = z.object({ irn: z.string() })

/** The JWKS of GET /api/v1/resource/public-keys. */
export const PublicJwk = z.object({
  kty: z.literal('OKP'),
  crv: z.literal('Ed25519'),
  x: z.string().meta({ description: 'The raw public key, base64url' }),
  kid: z.string().meta({ description: 'RFC 7638 thumbprint of the key' }),
  use: z.literal('sig'),
  alg: z.literal('EdDSA'),
})
export const Jwks = z.object({ keys: z.array(PublicJwk) })

/** Named for the OpenAPI components. */
export function apiRecordComponents(): Record<string, z.ZodType> {
  return {
    Problem,
    FirsErrorDetails,
    FailedEnvelope,
    AccessPointProviderResponse,
    GenerateIRNRequest,
    GenerateIRNRequestQRCode,
    GenerateIRNResponse,
    GenerateInvoiceNumberRequest,
    GenerateInvoiceNumberResponse,
    GenerateQrCodeResponse,
    VerifyTinRequest,
    VerifyTinApiResponse,
    ValidatePreGeneratedIrnRequest,
    TransmitInvoiceRequest,
    TransmitInvoiceResponse,
    UpdateInvoiceRequest,
    DataResponse,
    InvoiceTypeResponse,
    PublicJwk,
    Jwks,
  }
}
