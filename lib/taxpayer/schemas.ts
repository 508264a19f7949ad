import * as z from 'zod'
import { TIN_FORMS, TIN_PATTERN } from './tin.ts'

/** VerifyTinRequest: the TIN in one of the authority's forms (CONTRACT section 9). */
export const VerifyTinRequest = z.object({
  tin: z
    .string({ error: `tin is required, in the form ${TIN_FORMS}` })
    .regex(TIN_PATTERN, `tin must be of the form ${TIN_FORMS}`),
})
export type VerifyTinRequest = z.output<typeof VerifyTinRequest>
