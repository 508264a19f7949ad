import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { signBytes } from '#lib/platform/signing/signer.ts'
import { prepareValidation } from '#lib/invoice/validate.ts'
import { reportReceipts } from '#lib/receipts/report.ts'
import { receiptsReport } from '#lib/service/endpoints/receipts.ts'

// The v2 invoice schema receipts are validated with, built as the function loads, never by a request.
prepareValidation('v2')

/** POST /api/v1/receipts (SI or APP): one result per receipt, in order (CONTRACT 23). */
export const handler = apiHandler(receiptsReport, apiSignature, async ({ body, caller }) => {
  const data = await reportReceipts(caller, body.receipts, signBytes)
  const reported = data.filter((r) => r.status === 'REPORTED').length
  return { message: `${reported} of ${data.length} receipts reported`, data }
})
