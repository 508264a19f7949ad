import { apiSignature } from '#lib/auth/api-signature.ts'
import type { Endpoint } from '#lib/http/endpoint.ts'
import { apiHandler } from '#lib/http/factory.ts'
import { type InvoiceAction, handleInvoice } from './service.ts'

/**
 * The handler of an invoice endpoint: si/validate, app/invoice/validate and app/invoice/sign differ
 * only in what they do with a valid invoice and which schema version applies. The declaration gives
 * the body schema with `bodyValidation: 'service'`: the invoice service validates with that schema
 * itself, so that schema problems and business-rule problems come back together in one reply.
 */
export function invoiceHandler(
  declaration: Endpoint,
  action: InvoiceAction,
  options: { schemaVersion?: 'v1' } = {},
) {
  return apiHandler(declaration, apiSignature, async ({ body, caller, version, headers }) => ({
    data: await handleInvoice({
      action,
      version: options.schemaVersion ?? version ?? 'v1',
      caller,
      // The parsed JSON as is (bodyValidation 'service'): validateInvoice applies every rule, the text rule included.
      body,
      modeHeader: headers['x-validation-mode'],
    }),
  }))
}
