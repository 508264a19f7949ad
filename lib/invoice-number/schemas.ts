import * as z from 'zod'

/** GenerateInvoiceNumberRequest (A.6): neither field is required; code defaults to INV. */
export const GenerateInvoiceNumberRequest = z.object({
  code: z
    .string()
    .regex(/^[A-Z]{2,5}$/, 'code must be 2 to 5 capital letters A-Z, e.g. INV')
    .default('INV'),
  serial_number: z
    .number('serial_number must be a whole number, 1 or more')
    .int('serial_number must be a whole number, 1 or more')
    .min(1, 'serial_number must be 1 or more')
    // int64 in the spec; beyond 2^53 a JSON number is no longer exact in JavaScript.
    .max(Number.MAX_SAFE_INTEGER, `serial_number must be at most ${Number.MAX_SAFE_INTEGER}`)
    .optional(),
})
export type GenerateInvoiceNumberRequest = z.output<typeof GenerateInvoiceNumberRequest>
