import { decryptField, encryptField, isEncrypted } from '#lib/platform/crypto/fields.ts'
import { DependencyDown } from '#lib/platform/errors.ts'
import { logger } from '#lib/platform/log.ts'
import type { StoredInvoice } from './schemas.ts'
import { type CanonicalInvoice, type InvoiceStorage, invoiceOf, storageOf } from './canonical.ts'
import { packValue, unpackValue } from './packed-json.ts'
import type { InvoiceRecord } from './record.ts'

/**
 * The invoice's free-text notes are encrypted at rest (the spec: `note`; the authority's samples:
 * `payment_terms_note`), each bound to its IRN and field name. Only the stored copy is sealed: the
 * content hash and the signature are computed over the plaintext canonical invoice, so a pulled or
 * delivered invoice (notes opened again) still verifies against them.
 */
export const NOTE_FIELDS = ['note', 'payment_terms_note'] as const

export const noteContext = (irn: string, field: string) => ({ record: 'invoice', id: irn, field })

type Invoice = Record<string, unknown>

/** A copy of the invoice with every plaintext note encrypted (already encrypted ones are kept). */
export async function sealNotes<T extends Invoice>(irn: string, invoice: T): Promise<T> {
  const sealed: Invoice = { ...invoice }
  for (const field of NOTE_FIELDS) {
    const value = sealed[field]
    if (typeof value === 'string' && !isEncrypted(value))
      sealed[field] = await encryptField(value, noteContext(irn, field))
  }
  return sealed as T
}

/**
 * A copy of the invoice with its notes in plaintext (plaintext ones, not migrated yet, pass through).
 * A note that will not decrypt (its key unavailable or the ciphertext damaged) is a fault on our side,
 * reported as 503 naming the invoice, never as a 500 or with the ciphertext.
 */
export async function openNotes(irn: string, invoice: Invoice): Promise<Invoice> {
  const opened: Invoice = { ...invoice }
  for (const field of NOTE_FIELDS) {
    const value = opened[field]
    if (typeof value !== 'string') continue
    try {
      opened[field] = await decryptField(value, noteContext(irn, field))
    } catch (error) {
      logger.error('stored invoice note could not be decrypted', { irn, field, error: (error as Error).name })
      throw new DependencyDown(
        `The stored ${field} of invoice ${irn} cannot be read right now: retry shortly`,
        {
          cause: error,
        },
      )
    }
  }
  return opened
}

export const hasPlaintextNote = (invoice: Invoice | undefined): boolean =>
  !!invoice && NOTE_FIELDS.some((field) => typeof invoice[field] === 'string' && !isEncrypted(invoice[field]))

/** Compressed copies made by sealedStorageOf in this process: their notes are sealed already. */
const sealedHere = new WeakSet<Uint8Array>()

/**
 * The storage form of a validated invoice with its notes sealed, made in one pass (one compression, no
 * unzip and re-parse), or undefined when it is too large to store.
 */
export async function sealedStorageOf(
  irn: string,
  invoice: StoredInvoice,
  canonical: CanonicalInvoice,
): Promise<InvoiceStorage | undefined> {
  const sealed: Record<string, string> = {}
  for (const field of NOTE_FIELDS) {
    const value = (invoice as Invoice)[field]
    if (typeof value === 'string' && !isEncrypted(value))
      sealed[field] = await encryptField(value, noteContext(irn, field))
  }
  const storage = storageOf(invoice, canonical, sealed)
  if (storage?.invoiceGzip) sealedHere.add(storage.invoiceGzip)
  return storage
}

/** The storage form with notes sealed, inline or inside the compressed JSON. */
export async function sealStorage(irn: string, storage: InvoiceStorage): Promise<InvoiceStorage> {
  if (storage.invoice) return { invoice: await sealNotes<StoredInvoice>(irn, storage.invoice) }
  if (sealedHere.has(storage.invoiceGzip)) return storage
  const invoice = unpackValue<Invoice>(storage.invoiceGzip)
  if (!hasPlaintextNote(invoice)) return storage
  const sealed = await sealNotes(irn, invoice)
  return { invoiceGzip: packValue(sealed) }
}

/** The stored invoice of a record with its notes readable: what get-invoice and webhooks hand out. */
export async function readableInvoiceOf(
  record: Pick<InvoiceRecord, 'irn' | 'invoice' | 'invoiceGzip'>,
): Promise<Invoice | undefined> {
  const stored = invoiceOf(record)
  return stored ? openNotes(record.irn, stored) : undefined
}
