import * as z from 'zod'
import { lagosLocalIso, parseLagosLocal } from '#lib/platform/time.ts'

/** Area C query (CONTRACT section 7). An empty parameter (`?status=`) counts as absent. */
export const STATUS_FILTERS = ['ALL', 'INITIATED', 'SUCCESSFUL', 'FAILED', 'REVERSED'] as const

export const MAX_PAGE_SIZE = 200
/** A CSV page may be larger: finance teams export whole periods (CONTRACT section 12). */
export const MAX_CSV_PAGE_SIZE = 1000
export const DEFAULT_PAGE_SIZE = 50

const blankIsAbsent = (value: unknown) => (value === '' ? undefined : value)

const integer = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,10}$/, `${name} must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().min(min, `${name} must be at least ${min}`).max(max, `${name} must be at most ${max}`))

/**
 * A zone-less Africa/Lagos date-time, as the samples send it (`2026-01-15T08:30:00.000`), or a bare
 * date. A bare fromDate means the start of that day, a bare toDate the end of it (inclusive).
 */
const localDateTime = (name: string, edge: 'start' | 'end') =>
  z.string().transform((value, ctx) => {
    const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value)
    const parsed = parseLagosLocal(dateOnly ? `${value}T00:00:00.000` : value)
    if (!parsed) {
      ctx.addIssue({
        code: 'custom',
        message: `${name} must be a local date-time in Africa/Lagos time without a zone, e.g. 2026-01-15T08:30:00.000 (or a date, 2026-01-15)`,
      })
      return z.NEVER
    }
    const ms = dateOnly && edge === 'end' ? parsed.getTime() + 24 * 60 * 60 * 1000 - 1 : parsed.getTime()
    return { ms, local: lagosLocalIso(new Date(ms)) }
  })

export const HistoryQuery = z
  .object({
    reference: z.preprocess(
      blankIsAbsent,
      z.string().max(64, 'reference must be at most 64 characters').optional(),
    ),
    status: z.preprocess(
      (v) => (typeof v === 'string' && v !== '' ? v.toUpperCase() : undefined),
      z.enum(STATUS_FILTERS, { error: `status must be one of ${STATUS_FILTERS.join(', ')}` }).default('ALL'),
    ),
    fromDate: z.preprocess(blankIsAbsent, localDateTime('fromDate', 'start').optional()),
    toDate: z.preprocess(blankIsAbsent, localDateTime('toDate', 'end').optional()),
    page: z.preprocess(blankIsAbsent, integer('page', 1, 1_000_000_000).default(1)),
    size: z.preprocess(blankIsAbsent, integer('size', 1, MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE)),
  })
  .refine((q) => !q.fromDate || !q.toDate || q.fromDate.ms <= q.toDate.ms, {
    message: 'fromDate must not be after toDate',
    path: ['fromDate'],
  })
export type HistoryQuery = z.output<typeof HistoryQuery>

/** The same filters (and the date-order check) with pages of up to MAX_CSV_PAGE_SIZE, for `Accept: text/csv`. */
export const HistoryCsvQuery = HistoryQuery.safeExtend({
  size: z.preprocess(blankIsAbsent, integer('size', 1, MAX_CSV_PAGE_SIZE).default(DEFAULT_PAGE_SIZE)),
})
