import * as z from 'zod'
import { type EndpointDocs, endpointsOf, lazy } from '#lib/platform/http/endpoint.ts'
import { GenerateIrnRequest, ValidateIrnRequest } from '#lib/irn/schemas.ts'
import { APP, INVALID_BODY, Irn, NOT_YOURS, reads, SI, writes } from './common.ts'

/** IRNs: generate and validate (A.6, CONTRACT section 5). */

const irn = /* @__PURE__ */ endpointsOf({
  domain: 'irn',
  stack: 'invoicing',
  area: 'A',
  auth: 'api-signature',
  reply: 'record',
  versions: ['v1', 'v2'],
})

export const generateIrn = /* @__PURE__ */ irn({
  functionId: 'si-generate-irn',
  routes: [{ method: 'POST', path: '/si/generate-irn' }],
  roles: SI,
  access: { table: [writes(['IRN#', 'AUDIT#']), reads(['BUSINESS#'])] },
  request: { body: GenerateIrnRequest },
})
export const validateIrn = /* @__PURE__ */ irn({
  functionId: 'app-invoice-validate-irn',
  routes: [
    { method: 'POST', path: '/app/invoice/validate-irn' },
    { method: 'POST', path: '/api/v1/invoice/irn/validate', profile: 'authority' },
  ],
  roles: APP,
  // It registers the IRN it validates, as generate-irn does (CONTRACT 17).
  access: { table: [writes(['IRN#', 'AUDIT#']), reads(['BUSINESS#'])] },
  request: { body: ValidateIrnRequest },
})

const GenerateIrnResponse = /* @__PURE__ */ lazy(() =>
  z.object({ irn: Irn() }).meta({ id: 'GenerateIRNResponse' }),
)

export const irnRequestExample = {
  invoice_number: 'INV000042',
  issuance_date: '20261121',
  service_id: '94ND90NR',
  business_id: '11111111-1111-4111-8111-111111111111',
}
export const TAKEN = 'The IRN is already registered to another business'

export const generateIrnDocs = (): EndpointDocs => ({
  summary: 'Generate an IRN',
  description:
    "Builds `<invoice_number>-<service_id>-<issuance_date or today>` and records it as GENERATED for the caller's business. The same request again returns the same IRN.",
  example: irnRequestExample,
  replies: () => ({
    200: {
      description: 'The IRN',
      data: GenerateIrnResponse(),
      example: { irn: 'INV000042-94ND90NR-20261121' },
    },
    400: `${INVALID_BODY}, or service_id is not your business's service id`,
    404: NOT_YOURS,
    409: TAKEN,
  }),
})

export const validateIrnDocs = (): EndpointDocs => ({
  summary: 'Validate an IRN the business built or generated',
  description:
    "Accepts `<invoice reference>-<service id>-<YYYYMMDD>` when it is well formed (a reference of 2 to 50 letters and digits, a real date) and carries the caller's business's service id, and registers it for that business as generate-irn does (GENERATED); an IRN already generated, validated or signed by the business is 200 and left as it is. Sign takes such an IRN without this call.",
  example: { irn: 'INV000042-94ND90NR-20261121', business_id: irnRequestExample.business_id },
  replies: () => ({
    200: { description: 'The IRN is registered for this business', data: GenerateIrnResponse() },
    400: `${INVALID_BODY}; NG-IRN-03 when the IRN carries another business's service id; INVOICE_REFERENCE_MISMATCH when invoice_reference is not the IRN's first segment`,
    404: NOT_YOURS,
    409: TAKEN,
  }),
})
