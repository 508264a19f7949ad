import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { confirmReceipt } from '#lib/service/endpoints/lifecycle.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { confirmReceipt as confirm } from '#lib/lifecycle/receipt.ts'

/** PATCH /api/v1/invoice/transmit/{irn} (the authority's): Envelope, data = the invoice's lifecycle. */
export const handler = apiHandler(confirmReceipt, apiSignature, async ({ params, caller }) => {
  const { confirmed, data } = await confirm(caller, params.irn)
  return {
    message: confirmed
      ? `Receipt of invoice ${data.irn} confirmed`
      : `Receipt of invoice ${data.irn} was already confirmed at ${data.received_at}; nothing changed`,
    data,
  }
})
