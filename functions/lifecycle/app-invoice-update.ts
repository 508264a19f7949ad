import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { update } from '#lib/service/endpoints/lifecycle.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { updatePaymentStatus } from '#lib/lifecycle/payment.ts'

/** PATCH /api/{v}/app/invoice/update/{irn}: Envelope, data = DataResponse `{message}`. */
export const handler = apiHandler(update, apiSignature, async ({ body, params, caller }) => {
  const result = await updatePaymentStatus(caller, params.irn, body.payment_status, body.reference)
  return {
    message: result.changed ? 'Payment status updated' : 'Payment status unchanged',
    data: { message: result.message },
  }
})
