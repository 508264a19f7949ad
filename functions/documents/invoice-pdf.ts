import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { PDF_CONTENT_TYPE } from '#lib/documents/pdf.ts'
import { invoicePdfFor } from '#lib/documents/service.ts'
import { invoicePdf } from '#lib/service/endpoints/documents.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'

/** GET /api/{v}/invoices/{irn}/pdf: the signed invoice as a PDF, for its supplier or its buyer. */
export const handler = apiHandler(invoicePdf, apiSignature, async ({ params, caller }) => ({
  raw: { contentType: PDF_CONTENT_TYPE, body: await invoicePdfFor(caller, params.irn) },
  headers: { 'content-disposition': `inline; filename="${params.irn}.pdf"` },
}))
