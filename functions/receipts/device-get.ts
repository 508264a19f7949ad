import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { deviceView, ownDevice } from '#lib/receipts/devices.ts'
import { deviceGet } from '#lib/service/endpoints/receipts.ts'

/** GET /api/v1/devices/{id} (ADMIN): the device as registered. */
export const handler = apiHandler(deviceGet, apiSignature, async ({ params, caller }) => {
  const device = await ownDevice(caller.businessId, params.id)
  return { message: `Device ${device.deviceId} is ${device.status}`, data: deviceView(device) }
})
