import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { clockRead } from '#lib/service/endpoints/sandbox.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { clockOffsetMs, clockView, testModeOnly } from '#lib/platform/test-clock.ts'

/** GET /api/v1/test/clock (test-mode ADMIN): the business's test time now. */
export const handler = apiHandler(clockRead, apiSignature, async ({ caller, route }) => {
  testModeOnly({ caller, route })
  return { message: 'Test clock', data: clockView(await clockOffsetMs({ business: caller.businessId })) }
})
