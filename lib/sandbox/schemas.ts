import * as z from 'zod'
import { MAX_ADVANCE_SECONDS } from '#lib/platform/test-clock.ts'

/** POST /api/v1/test/clock/advance: how far to move the business's test clock. */
export const AdvanceClockRequest = z.object({
  seconds: z
    .int({ error: `seconds must be a whole number from 1 to ${MAX_ADVANCE_SECONDS} (30 days)` })
    .min(1, `seconds must be a whole number from 1 to ${MAX_ADVANCE_SECONDS} (30 days)`)
    .max(MAX_ADVANCE_SECONDS, `seconds must be a whole number from 1 to ${MAX_ADVANCE_SECONDS} (30 days)`),
})
export type AdvanceClockRequest = z.output<typeof AdvanceClockRequest>
