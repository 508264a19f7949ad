import { siValidate } from '#lib/service/endpoints/invoice.ts'
import { invoiceHandler } from './invoice-handler.ts'

/**
 * POST /api/{v}/si/validate: checks an invoice against the authority's rules and records it as
 * VALIDATED; it does not sign. The spec's endpoint table gives ValidateInvoiceRequest for both
 * versions (only the App endpoints take the V2 record), so v2 validates with the v1 schema too.
 */
export const handler = invoiceHandler(siValidate, 'validate', { schemaVersion: 'v1' })
