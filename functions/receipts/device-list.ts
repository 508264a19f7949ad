import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { listDevices } from '#lib/receipts/devices.ts'
import { deviceList } from '#lib/service/endpoints/receipts.ts'

/** GET /api/v1/devices (ADMIN): the business's devices of the key's mode, a page by cursor. */
export const handler = apiHandler(deviceList, apiSignature, async ({ query, caller }) => {
  const data = await listDevices(caller.businessId, query)
  return {
    message: `${data.content.length} devices${data.page.next_cursor ? ', more on the next page' : ''}`,
    data,
  }
})
