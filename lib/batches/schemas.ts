import * as z from 'zod'

/** Most invoices one batch may carry (CONTRACT section 11). */
export const MAX_BATCH = 100
/**
 * How deeply one batch invoice may nest arrays and objects. A valid invoice nests about six levels;
 * the items are stored as JSON before the worker checks them, and JSON.stringify (like any recursive
 * walk) throws on a value nested some thousands deep, which JSON.parse reads without complaint.
 */
export const MAX_INVOICE_DEPTH = 32

/** Whether `value` nests arrays and objects at most `max` levels deep: iterative, so any depth is safe. */
function nestsAtMost(value: unknown, max: number): boolean {
  const pending: [unknown, number][] = [[value, 0]]
  while (pending.length) {
    const [next, depth] = pending.pop()!
    if (next === null || typeof next !== 'object') continue
    if (depth >= max) return false
    for (const child of Object.values(next)) pending.push([child, depth + 1])
  }
  return true
}

/** POST /api/{v}/app/invoice/batch: each invoice is checked by the worker exactly as the single endpoint checks it. */
export const BatchRequest = z.object({
  action: z.enum(['validate', 'sign'], { error: 'action must be "validate" or "sign"' }),
  invoices: z
    .array(
      z.unknown().refine((invoice) => nestsAtMost(invoice, MAX_INVOICE_DEPTH), {
        error: `an invoice may nest arrays and objects at most ${MAX_INVOICE_DEPTH} levels deep`,
      }),
    )
    .min(1, 'invoices must hold at least one invoice')
    .max(MAX_BATCH, `invoices may hold at most ${MAX_BATCH} invoices: split the batch`),
})
export type BatchRequest = z.output<typeof BatchRequest>

export const BatchPath = z.object({
  batch_id: z.string().regex(/^[0-9a-f-]{36}$/, 'batch_id is not a batch id'),
})
