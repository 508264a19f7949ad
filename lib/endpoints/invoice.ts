import * as z from 'zod'
import { PAYMENT_STATUSES } from '#lib/invoice/record.ts'
import { invoiceSchema } from '#lib/invoice/schemas.ts'
import { endpoint, perVersion } from '#lib/http/endpoint.ts'
import { INVALID_BODY, Irn, IsoDateTime, NOT_YOURS, Warning } from './common.ts'

/** si/validate, app/invoice/validate and app/invoice/sign (CONTRACT sections 4 and 5). */

const validationMode = {
  name: 'x-validation-mode',
  description:
    "`strict` (default): the arithmetic rules (NG-CO-*, NG-DT-02, NG-DT-03) fail the request. `lenient`: they come back as warnings with HTTP 200. Without the header, the client's own default applies.",
  schema: z.enum(['strict', 'lenient']),
}

/** AccessPointProviderResponse (A.6) plus irn, signed_at (CONTRACT section 5) and warnings (section 4). */
export const AccessPointProviderResponse = z
  .object({
    message: z.string().meta({ description: 'What was done' }),
    payment_status: z.enum(PAYMENT_STATUSES).meta({ description: "The invoice's payment status" }),
    irn: Irn,
    signed_at: IsoDateTime.optional().meta({
      description: 'When the invoice was signed (sign and app validate only)',
    }),
    warnings: z.array(Warning).optional().meta({
      description: 'Unknown keys ignored, and in lenient mode the arithmetic findings',
    }),
  })
  .meta({ id: 'AccessPointProviderResponse' })

const exampleReply = (message: string, signed: boolean) => ({
  message,
  payment_status: 'PENDING',
  irn: 'INV000042-94ND90NR-20261121',
  ...(signed ? { signed_at: '2026-11-21T10:15:30.123Z' } : {}),
})

const invalid = `${INVALID_BODY}: schema, code lists, IRN format and ownership, and in strict mode the arithmetic rules (README: "Invoice rule codes")`
const invoiceErrors = {
  400: invalid,
  404: NOT_YOURS,
  413: 'The invoice is too large to store, even compressed',
}

export const siValidate = endpoint({
  functionId: 'si-validate',
  summary: 'Validate an invoice (does not sign)',
  description:
    "Checks the invoice against the schema and the authority's rules and records it as VALIDATED. Both versions take ValidateInvoiceRequest, as the spec's endpoint table says. Every problem is reported in one 400 reply; unknown keys are ignored, not stored, and listed in `warnings`.",
  request: {
    body: invoiceSchema('v1'),
    bodyValidation: 'service',
    headers: [validationMode],
    exampleFile: 'docs/examples/invoice-v1.json',
  },
  replies: {
    200: {
      description: 'The invoice is valid and recorded as VALIDATED',
      data: AccessPointProviderResponse,
      example: exampleReply('Invoice validated successfully', false),
    },
    ...invoiceErrors,
    409: 'The IRN is registered to another business, or already signed with different content',
  },
})

const signReplies = {
  200: {
    description:
      'The invoice is valid, signed and recorded as SIGNED (or was already, with identical content)',
    data: AccessPointProviderResponse,
    example: exampleReply('Invoice validated and signed successfully', true),
  },
  ...invoiceErrors,
  409: 'The IRN is already signed with different content, or registered to another business',
}
const signRequest = {
  body: perVersion(invoiceSchema('v1'), invoiceSchema('v2')),
  bodyValidation: 'service' as const,
  headers: [validationMode],
  exampleFile: perVersion('docs/examples/invoice-v1.json', 'docs/examples/invoice-v2.json'),
}

export const appValidate = endpoint({
  functionId: 'app-invoice-validate',
  summary: 'Validate, then sign and report an invoice',
  description:
    "As sign: validates, signs the RFC 8785 canonical JSON with the service's Ed25519 key (JWKS at /api/v1/resource/public-keys) and records the invoice as SIGNED. v2 takes ValidateInvoiceRequestV2.",
  request: signRequest,
  replies: signReplies,
})

export const appSign = endpoint({
  functionId: 'app-invoice-sign',
  summary: 'Validate, sign and report an invoice',
  description:
    'Validates, signs and records the invoice as SIGNED. Signing the same IRN again with identical content returns the first reply (same signed_at); different content is 409. v2 takes ValidateInvoiceRequestV2.',
  request: signRequest,
  replies: signReplies,
})
