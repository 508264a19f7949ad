import { switchSignature } from '#lib/platform/auth/switch-signature.ts'
import { bankClockAdvance } from '#lib/service/endpoints/sandbox.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { advanceClock, clockView, testModeOnly } from '#lib/platform/test-clock.ts'

/** POST /api/v1/transactions/test/clock/advance (test switch): the sandbox bank's test time moves forward. */
export const handler = apiHandler(bankClockAdvance, switchSignature, async ({ body, caller, route }) => {
  testModeOnly({ caller, route })
  return {
    message: `Test clock advanced by ${body.seconds} s`,
    data: clockView(await advanceClock('bank', body.seconds)),
  }
})
