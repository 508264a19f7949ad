import { INVOICE_STATUSES, type InvoiceStatus, type PaymentStatus } from '#lib/events/invoice-status.ts'

export {
  INVOICE_STATUSES,
  type InvoiceStatus,
  PAYMENT_STATUSES,
  type PaymentStatus,
} from '#lib/events/invoice-status.ts'

/**
 * The stored invoice record, shared by every Area A service that touches an invoice (IRNs, validate,
 * sign, transmit, update, confirm, get-invoice). One record per IRN, keyed by keys.invoice(irn).
 *
 * Lifecycle (CONTRACT section 5):
 *   GENERATED (generate-irn / generate-qr-code) -> VALIDATED (si/validate, app/invoice/validate)
 *   -> SIGNED (app/invoice/sign, app/invoice/validate) -> TRANSMITTED (transmit)
 * Every change is a conditional write on `status` (and `revision` where content changes), so two
 * concurrent requests can never both move the same invoice.
 */

/** The rank of a status, for "at least SIGNED" checks. */
export const statusRank = (status: InvoiceStatus): number => INVOICE_STATUSES.indexOf(status)

export interface InvoiceRecord {
  irn: string
  /** The issuing (supplier) business: the only business that may update it. */
  businessId: string
  status: InvoiceStatus
  paymentStatus: PaymentStatus
  /** From the invoice body, once validated: who may pull it (CONTRACT section 5, get-invoice). */
  supplierTin?: string
  buyerTin?: string
  /**
   * The invoice as validated (unknown keys dropped), once it has been validated or signed, as a plain
   * map: what records written before the body was gzipped hold, and what is kept when compressing would not make it smaller.
   */
  invoice?: Record<string, unknown>
  /**
   * Instead of `invoice`: the canonical JSON, compressed (./packed-json.ts: zlib with the invoice
   * dictionary; gzip in records written before it), a 10-line invoice 0.9 KB instead of 8.5 KB. Read
   * either form with `invoiceOf(record)` from lib/invoice/canonical.ts.
   */
  invoiceGzip?: Uint8Array
  /** SHA-256 (hex) of the RFC 8785 canonical JSON of `invoice`: same content, same hash. */
  contentHash?: string
  /** Base64url signature over the canonical JSON, and the id of the key that made it (JWKS `kid`). */
  signature?: string
  signingKeyId?: string
  generatedAt?: string
  validatedAt?: string
  signedAt?: string
  transmittedAt?: string
  /**
   * The buyer's business found at transmit, when the buyer's TIN is registered here: the invoice has
   * an item in that business's inbox (lib/lifecycle/inbox.ts), which later writes keep in step.
   */
  inboxBusinessId?: string
  /** When the buyer confirmed receipt (CONTRACT 17, PATCH /api/v1/invoice/transmit/{irn}); set once. */
  receivedAt?: string
  /**
   * The authority QR text printed on the invoice's PDF (CONTRACT sections 5 and 16), as the first PDF
   * request stored it before the text was made the same on every request (lib/documents/invoice-qr.ts):
   * only older records have it, and their PDFs keep printing it. Nothing writes it any more.
   */
  qrText?: string
  /** When payment_status last changed through app/invoice/update (PENDING -> PAID | REJECTED). */
  paymentUpdatedAt?: string
  /** The `reference` the supplier gave with its last payment status change (CONTRACT 17). */
  paymentReference?: string
  /**
   * Credit and debit notes signed against this invoice (CONTRACT 16, lib/invoice/adjustments.ts), in
   * integer kobo, kept by the notes' sign transactions: credited never passes payableKobo (the
   * invoice's own payable amount, set by the first note). noteCount says whether any note items exist.
   */
  payableKobo?: number
  creditedKobo?: number
  debitedKobo?: number
  noteCount?: number
  /** Its number in the business's search list (lib/invoice/search.ts), once signed. */
  listSeq?: number
  createdAt: string
  updatedAt: string
  /** Incremented on every write: the optimistic-concurrency token for conditional updates. */
  revision: number
}
