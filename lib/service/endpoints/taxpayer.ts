import * as z from 'zod'
import { type EndpointDocs, endpointsOf } from '#lib/platform/http/endpoint.ts'
import { VerifyTinRequest } from '#lib/taxpayer/schemas.ts'
import { ANY, INVALID_BODY, reads } from './common.ts'

/** TIN verification against the taxpayer registry (CONTRACT section 5). */

export const verifyTin = /* @__PURE__ */ endpointsOf({
  domain: 'taxpayer',
  stack: 'invoicing',
  area: 'A',
  auth: 'api-signature',
  reply: 'envelope',
  versions: ['v1', 'v2'],
})({
  functionId: 'resource-verify-tin',
  routes: [
    { method: 'POST', path: '/resource/verify-tin' },
    { method: 'POST', path: '/api/v1/utilities/verify-tin', profile: 'authority' },
  ],
  roles: ANY,
  access: { table: [reads(['TAXPAYER#', 'TIN#', 'BUSINESS#'])] },
  request: { body: VerifyTinRequest },
})

export const verifyTinDocs = (): EndpointDocs => ({
  summary: 'Verify a TIN',
  description:
    'Looks the TIN up in the taxpayer registry. A TIN is `NNNNNNNN-NNNN`, the 13-digit Tax ID of the NRS/JRB notice of May 2026, or `TIN-` and digits; any other string is 400. In test mode four TINs are magic (docs/sandbox.md): `00000000-0001` and `0000000000001` verify as an active taxpayer, `00000000-0002` and `0000000000002` are not found (404).',
  example: { tin: '12345678-0001' },
  examples: {
    taxId: { summary: 'A 13-digit Tax ID (NRS/JRB, May 2026)', value: { tin: '3047291850016' } },
    sandboxActive: { summary: 'Test mode: always an active taxpayer', value: { tin: '00000000-0001' } },
    sandboxNotFound: { summary: 'Test mode: always not found (404)', value: { tin: '00000000-0002' } },
    sandboxTaxIdActive: {
      summary: 'Test mode: always an active taxpayer (13-digit Tax ID)',
      value: { tin: '0000000000001' },
    },
    sandboxTaxIdNotFound: {
      summary: 'Test mode: always not found (404; 13-digit Tax ID)',
      value: { tin: '0000000000002' },
    },
  },
  replies: () => ({
    200: {
      description: 'The taxpayer',
      data: z.object({
        message: z.string(),
        tin: z.string().meta({ description: 'Taxpayer Identification Number' }),
        taxpayer_name: z.string(),
        address: z.string(),
        taxofficer_id: z.string(),
        taxofficer_name: z.string(),
        rc_number: z.string().meta({ description: 'Company registration number' }),
        email: z.string(),
        phone: z.string(),
      }),
    },
    400: INVALID_BODY,
    404: 'No taxpayer has this TIN',
  }),
})
