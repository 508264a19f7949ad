import { apiSignature } from '#lib/auth/api-signature.ts'
import { apiHandler } from '#lib/http/factory.ts'
import { type InvoiceAction, handleInvoice } from './service.ts'

/**
 * The handler of an invoice endpoint: si/validate, app/invoice/validate and app/invoice/sign differ
 * only in what they do with a valid invoice and which schema version applies. The body is validated
 * by the invoice service, not the factory, so that every problem comes back in one reply.
 */
export function invoiceHandler(action: InvoiceAction, options: { schemaVersion?: 'v1' } = {}) {
  return apiHandler({ auth: apiSignature }, async ({ event, caller, version, headers }) => ({
    data: await handleInvoice({
      action,
      version: options.schemaVersion ?? version ?? 'v1',
      caller,
      // The parsed JSON as is: validateInvoice applies every rule, the text rule included.
      body: event.body as unknown,
      modeHeader: headers['x-validation-mode'],
    }),
  }))
}
