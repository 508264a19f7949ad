import { adjustmentsOf, shownPaymentStatus, totalsOf } from '#lib/invoice/adjustments.ts'
import { invoiceOf } from '#lib/invoice/canonical.ts'
import { readableInvoiceOf } from '#lib/invoice/notes.ts'
import type { InvoiceRecord } from '#lib/invoice/record.ts'

/** The buyer's TIN: stored with the record once validated; read from the invoice body otherwise. */
export function buyerTinOf(record: InvoiceRecord): string | undefined {
  if (record.buyerTin) return record.buyerTin
  const customer = invoiceOf(record)?.accounting_customer_party as { tin?: unknown } | undefined
  return typeof customer?.tin === 'string' ? customer.tin : undefined
}

export const isSigned = (record: InvoiceRecord): boolean =>
  record.status === 'SIGNED' || record.status === 'TRANSMITTED'

/** confirm's data (CONTRACT section 5); a step not reached yet is null. */
export function confirmView(record: InvoiceRecord) {
  return {
    irn: record.irn,
    status: record.status,
    payment_status: record.paymentStatus,
    business_id: record.businessId,
    validated_at: record.validatedAt ?? null,
    signed_at: record.signedAt ?? null,
    transmitted_at: record.transmittedAt ?? null,
    received_at: record.receivedAt ?? null,
    reference: record.paymentReference ?? null,
  }
}

/** A party of the invoice as the exchange record shows it: its TIN and name. */
function partyOf(invoice: Record<string, unknown> | undefined, role: string, tin: string | undefined) {
  const party = invoice?.[role] as { tin?: unknown; party_name?: unknown } | undefined
  const found = tin ?? (typeof party?.tin === 'string' ? party.tin : undefined)
  if (!found) return null
  return { tin: found, name: typeof party?.party_name === 'string' ? party.party_name : null }
}

/** The transmit lookup's data (CONTRACT 17): the invoice's exchange record. */
export function exchangeView(record: InvoiceRecord) {
  const invoice = invoiceOf(record)
  return {
    irn: record.irn,
    status: record.status,
    supplier: partyOf(invoice, 'accounting_supplier_party', record.supplierTin),
    buyer: partyOf(invoice, 'accounting_customer_party', buyerTinOf(record)),
    transmitted_at: record.transmittedAt ?? null,
    received_at: record.receivedAt ?? null,
  }
}

/**
 * The A.7 InvoiceResponse: the invoice as signed (inline or gzipped, notes decrypted), with its
 * current payment status and its credit and debit notes (CONTRACT 16): CANCELLED once credit notes
 * took all of its payable amount.
 */
export async function pulledInvoiceView(record: InvoiceRecord): Promise<Record<string, unknown>> {
  const [invoice, adjustments] = await Promise.all([readableInvoiceOf(record), adjustmentsOf(record)])
  return {
    ...invoice,
    irn: record.irn,
    payment_status: shownPaymentStatus(record.paymentStatus, totalsOf(record)),
    // The supplier's payment reference (CONTRACT 17), once an update gave one.
    ...(record.paymentReference ? { reference: record.paymentReference } : {}),
    adjustments,
  }
}
