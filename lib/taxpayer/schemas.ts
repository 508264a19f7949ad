import * as z from 'zod'

/** VerifyTinRequest: the TIN in the form NNNNNNNN-NNNN. */
export const VerifyTinRequest = z.object({
  tin: z
    .string({ error: 'tin is required, in the form NNNNNNNN-NNNN (e.g. 12345678-0001)' })
    .regex(/^\d{8}-\d{4}$/, 'tin must be 8 digits, a hyphen and 4 digits, e.g. 12345678-0001'),
})
export type VerifyTinRequest = z.output<typeof VerifyTinRequest>
