import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { clockAdvance } from '#lib/service/endpoints/sandbox.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { advanceClock, clockView, testModeOnly } from '#lib/platform/test-clock.ts'
import { queueDueDeliveries } from '#lib/webhooks/due-sweep.ts'

/**
 * POST /api/v1/test/clock/advance (test-mode ADMIN): the business's test time moves forward, then
 * its webhook deliveries now due in test time are queued at once (lib/webhooks/due-sweep.ts).
 */
export const handler = apiHandler(clockAdvance, apiSignature, async ({ body, caller, route }) => {
  testModeOnly({ caller, route })
  const offsetMs = await advanceClock({ business: caller.businessId }, body.seconds)
  const view = clockView(offsetMs)
  const queued = await queueDueDeliveries(caller.businessId, Date.parse(view.test_time))
  return {
    message: `Test clock advanced by ${body.seconds} s`,
    data: { ...view, due_deliveries_queued: queued },
  }
})
