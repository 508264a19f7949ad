import * as z from 'zod'
import { apiHandler } from '#lib/http/factory.ts'
import { handleInvoice } from '#lib/invoice/service.ts'

/**
 * POST /api/{v}/app/invoice/validate: validates, then signs and reports the invoice (spec endpoint
 * behaviour 2): the same as sign, recorded as SIGNED.
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
