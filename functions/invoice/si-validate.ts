import * as z from 'zod'
import { apiHandler } from '#lib/http/factory.ts'
import { handleInvoice } from '#lib/invoice/service.ts'

/**
 * POST /api/{v}/si/validate: checks an invoice against the authority's rules and records it as
 * VALIDATED; it does not sign. The spec's endpoint table gives ValidateInvoiceRequest for both
 * versions (only the App endpoints take the V2 record), so v2 validates with the v1 schema too.
 * The body is validated by the invoice service so that every problem is reported in one reply.
 */
export const handler = apiHandler({ body: z.unknown() }, async ({ body, caller, headers }) => ({
  data: await handleInvoice({
    action: 'validate',
    version: 'v1',
    caller,
    body,
    modeHeader: headers['x-validation-mode'],
  }),
}))
