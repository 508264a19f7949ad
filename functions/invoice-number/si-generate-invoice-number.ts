import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { generateInvoiceNumber as declaration } from '#lib/service/endpoints/invoice-number.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { generateInvoiceNumber } from '#lib/invoice-number/service.ts'

/** POST /api/{v}/si/generate-invoice-number: Envelope, data = `{invoice_number}`. */
export const handler = apiHandler(declaration, apiSignature, async ({ body, caller }) => ({
  message: 'Invoice number generated',
  data: await generateInvoiceNumber(caller, body),
}))
