import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { prefersXml } from '#lib/documents/negotiation.ts'
import { UBL_CONTENT_TYPE, ublOf } from '#lib/documents/ubl.ts'
import { getInvoice } from '#lib/service/endpoints/lifecycle.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { pullInvoice } from '#lib/lifecycle/queries.ts'
import { currentMode } from '#lib/platform/mode.ts'

/**
 * GET /api/{v}/si/get-invoice/{irn}: Envelope, data = the pulled invoice (A.7); with
 * `Accept: application/xml`, the same invoice as UBL 2.1 (CONTRACT section 16).
 */
export const handler = apiHandler(getInvoice, apiSignature, async ({ params, caller, headers }) => {
  const data = await pullInvoice(caller, params.irn)
  if (prefersXml(headers.accept)) {
    // The invoice is read in the caller's mode: a test-mode one says so in a note (CONTRACT 18).
    const body = ublOf(data, { test: currentMode() === 'test' })
    return { raw: { contentType: UBL_CONTENT_TYPE, body } }
  }
  return { message: `Invoice ${params.irn}`, data }
})
