import * as z from 'zod'
import { apiHandler } from '#lib/http/factory.ts'
import { handleInvoice } from '#lib/invoice/service.ts'

/**
 * POST /api/{v}/app/invoice/sign: validates the invoice, signs its RFC 8785 canonical JSON with the
 * service's Ed25519 key and records it as SIGNED. Identical content again is the first reply again;
 * different content under a signed IRN is 409.
 */
export const handler = apiHandler({ body: z.unknown() }, async ({ body, caller, version, headers }) => ({
  data: await handleInvoice({
    action: 'sign',
    version: version ?? 'v1',
    caller,
    body,
    modeHeader: headers['x-validation-mode'],
  }),
}))
