import { apiSignature } from '#lib/auth/api-signature.ts'
import { clockRead } from '#lib/endpoints/sandbox.ts'
import { apiHandler } from '#lib/http/factory.ts'
import { clockOffsetMs, clockView, testModeOnly } from '#lib/sandbox/clock.ts'

/** GET /api/v1/test/clock (test-mode ADMIN): the business's test time now. */
export const handler = apiHandler(clockRead, apiSignature, async ({ caller, route }) => {
  testModeOnly({ caller, route })
  return { message: 'Test clock', data: clockView(await clockOffsetMs({ business: caller.businessId })) }
})
