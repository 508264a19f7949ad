import * as z from 'zod'
import {
  AccessPointProviderResponse,
  apiRecordComponents,
  DataResponse,
  GenerateInvoiceNumberRequest,
  GenerateInvoiceNumberResponse,
  GenerateIRNRequest,
  GenerateIRNRequestQRCode,
  GenerateIRNResponse,
  GenerateQrCodeResponse,
  InvoiceTypeResponse,
  IrnPathParams,
  Jwks,
  TransmitInvoiceRequest,
  TransmitInvoiceResponse,
  UpdateInvoiceRequest,
  ValidatePreGeneratedIrnRequest,
  VerifyTinApiResponse,
  VerifyTinRequest,
} from '#lib/invoice/api-records.ts'
import { StatementQuery, StatementRecord } from '#lib/finance/statement.ts'
import { invoiceComponents, invoiceSchema } from '#lib/invoice/schemas.ts'
import { REFERENCE_LISTS } from '#lib/routes.ts'
import { areaRecordComponents } from './area-records.ts'

/**
 * What the OpenAPI document says about each function, by the route table's functionId. A route
 * without an entry is still documented (path, security, reply and error records of its area), with a
 * generic object for its request and its data. To document your endpoint, add one entry here with
 * the zod schemas your handler uses, then run `npm run openapi` and commit openapi.json.
 */

/** One schema for both API versions, or one per version (the invoice request differs in v2). */
export type Versioned<T> = T | { v1: T; v2: T }

export interface HeaderSpec {
  name: string
  description: string
  schema: z.ZodType
  required?: boolean
}

export interface OperationSpec {
  summary: string
  description?: string
  body?: Versioned<z.ZodType>
  query?: z.ZodObject
  params?: z.ZodObject
  /** The success record, or the `data` of an Envelope / Area C or D reply. */
  response?: Versioned<z.ZodType>
  headers?: HeaderSpec[]
  /** Defaults to 200 (201 for Area D's POSTs, as the spec shows). */
  successStatus?: number
}

const validationModeHeader: HeaderSpec = {
  name: 'x-validation-mode',
  description:
    '`strict` (default): the arithmetic rules (NG-CO-*, NG-DT-02, NG-DT-03) fail the request. `lenient`: they come back as warnings with HTTP 200.',
  schema: z.enum(['strict', 'lenient']),
}

const invoiceBody = { v1: invoiceSchema('v1'), v2: invoiceSchema('v2') }
const referenceRows = z.array(z.record(z.string(), z.unknown()))

export const operations: Record<string, OperationSpec> = {
  'si-validate': {
    summary: 'Validate an invoice (does not sign)',
    description:
      'Checks the invoice against the schema and the authority\'s rules (README: "Invoice rule codes") and records it as VALIDATED. Both versions take ValidateInvoiceRequest, as the spec\'s endpoint table says. Every problem is reported in one 400 reply; unknown keys are ignored, not stored, and listed in `warnings`.',
    body: invoiceSchema('v1'),
    response: AccessPointProviderResponse,
    headers: [validationModeHeader],
  },
  'app-invoice-validate': {
    summary: 'Validate, then sign and report an invoice',
    description:
      "As sign: validates, signs the RFC 8785 canonical JSON with the service's Ed25519 key (JWKS at /api/v1/resource/public-keys) and records the invoice as SIGNED. v2 takes ValidateInvoiceRequestV2.",
    body: invoiceBody,
    response: AccessPointProviderResponse,
    headers: [validationModeHeader],
  },
  'app-invoice-sign': {
    summary: 'Validate, sign and report an invoice',
    description:
      'Signing the same IRN again with identical content returns the first reply (same signed_at); different content is 409. v2 takes ValidateInvoiceRequestV2.',
    body: invoiceBody,
    response: AccessPointProviderResponse,
    headers: [validationModeHeader],
  },
  'resource-public-keys': {
    summary: 'The public keys that verify invoice signatures (JWKS)',
    description:
      'Ed25519 keys (RFC 8037); kid is the RFC 7638 thumbprint. Every key that has signed stays listed.',
    response: Jwks,
  },
  openapi: { summary: 'This OpenAPI document', response: z.record(z.string(), z.unknown()) },

  // The other Area A records are the spec's own (A.6): their endpoints' owners may refine them.
  'si-generate-irn': { summary: 'Generate an IRN', body: GenerateIRNRequest, response: GenerateIRNResponse },
  'si-generate-qr-code': {
    summary: 'Generate an IRN and its QR code',
    body: GenerateIRNRequestQRCode,
    response: GenerateQrCodeResponse,
  },
  'si-generate-invoice-number': {
    summary: 'Generate a standardised invoice number',
    body: GenerateInvoiceNumberRequest,
    response: GenerateInvoiceNumberResponse,
  },
  'resource-verify-tin': { summary: 'Verify a TIN', body: VerifyTinRequest, response: VerifyTinApiResponse },
  'app-invoice-validate-irn': {
    summary: 'Validate an IRN generated earlier',
    body: ValidatePreGeneratedIrnRequest,
    response: GenerateIRNResponse,
  },
  'app-invoice-transmit': {
    summary: 'Transmit a signed invoice',
    body: TransmitInvoiceRequest,
    response: TransmitInvoiceResponse,
  },
  'app-invoice-update': {
    summary: "Update an invoice's payment status",
    params: IrnPathParams,
    body: UpdateInvoiceRequest,
    response: DataResponse,
  },
  'app-invoice-confirm': { summary: 'Confirm the status of an IRN', params: IrnPathParams },
  'si-get-invoice': { summary: 'Pull a signed invoice (buyer or supplier)', params: IrnPathParams },
  'health-check': { summary: 'Health of the application, its dependencies and your webhook' },
  'merchant-statement': {
    summary: "The merchant's totals for one Lagos calendar day",
    description:
      "Counts and amounts by current status of the transactions created that day (a reversal moves its transfer from successful to reversed on the transfer's day). One item read whatever the volume; it may trail the ledger by as much as the history does.",
    query: StatementQuery,
    response: StatementRecord,
  },
  ...Object.fromEntries(
    REFERENCE_LISTS.map((list) => [
      `resource-${list}`,
      {
        summary: `The ${list} reference list`,
        description: 'Sent with ETag and Last-Modified; If-None-Match with the current ETag gives 304.',
        response: list === 'invoice-types' ? z.array(InvoiceTypeResponse) : referenceRows,
      } satisfies OperationSpec,
    ]),
  ),
}

/** Every named schema of the document's components. */
export function componentSchemas(): Record<string, z.ZodType> {
  return { ...invoiceComponents(), ...apiRecordComponents(), ...areaRecordComponents() }
}
