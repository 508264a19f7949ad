import type { ApiClientCaller } from '#lib/platform/auth/caller.ts'
import { getBusiness } from '#lib/registry/businesses.ts'
import { NotFound } from '#lib/platform/errors.ts'
import type { InvoiceRecord } from '#lib/invoice/record.ts'
import { readInvoiceRecord } from '#lib/invoice/repository.ts'
import { buyerTinOf, confirmView, exchangeView, isSigned, pulledInvoiceView } from './views.ts'

/** confirm: the lifecycle of an invoice of the caller's business; 404 for any other IRN. */
export async function confirmInvoice(caller: ApiClientCaller, irn: string) {
  const { businessId } = caller
  const record = await readInvoiceRecord(irn)
  if (!record || record.businessId !== businessId)
    throw new NotFound(`No invoice ${irn} for your business`, { code: 'INVOICE_NOT_FOUND' })
  return confirmView(record)
}

/**
 * get-invoice: the supplier, or the buyer (customer party TIN = the caller's business TIN), pulls a
 * SIGNED (or TRANSMITTED) invoice. Anyone else, and the buyer of an invoice not signed yet, gets the
 * same 404, so the reply tells a stranger nothing about whether the IRN exists. The same rule gives
 * the invoice's documents (lib/documents: the PDF).
 */
export async function pullableRecord(caller: ApiClientCaller, irn: string): Promise<InvoiceRecord> {
  const { businessId } = caller
  const record = await readInvoiceRecord(irn)
  const unavailable = new NotFound(`No invoice ${irn} is available to your business`)
  if (!record) throw unavailable
  if (record.businessId === businessId) {
    if (!isSigned(record))
      throw new NotFound(`Invoice ${irn} is ${record.status}: it can be pulled once it is SIGNED`)
    return record
  }
  if (!isSigned(record) || !(await isBuyer(caller, record))) throw unavailable
  return record
}

/** Whether the caller's business is the invoice's buyer: its TIN is the customer party's. */
export async function isBuyer(caller: ApiClientCaller, record: InvoiceRecord): Promise<boolean> {
  const buyerTin = buyerTinOf(record)
  if (!buyerTin) return false
  const own = await getBusiness(caller.businessId)
  return own?.tin === buyerTin
}

/** transmit/lookup (CONTRACT 17): the exchange record, for the supplier or the buyer of a signed invoice. */
export async function lookupExchange(caller: ApiClientCaller, irn: string) {
  return exchangeView(await pullableRecord(caller, irn))
}

/** get-invoice's data: the pulled invoice (A.7). */
export async function pullInvoice(caller: ApiClientCaller, irn: string) {
  return pulledInvoiceView(await pullableRecord(caller, irn))
}
