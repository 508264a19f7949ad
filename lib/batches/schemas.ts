import * as z from 'zod'

/** Most invoices one batch may carry (CONTRACT section 11). */
export const MAX_BATCH = 100

/** POST /api/{v}/app/invoice/batch: each invoice is checked by the worker exactly as the single endpoint checks it. */
export const BatchRequest = z.object({
  action: z.enum(['validate', 'sign'], { error: 'action must be "validate" or "sign"' }),
  invoices: z
    .array(z.unknown())
    .min(1, 'invoices must hold at least one invoice')
    .max(MAX_BATCH, `invoices may hold at most ${MAX_BATCH} invoices: split the batch`),
})
export type BatchRequest = z.output<typeof BatchRequest>

export const BatchPath = z.object({
  batch_id: z.string().regex(/^[0-9a-f-]{36}$/, 'batch_id is not a batch id'),
})
