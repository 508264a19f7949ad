import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { deviceView, registerDevice } from '#lib/receipts/devices.ts'
import { deviceRegister } from '#lib/service/endpoints/receipts.ts'

/** POST /api/v1/devices (ADMIN): 201, data = the device with its genesis_hash. */
export const handler = apiHandler(deviceRegister, apiSignature, async ({ body, caller }) => {
  const device = await registerDevice(caller.businessId, body)
  return { status: 201, message: `Device ${device.deviceId} registered`, data: deviceView(device) }
})
