import * as z from 'zod'
import { INVOICE_STATUSES, PAYMENT_STATUSES } from '#lib/events/invoice-status.ts'
import { EVENT_TYPES, type EventType } from './types.ts'

export { EVENT_TYPES, type EventType }

/**
 * What each integration event's `data` holds (CONTRACT section 11): where the invoice stands after
 * the change (`irn`, `status`, `payment_status`) plus the change's own fields; for a batch, its
 * summary. `newEvent` (./event.ts) takes its data typed by these schemas, so the producers and the
 * published document (OpenAPI `webhooks`, lib/service/openapi/document.ts) cannot drift apart.
 */
const time = z.iso.datetime({ offset: true })
const invoiceNow = {
  irn: z.string().describe('The invoice reference number'),
  status: z.enum(INVOICE_STATUSES).describe('The invoice status after the change'),
  payment_status: z.enum(PAYMENT_STATUSES).describe('The payment status after the change'),
  sequence: z
    .number()
    .int()
    .min(1)
    .describe(
      "The invoice record's version after the change (CONTRACT 21): it grows with every change of the invoice, so a receiver drops an event whose sequence is below the one it already applied for that irn",
    ),
}
const receiptOf = {
  device_id: z.string().describe('The device that signed the receipt'),
  irn: z.string().describe("The receipt's IRN"),
  hash: z.string().describe("The receipt's hash (base64url of SHA-256 of its RFC 8785 bytes)"),
  counter: z.number().int().min(1).describe("The receipt's counter in the device's chain"),
}
/** The receipt and chain events (CONTRACT 23): each names its device, a receipt's its irn and hash. */
const RECEIPT_EVENT_DATA = {
  'receipt.late': z.object({
    ...receiptOf,
    issued_at: time,
    report_by: time.describe('issued_at + 24 h'),
    received_at: time.describe('When the service received it (the test clock in test mode)'),
  }),
  'chain.fork': z.object({
    ...receiptOf,
    fork_of: z.string().describe('The hash of the receipt it forks from (kept untouched)'),
    received_at: time,
  }),
  'chain.gap_overdue': z.object({
    device_id: z.string(),
    from: z.number().int().min(1).describe('The first counter missing'),
    to: z.number().int().min(1).describe('The last counter missing'),
    overdue_since: time.describe('24 h after the issued_at of the receipt after the gap'),
  }),
  'device.silent': z.object({
    device_id: z.string(),
    last_received_at: time.describe('When the device last reported a receipt'),
    silent_since: time.describe('last_received_at + 24 h'),
  }),
}
const previousStatus = z.enum(INVOICE_STATUSES).optional().describe('Set when an existing record moved on')

export const EVENT_DATA = {
  'invoice.validated': z.object({ ...invoiceNow, previous_status: previousStatus, validated_at: time }),
  'invoice.signed': z.object({ ...invoiceNow, previous_status: previousStatus, signed_at: time }),
  'invoice.transmitted': z.object({ ...invoiceNow, transmitted_at: time }),
  'invoice.received': z.object({
    ...invoiceNow,
    transmitted_at: time,
    supplier_tin: z.string().optional(),
    buyer_tin: z.string().optional(),
  }),
  'invoice.receipt_confirmed': z.object({
    ...invoiceNow,
    transmitted_at: time,
    received_at: time.describe('When the buyer confirmed receipt'),
    buyer_tin: z.string().optional(),
  }),
  'invoice.payment_status_changed': z.object({
    ...invoiceNow,
    previous_payment_status: z.enum(PAYMENT_STATUSES),
    payment_updated_at: time,
  }),
  'invoice.credited': z.object({
    ...invoiceNow,
    sequence: invoiceNow.sequence.describe(
      "The original invoice's version when the note was signed: a credit note changes its totals, not its version, so this equals the last invoice event's sequence",
    ),
    credit_note_irn: z.string().describe('The signed credit note'),
    invoice_type_code: z.string().describe('The credit note type (380 or 393)'),
    amount: z.number().describe("The credit note's payable amount, 2 decimals"),
    credited_at: time,
  }),
  'batch.completed': z.object({
    batch_id: z.string(),
    action: z.enum(['validate', 'sign']),
    status: z.literal('COMPLETED'),
    total: z.number().int(),
    succeeded: z.number().int(),
    failed: z.number().int(),
  }),
  ...RECEIPT_EVENT_DATA,
} as const satisfies Record<EventType, z.ZodType>

export type EventData<T extends EventType> = z.input<(typeof EVENT_DATA)[T]>

const EVENT_SUMMARIES: Record<EventType, string> = {
  'invoice.validated': 'An invoice passed validation and its record was stored',
  'invoice.signed': 'An invoice was signed (its IRN and QR code are final)',
  'invoice.transmitted': 'A signed invoice was transmitted to its buyer',
  'invoice.received': "An invoice naming this business's TIN as buyer was transmitted to it",
  'invoice.receipt_confirmed': 'The buyer confirmed receipt of a transmitted invoice of this business',
  'invoice.payment_status_changed': "An invoice's payment status changed",
  'invoice.credited':
    'A credit note naming this invoice in billing_reference was signed (data.irn is the original; its adjustments show the new totals)',
  'batch.completed': 'Every invoice of a batch has its result',
  'receipt.late':
    'A B2C receipt was reported after its report_by (issued_at + 24 h); it is REPORTED with late: true',
  'chain.fork':
    'A B2C receipt was a FORK: another receipt of the device holds its counter or names its prev_hash (both are kept)',
  'chain.gap_overdue':
    "A gap in a device's chain (counters never received) became overdue: 24 h passed since the issued_at of the receipt after it",
  'device.silent': 'An active device that has reported before sent nothing for 24 hours',
}

/**
 * The whole payload of one event type: `{id, type, created_at, business_id, data}`, as delivered,
 * with `mode: "test"` before `data` for an event of test mode (a live event has no `mode`).
 */
function eventSchema<T extends EventType>(type: T) {
  const id = `Event_${type.replace('.', '_')}`
  return z
    .object({
      id: z.string().describe('`evt_` + a time-ordered id; also the `webhook-id` header of every attempt'),
      type: z.literal(type),
      created_at: time,
      business_id: z.string().describe('The business the event is delivered to'),
      mode: z
        .literal('test')
        .optional()
        .describe(
          'Present, `test`, on an event of test mode (sandbox): it reports no real invoice (CONTRACT 18)',
        ),
      data: EVENT_DATA[type],
    })
    .meta({ id, description: EVENT_SUMMARIES[type] })
}

/** One schema per type, registered once (as a component of the OpenAPI document). */
export const EVENT_SCHEMAS = Object.fromEntries(EVENT_TYPES.map((type) => [type, eventSchema(type)])) as {
  [T in EventType]: ReturnType<typeof eventSchema<T>>
}

export const eventSummary = (type: EventType) => EVENT_SUMMARIES[type]
