import * as z from 'zod'
import { lazy } from './endpoint.ts'

/**
 * CONTRACT 18: how many errors and warnings a reply found but did not list (it lists 100 of each).
 * Lazy and on its own, so the invoice endpoints declare it without bundling the records (./records.ts).
 */
export const Truncated = /* @__PURE__ */ lazy(() =>
  z
    .object({
      errors: z.int().min(0).meta({ description: 'Errors found and not listed (at least this many)' }),
      warnings: z.int().min(0).meta({ description: 'Warnings found and not listed' }),
    })
    .meta({
      description:
        'Present when a list was cut at 100: the counts left out. Validation stops looking past 100 errors, so `errors` is then a lower bound.',
    }),
)
