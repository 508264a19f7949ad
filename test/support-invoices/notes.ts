import { buildInvoice, type LineSpec, newIrn } from '../fixtures/invoices/build.ts'
import { DEV } from '../support/clients.ts'

/**
 * Invoices for the notes and search tests (CONTRACT 16): minimal invoices with the amounts the test
 * needs (payable = lines + 7.5 % VAT, computed by buildInvoice in decimal), and notes naming an original.
 */

/** A minimal 381 invoice whose payable amount is `units` x 107.50 (each unit: 100.00 + 7.50 VAT). */
export function invoiceOfUnits(
  units: number,
  irn?: string,
  buyer: { tin: string; name: string } = DEV.buyer,
): Record<string, any> {
  const lines: LineSpec[] = [{ quantity: units, price: 100 }]
  return {
    ...buildInvoice({ minimal: true, lines, ...(irn ? { irn } : {}) }),
    accounting_customer_party: { ...CUSTOMER, tin: buyer.tin, party_name: buyer.name },
  }
}

/** The full fixture's customer party (address and contacts), for a minimal invoice with a buyer. */
const CUSTOMER = buildInvoice().accounting_customer_party

/** A credit (380 by default) or debit (384) note of `units` x 107.50 naming `original`. */
export function noteOf(
  original: Record<string, any>,
  units: number,
  type: '380' | '393' | '384' = '380',
): Record<string, any> {
  return {
    ...invoiceOfUnits(units),
    invoice_type_code: type,
    billing_reference: [{ irn: original.irn, issue_date: original.issue_date }],
  }
}

/** An invoice of another registered business (DEV.other), signed by its own client. */
export function otherBusinessInvoice(units = 1): Record<string, any> {
  const invoice = invoiceOfUnits(units, newIrn(DEV.other.serviceId))
  return {
    ...invoice,
    business_id: DEV.other.businessId,
    accounting_supplier_party: {
      ...invoice.accounting_supplier_party,
      tin: DEV.other.tin,
      party_name: DEV.other.name,
    },
  }
}
