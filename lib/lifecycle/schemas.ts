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

/** UpdateInvoiceRequest; the authority's sample also sends a free-text `reference`, which is ignored. */
export const UpdateRequest = z.object({
  payment_status: PaymentStatusInput,
})
export type UpdateRequest = z.output<typeof UpdateRequest>
