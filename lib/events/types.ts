/**
 * The integration event types (CONTRACT section 11), in a module of their own: a function that only
 * names them (a webhook subscription's `events`) does not build every payload schema when it loads.
 * lib/events/schemas.ts declares one payload schema per type, checked against this list by the type
 * checker (a type missing or added there fails `satisfies`).
 */
export const EVENT_TYPES = [
  'invoice.validated',
  'invoice.signed',
  'invoice.transmitted',
  'invoice.received',
  'invoice.receipt_confirmed',
  'invoice.payment_status_changed',
  'invoice.credited',
  'batch.completed',
  'receipt.late',
  'chain.fork',
  'chain.gap_overdue',
  'device.silent',
] as const

export type EventType = (typeof EVENT_TYPES)[number]
