import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { chainView } from '#lib/receipts/chain.ts'
import { readChain } from '#lib/receipts/chain-store.ts'
import { ownDevice } from '#lib/receipts/devices.ts'
import { serverNowMs } from '#lib/receipts/server-time.ts'
import { deviceChain } from '#lib/service/endpoints/receipts.ts'

/** GET /api/v1/devices/{id}/chain (ADMIN): what the device's receipts prove (CONTRACT 23). */
export const handler = apiHandler(deviceChain, apiSignature, async ({ params, caller }) => {
  const [device, chain, nowMs] = await Promise.all([
    ownDevice(caller.businessId, params.id),
    readChain(params.id),
    serverNowMs(caller.businessId),
  ])
  const data = chainView(chain, nowMs)
  return { message: `Device ${device.deviceId}: verified through ${data.verified_through}`, data }
})
