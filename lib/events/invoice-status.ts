/**
 * The states an invoice moves through (CONTRACT section 5). They live with the integration events
 * that report a change of them (lib/events/schemas.ts) rather than in lib/invoice/: the invoice
 * repository writes those events, so the event catalogue cannot import the invoice folder back. The
 * stored record (lib/invoice/record.ts) takes them from here and hands them on to its importers.
 */
export const INVOICE_STATUSES = ['GENERATED', 'VALIDATED', 'SIGNED', 'TRANSMITTED'] as const
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number]

export const PAYMENT_STATUSES = ['PENDING', 'PAID', 'REJECTED'] as const
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number]
