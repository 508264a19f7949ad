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
  routes: [{ method: 'POST', path: '/resource/verify-tin' }],
  roles: ANY,
  access: { table: [reads(['TAXPAYER#', 'TIN#', 'BUSINESS#'])] },
  request: { body: VerifyTinRequest },
})

export const verifyTinDocs = (): EndpointDocs => ({
  summary: 'Verify a TIN',
  description:
    'Looks the TIN up in the taxpayer registry. In test mode two TINs are magic (docs/sandbox.md): `00000000-0001` verifies as an active taxpayer and `00000000-0002` is not found (404).',
  example: { tin: '12345678-0001' },
  examples: {
    sandboxActive: { summary: 'Test mode: always an active taxpayer', value: { tin: '00000000-0001' } },
    sandboxNotFound: { summary: 'Test mode: always not found (404)', value: { tin: '00000000-0002' } },
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
