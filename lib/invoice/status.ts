/**
 * The states an invoice moves through (CONTRACT section 5), in a module below both of the places
 * that name them: the stored record (lib/invoice/record.ts, which hands them on to its importers)
 * and the integration events that report a change of them (lib/events/schemas.ts). The invoice
 * repository writes those events, so the event catalogue cannot import the invoice folder back.
 */
export const INVOICE_STATUSES = ['GENERATED', 'VALIDATED', 'SIGNED', 'TRANSMITTED'] as const
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number]

export const PAYMENT_STATUSES = ['PENDING', 'PAID', 'REJECTED'] as const
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number]
