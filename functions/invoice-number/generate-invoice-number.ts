import { apiSignature } from '#lib/auth/api-signature.ts'
import { apiHandler } from '#lib/http/factory.ts'
import { GenerateInvoiceNumberRequest } from '#lib/invoice-number/schemas.ts'
import { generateInvoiceNumber } from '#lib/invoice-number/service.ts'

/** POST /api/{v}/si/generate-invoice-number: Envelope, data = `{invoice_number}`. */
export const handler = apiHandler(
  { auth: apiSignature, body: GenerateInvoiceNumberRequest },
  async ({ body, caller }) => ({
    message: 'Invoice number generated',
    data: await generateInvoiceNumber(caller, body),
  }),
)
