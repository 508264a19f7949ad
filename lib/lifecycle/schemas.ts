import * as z from 'zod'
import { PAYMENT_STATUSES, type PaymentStatus } from '#lib/invoice/record.ts'
import { Irn } from '#lib/irn/schemas.ts'

/** `{irn}` in the path of update, confirm and get-invoice. */
export const IrnPath = z.object({ irn: Irn })

/** TransmitInvoiceRequest. */
export const TransmitRequest = z.object({ irn: Irn })
export type TransmitRequest = z.output<typeof TransmitRequest>

/** The reference page's numeric codes (CONTRACT section 4): 0=REJECTED, 1=PENDING, 2=PAID. */
const BY_CODE: Record<string, PaymentStatus> = { '0': 'REJECTED', '1': 'PENDING', '2': 'PAID' }

const PAYMENT_STATUS_HINT = 'payment_status must be PENDING, PAID or REJECTED (or the codes 1, 2, 0)'

/** A payment status as a name or a numeric code (number or digit string); stored as the name. */
export const PaymentStatusInput = z
  .union([z.enum(PAYMENT_STATUSES), z.literal([0, 1, 2]), z.enum(['0', '1', '2'])], {
    error: PAYMENT_STATUS_HINT,
  })
  .transform((value): PaymentStatus => BY_CODE[String(value)] ?? (value as PaymentStatus))

/** The longest `reference` an update stores (CONTRACT 18: every stored value is bounded). */
export const MAX_PAYMENT_REFERENCE = 200

/**
 * UpdateInvoiceRequest; `reference` (the authority's sample sends one: a payment's own reference) is
 * stored with the change and shown by confirm, the pulled invoice and the buyer's inbox (CONTRACT 17).
 */
export const UpdateRequest = z.object({
  payment_status: PaymentStatusInput,
  reference: z
    .string({ error: 'reference must be a string' })
    .trim()
    .min(1, 'reference must not be empty')
    .max(MAX_PAYMENT_REFERENCE, `reference must be at most ${MAX_PAYMENT_REFERENCE} characters`)
    .regex(/^[^\p{Cc}]*$/u, 'reference must not contain control characters')
    .optional(),
})
export type UpdateRequest = z.output<typeof UpdateRequest>

/** The largest page of the buyer's inbox, and the default (as section 16's search). */
export const MAX_PULL_PAGE_SIZE = 100
export const DEFAULT_PULL_PAGE_SIZE = 50

const blankIsAbsent = (value: unknown) => (value === '' ? undefined : value)
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankIsAbsent, schema.optional())

const integer = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,12}$/, `${name} must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(z.number().min(min, `${name} must be at least ${min}`).max(max, `${name} must be at most ${max}`))

/** A day (YYYY-MM-DD) or a time with its offset, as the key's UTC time text. */
const dayOrTime = (name: string) =>
  z
    .union([z.iso.date(), z.iso.datetime({ offset: true })], {
      error: `${name} must be a date (YYYY-MM-DD) or a date-time with its offset`,
    })
    .transform((value) => (value.length === 10 ? value : new Date(value).toISOString()))

/** An inbox sort key: `<transmitted_at>#<irn>`, as the cursor carries it. */
const SORT_KEY = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z#[A-Za-z0-9-]{1,120}$/

const cursor = z
  .string()
  .max(300, 'cursor must be at most 300 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'cursor must be the next_cursor of a previous page')
  .transform((value) => Buffer.from(value, 'base64url').toString('utf8'))
  .refine((sortKey) => SORT_KEY.test(sortKey), 'cursor must be the next_cursor of a previous page')

/** The buyer's inbox query (CONTRACT 17, transmit/pull). An empty parameter counts as absent. */
export const PullQuery = z
  .object({
    confirmed: optional(
      z.enum(['true', 'false'], { error: 'confirmed must be true or false' }).transform((v) => v === 'true'),
    ),
    from: optional(dayOrTime('from')),
    to: optional(dayOrTime('to')),
    page: z.preprocess(blankIsAbsent, integer('page', 1, 1_000_000_000).default(1)),
    size: z.preprocess(blankIsAbsent, integer('size', 1, MAX_PULL_PAGE_SIZE).default(DEFAULT_PULL_PAGE_SIZE)),
    cursor: optional(cursor),
  })
  .refine((q) => !q.from || !q.to || q.from <= `${q.to}~`, {
    message: 'from must not be after to',
    path: ['from'],
  })
  .refine((q) => q.page === 1 || q.cursor !== undefined, {
    message:
      'page 2 and later are read with the cursor of the page before: follow its next link (or pass its page.next_cursor as cursor)',
    path: ['page'],
  })
export type PullQuery = z.output<typeof PullQuery>
