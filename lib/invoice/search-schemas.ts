import * as z from 'zod'
import { TIN_FORMS, TIN_PATTERN } from '#lib/taxpayer/tin.ts'

/**
 * The supplier search query (CONTRACT 16). An empty parameter counts as absent. Every value that
 * becomes part of a key is bounded here, before any read (CONTRACT 14).
 */
export const MAX_SEARCH_PAGE_SIZE = 100
/** A CSV page may be larger, as the merchant history's (CONTRACT 12). */
export const MAX_SEARCH_CSV_PAGE_SIZE = 1000
export const DEFAULT_SEARCH_PAGE_SIZE = 50

/** The payment statuses a search shows (a pulled invoice's: REJECTED and fully credited read CANCELLED). */
export const SEARCH_PAYMENT_STATUSES = ['PENDING', 'PAID', 'CANCELLED'] as const
export type SearchPaymentStatus = (typeof SEARCH_PAYMENT_STATUSES)[number]

const blankIsAbsent = (value: unknown) => (value === '' ? undefined : value)

const integer = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,12}$/, `${name} must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().min(min, `${name} must be at least ${min}`).max(max, `${name} must be at most ${max}`))

const date = (name: string) => z.iso.date({ error: `${name} must be a date, YYYY-MM-DD` })

const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankIsAbsent, schema.optional())

/** The authority's search path names the business (GET /api/v1/invoice/{business_id}); the seed's does not. */
export const SearchPath = z.object({
  business_id: z.string().max(64).optional().meta({ description: "The caller's own business id" }),
})

export const SearchQuery = z
  .object({
    // Any IRN-like text (bounded before it becomes a key): an unknown one simply lists nothing.
    irn: optional(
      z.string().regex(/^[A-Za-z0-9-]{1,120}$/, 'irn must be an IRN: letters, digits and hyphens'),
    ),
    payment_status: z.preprocess(
      (v) => (typeof v === 'string' && v !== '' ? v.toUpperCase() : undefined),
      z
        .enum(SEARCH_PAYMENT_STATUSES, {
          error: `payment_status must be one of ${SEARCH_PAYMENT_STATUSES.join(', ')}`,
        })
        .optional(),
    ),
    invoice_type_code: optional(
      z.string().regex(/^\d{3}$/, 'invoice_type_code must be a 3-digit code, e.g. 381'),
    ),
    // A TIN of no accepted form is on no invoice, so it is refused with the forms rather than listing
    // nothing: the caller learns of the typo at once (CONTRACT 17 names the search filters).
    buyer_tin: optional(
      z
        .string()
        .max(64, 'buyer_tin must be at most 64 characters')
        .regex(TIN_PATTERN, `buyer_tin must be a TIN of the form ${TIN_FORMS}`),
    ),
    currency: z.preprocess(
      (v) => (typeof v === 'string' && v !== '' ? v.toUpperCase() : undefined),
      z
        .string()
        .regex(/^[A-Z]{3}$/, 'currency must be an ISO 4217 code, e.g. NGN')
        .optional(),
    ),
    issue_date_from: optional(date('issue_date_from')),
    issue_date_to: optional(date('issue_date_to')),
    /** Continues a filtered search below this list number (the `next-window` link; docs/capacity.md). */
    before: optional(integer('before', 1, 999_999_999_999)),
    page: z.preprocess(blankIsAbsent, integer('page', 1, 1_000_000_000).default(1)),
    size: z.preprocess(
      blankIsAbsent,
      integer('size', 1, MAX_SEARCH_PAGE_SIZE).default(DEFAULT_SEARCH_PAGE_SIZE),
    ),
  })
  .refine((q) => !q.issue_date_from || !q.issue_date_to || q.issue_date_from <= q.issue_date_to, {
    message: 'issue_date_from must not be after issue_date_to',
    path: ['issue_date_from'],
  })
export type SearchQuery = z.output<typeof SearchQuery>

/** The same filters with pages of up to MAX_SEARCH_CSV_PAGE_SIZE, for `Accept: text/csv`. */
export const SearchCsvQuery = SearchQuery.safeExtend({
  size: z.preprocess(
    blankIsAbsent,
    integer('size', 1, MAX_SEARCH_CSV_PAGE_SIZE).default(DEFAULT_SEARCH_PAGE_SIZE),
  ),
})
