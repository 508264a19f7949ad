import { actorOf } from '#lib/platform/audit/trail.ts'
import type { ApiClientCaller } from '#lib/platform/auth/caller.ts'
import { AGAIN, withRetries } from '#lib/platform/db/retry.ts'
import { Conflict, NotFound } from '#lib/platform/errors.ts'
import { markReceived, readInvoiceRecord } from '#lib/invoice/repository.ts'
import { inboxReceiptUpdate } from './inbox.ts'
import { isBuyer } from './queries.ts'
import { confirmView, isSigned } from './views.ts'

/**
 * Confirm receipt (CONTRACT 17: `PATCH /api/v1/invoice/transmit/{irn}`): the buyer of a TRANSMITTED
 * invoice says it has it. The record takes `received_at` once, the supplier gets
 * invoice.receipt_confirmed, and the invoice's inbox item moves to the confirmed partition, once the
 * record's write, conditional on receivedAt being unset, is made: a repeat, or a confirmation racing
 * another, finds it set and changes and sends nothing. The buyer of a SIGNED invoice hears 409; anyone else (the
 * supplier included) 404, as for an IRN that does not exist.
 */
export interface ReceiptResult {
  confirmed: boolean
  data: ReturnType<typeof confirmView>
}

export async function confirmReceipt(caller: ApiClientCaller, irn: string): Promise<ReceiptResult> {
  const unknown = new NotFound(`No invoice ${irn} was transmitted to your business`)
  // Read, decide, write on the revision read: a failed condition is another confirmation (receivedAt
  // is then set, and this one changes nothing) or another change of the invoice (a payment update:
  // read again and confirm on top of it).
  return withRetries(async () => {
    const record = await readInvoiceRecord(irn)
    if (!record || !isSigned(record) || !(await isBuyer(caller, record))) throw unknown
    if (record.status !== 'TRANSMITTED') {
      throw new Conflict(
        `Invoice ${irn} is ${record.status}: its receipt can be confirmed once the supplier has transmitted it`,
      )
    }
    if (record.receivedAt) return { confirmed: false, data: confirmView(record) }
    const at = new Date().toISOString()
    const inbox = inboxReceiptUpdate(record, at)
    if (await markReceived(record, at, actorOf(caller), { inbox }))
      return { confirmed: true, data: confirmView({ ...record, receivedAt: at }) }
    return AGAIN
  })
}
