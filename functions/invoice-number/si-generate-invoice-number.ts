import { apiSignature } from '#lib/auth/api-signature.ts'
import { generateInvoiceNumber as declaration } from '#lib/endpoints/invoice-number.ts'
import { apiHandler } from '#lib/http/factory.ts'
import { generateInvoiceNumber } from '#lib/invoice-number/service.ts'

/** POST /api/{v}/si/generate-invoice-number: Envelope, data = `{invoice_number}`. */
export const handler = apiHandler(declaration, apiSignature, async ({ body, caller }) => ({
  message: 'Invoice number generated',
  data: await generateInvoiceNumber(caller, body),
}))
