import * as z from 'zod'
import {
  keys,
  PARTY_PREFIX,
  POSTAL_ADDRESS_PREFIX,
  SEARCH_COUNTER_PREFIX,
  SEARCH_LIST_PREFIX,
} from '#lib/platform/db/keys.ts'
import { type EndpointDocs, endpointsOf, lazy, perVersion } from '#lib/platform/http/endpoint.ts'
import { En16931Findings } from '#lib/platform/http/en16931-findings.ts'
import { Truncated } from '#lib/platform/http/truncated.ts'
import { PAYMENT_STATUSES } from '#lib/invoice/record.ts'
import { invoiceSchema } from '#lib/invoice/schemas.ts'
import { ValidateQuery } from '#lib/invoice/validate-query.ts'
import { APP, INVALID_BODY, Irn, IsoDateTime, NOT_YOURS, reads, SI, Warning, writes } from './common.ts'

/**
 * si/validate, app/invoice/validate and app/invoice/sign (CONTRACT sections 4 and 5). Each endpoint
 * is what its function validates with; its `Docs` is what the document adds (never bundled).
 */

const invoice = /* @__PURE__ */ endpointsOf({
  domain: 'invoice',
  stack: 'invoicing',
  area: 'A',
  auth: 'api-signature',
  reply: 'record',
  versions: ['v1', 'v2'],
})

/**
 * What storing an invoice needs: the invoice (IRN#), its event and audit records are written, its notes
 * sealed; the business, its TIN and service id guards and the code lists are read, and the parties
 * (PARTY#) and postal addresses (PADDR#) an invoice names by id (lib/parties/resolve.ts).
 */
const storesInvoices = {
  table: [
    writes(['IRN#', 'EVENT#', 'AUDIT#']),
    reads(['BUSINESS#', 'TIN#', 'SERVICEID#', 'REF#', PARTY_PREFIX, POSTAL_ADDRESS_PREFIX]),
  ],
  encrypt: ['invoice'],
} as const

export const siValidate = /* @__PURE__ */ invoice({
  functionId: 'si-validate',
  metric: 'invoices',
  routes: [
    { method: 'POST', path: '/si/validate' },
    // The authority's validate takes SI and APP callers; it validates, never signs (CONTRACT 17).
    { method: 'POST', path: '/api/v1/invoice/validate', roles: ['SI', 'APP', 'ADMIN'], profile: 'authority' },
  ],
  roles: SI,
  access: storesInvoices,
  request: {
    body: /* @__PURE__ */ invoiceSchema('v1'),
    bodyValidation: 'service',
    xmlBody: true,
    en16931: true,
    query: ValidateQuery,
  },
})

const signRequest = {
  // Pure (the schemas are built once, on first use): si/validate's bundle, which has no use for these,
  // builds no v2 schema.
  body: /* @__PURE__ */ perVersion(/* @__PURE__ */ invoiceSchema('v1'), /* @__PURE__ */ invoiceSchema('v2')),
  bodyValidation: 'service' as const,
  xmlBody: true as const,
}
/**
 * Signing also records the signing key's public half in the JWKS partition on its first use, and
 * lists the invoice for supplier search: its numbers (INVSEQ#) and its list item (INVLIST#), and for
 * a credit note the original's list item's totals (lib/invoice/search-index.ts, adjustments.ts).
 */
const signs = {
  ...storesInvoices,
  table: [...storesInvoices.table, writes([keys.signingKeys(), SEARCH_COUNTER_PREFIX, SEARCH_LIST_PREFIX])],
  secrets: ['signing-key'],
} as const
export const appValidate = /* @__PURE__ */ invoice({
  functionId: 'app-invoice-validate',
  metric: 'invoices',
  routes: [{ method: 'POST', path: '/app/invoice/validate' }],
  roles: APP,
  access: signs,
  request: { ...signRequest, en16931: true, query: ValidateQuery },
})
export const appSign = /* @__PURE__ */ invoice({
  functionId: 'app-invoice-sign',
  metric: 'invoices',
  routes: [
    { method: 'POST', path: '/app/invoice/sign' },
    { method: 'POST', path: '/api/v1/invoice/sign', profile: 'authority' },
  ],
  roles: APP,
  access: signs,
  request: signRequest,
})

const validationMode = () => ({
  name: 'x-validation-mode',
  description:
    "`strict` (default): the arithmetic rules (NG-CO-*, NG-DT-02, NG-DT-03) fail the request. `lenient`: they come back as warnings with HTTP 200. Without the header, the client's own default applies.",
  schema: z.enum(['strict', 'lenient']),
})

/** AccessPointProviderResponse (A.6) plus irn, signed_at (CONTRACT section 5) and warnings (section 4). */
const AccessPointProviderResponse = /* @__PURE__ */ lazy(() =>
  z
    .object({
      message: z.string().meta({ description: 'What was done' }),
      payment_status: z.enum(PAYMENT_STATUSES).meta({ description: "The invoice's payment status" }),
      irn: Irn(),
      signed_at: IsoDateTime().optional().meta({
        description: 'When the invoice was signed (sign and app validate only)',
      }),
      warnings: z.array(Warning()).max(100).optional().meta({
        description: 'Unknown keys ignored, and in lenient mode the arithmetic findings, at most 100',
      }),
      truncated: Truncated().optional(),
      en16931: En16931Findings().optional(),
    })
    .meta({ id: 'AccessPointProviderResponse' }),
)

const exampleReply = (message: string, signed: boolean) => ({
  message,
  payment_status: 'PENDING',
  irn: 'INV000042-94ND90NR-20261121',
  ...(signed ? { signed_at: '2026-11-21T10:15:30.123Z' } : {}),
})

const invoiceErrors = {
  400: `${INVALID_BODY}: schema, code lists, IRN format and ownership, and in strict mode the arithmetic rules (docs/invoices.md: "Invoice rule codes")`,
  404: NOT_YOURS,
  413: 'The invoice is too large to store, even compressed',
}

export const siValidateDocs = (): EndpointDocs => ({
  summary: 'Validate an invoice (does not sign)',
  description:
    "Checks the invoice against the schema and the authority's rules and records it as VALIDATED. Both versions take ValidateInvoiceRequest, as the spec's endpoint table says. Every problem is reported in one 400 reply; unknown keys are ignored, not stored, and listed in `warnings`. A party may give `id` (a party of your business, POST /api/v1/invoice/party) instead of its fields and `postal_address_id` instead of `postal_address`: they are resolved before the rules run and the record holds the resolved values; one that names nothing of your business is 400 NG-PT-01 at its path.",
  headers: () => [validationMode()],
  exampleFile: 'docs/examples/invoice-v1.json',
  replies: () => ({
    200: {
      description: 'The invoice is valid and recorded as VALIDATED',
      data: AccessPointProviderResponse(),
      example: exampleReply('Invoice validated successfully', false),
    },
    ...invoiceErrors,
    409: 'The IRN is registered to another business, or already signed with different content',
  }),
})

const signDocs = () => ({
  headers: () => [validationMode()],
  exampleFile: /* @__PURE__ */ perVersion('docs/examples/invoice-v1.json', 'docs/examples/invoice-v2.json'),
  replies: () => ({
    200: {
      description:
        'The invoice is valid, signed and recorded as SIGNED (or was already, with identical content)',
      data: AccessPointProviderResponse(),
      example: exampleReply('Invoice validated and signed successfully', true),
    },
    ...invoiceErrors,
    409: 'The IRN is already signed with different content, or registered to another business',
  }),
})

export const appValidateDocs = (): EndpointDocs => ({
  summary: 'Validate, then sign and report an invoice',
  description:
    "As sign: validates, signs the RFC 8785 canonical JSON with the service's Ed25519 key (JWKS at /api/v1/resource/public-keys) and records the invoice as SIGNED. v2 takes ValidateInvoiceRequestV2.",
  ...signDocs(),
})

export const appSignDocs = (): EndpointDocs => ({
  summary: 'Validate, sign and report an invoice',
  description:
    'Validates, signs and records the invoice as SIGNED. Signing the same IRN again with identical content returns the first reply (same signed_at); different content is 409. v2 takes ValidateInvoiceRequestV2. Parties may be named by `id` and addresses by `postal_address_id` (resolved before the rules run, as on validate; unknown: 400 NG-PT-01 at its path).',
  ...signDocs(),
})
