import { actorOf } from '#lib/platform/audit/trail.ts'
import type { ApiClientCaller } from '#lib/platform/auth/caller.ts'
import { Conflict, NotFound } from '#lib/platform/errors.ts'
import type { PaymentStatus } from '#lib/invoice/record.ts'
import { changePaymentStatus, readInvoiceRecord } from '#lib/invoice/repository.ts'
import { AGAIN, withRetries } from '#lib/platform/db/retry.ts'
import { listPaymentStatusUpdate } from '#lib/invoice/search-index.ts'
import { inboxPaymentUpdate } from './inbox.ts'

/**
 * update (CONTRACT section 5): only the supplier business may set an invoice's payment status, with
 * an optional `reference` (CONTRACT 17) stored with the change; a repeat of the same status is a no-op
 * and keeps the reference stored before.
 * PENDING -> PAID | REJECTED; the same value again is a no-op 200; PAID and REJECTED are final (409).
 * The write is conditional on the status it was decided from, so of concurrent conflicting updates
 * exactly one changes the invoice; the others see the winner's value (same target: no-op; other: 409).
 */
export interface PaymentUpdate {
  changed: boolean
  message: string
}

export async function updatePaymentStatus(
  caller: ApiClientCaller,
  irn: string,
  target: PaymentStatus,
  reference?: string,
): Promise<PaymentUpdate> {
  const { businessId } = caller
  const record = await readInvoiceRecord(irn)
  if (!record || record.businessId !== businessId)
    throw new NotFound(`No invoice ${irn} for your business`, { code: 'INVOICE_NOT_FOUND' })
  const decide = (current: PaymentStatus): PaymentUpdate | undefined => {
    if (current === target)
      return { changed: false, message: `Payment status of ${irn} is already ${target}; nothing changed` }
    if (current !== 'PENDING') {
      throw new Conflict(
        `Payment status of ${irn} is ${current}, which is final: it cannot change to ${target}`,
      )
    }
    return undefined
  }
  let current = record
  // A failed condition means a concurrent change: to the payment status (decided again) or to the
  // invoice status (a transmit), which the event must state, so the write is made again.
  return withRetries(
    async () => {
      const early = decide(current.paymentStatus)
      if (early) return early
      const at = new Date().toISOString()
      // The search list item shows the same payment status (lib/invoice/search-index.ts).
      const listed =
        current.listSeq !== undefined ? [listPaymentStatusUpdate(businessId, current.listSeq, target)] : []
      // So does the buyer's inbox item, when the invoice was transmitted to a business here (./inbox.ts).
      const inbox = inboxPaymentUpdate(current, target, reference)
      if (
        await changePaymentStatus(
          current,
          'PENDING',
          target,
          at,
          actorOf(caller),
          { listed, inbox },
          reference,
        )
      ) {
        return { changed: true, message: `Payment status of ${irn} changed from PENDING to ${target}` }
      }
      const now = await readInvoiceRecord(irn)
      if (!now) throw new NotFound(`No invoice ${irn} for your business`, { code: 'INVOICE_NOT_FOUND' })
      current = now
      return AGAIN
    },
    {
      attempts: 3,
      baseMs: 0,
      exhausted: () => {
        throw new Conflict(`Payment status of ${irn} is being changed concurrently: retry`)
      },
    },
  )
}
