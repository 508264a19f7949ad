import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { deviceView, revokeDevice } from '#lib/receipts/devices.ts'
import { deviceRevoke } from '#lib/service/endpoints/receipts.ts'

/** DELETE /api/v1/devices/{id} (ADMIN): REVOKED from now on; receipts it signed before stay accepted. */
export const handler = apiHandler(deviceRevoke, apiSignature, async ({ params, caller }) => {
  const device = await revokeDevice(caller.businessId, params.id)
  return { message: `Device ${device.deviceId} is REVOKED`, data: deviceView(device) }
})
