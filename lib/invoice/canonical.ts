import { createHash } from 'node:crypto'
import { gunzipSync, gzipSync } from 'node:zlib'
import canonicalize from 'canonicalize'
import type { InvoiceRecord } from './record.ts'
import type { StoredInvoice } from './schemas.ts'

/**
 * The invoice's canonical form (RFC 8785 JSON Canonicalization Scheme): the bytes that are hashed
 * and signed. Two requests with the same content, in any key order or either issue_time reading,
 * give the same bytes.
 */
export interface CanonicalInvoice {
  json: string
  bytes: Buffer
  /** SHA-256 of the canonical bytes, lower-case hex. */
  contentHash: string
}

export function canonicalInvoice(invoice: StoredInvoice): CanonicalInvoice {
  const json = canonicalize(invoice)
  if (json === undefined) throw new Error('invoice could not be canonicalised')
  const bytes = Buffer.from(json, 'utf8')
  return { json, bytes, contentHash: createHash('sha256').update(bytes).digest('hex') }
}

/**
 * DynamoDB items stop at 400 KB, and bodies may be up to 1 MiB. An invoice whose canonical JSON is
 * under INLINE_LIMIT is stored as a map in `invoice`, readable by every service as is; a larger one
 * is stored gzipped in `invoiceGzip` (typically a tenth of the size). Above STORED_LIMIT even that
 * does not fit, and the request is refused (413).
 */
export const INLINE_LIMIT = 300_000
export const STORED_LIMIT = 350_000

export type InvoiceStorage =
  | { invoice: StoredInvoice; invoiceGzip?: undefined }
  | { invoice?: undefined; invoiceGzip: Uint8Array }

/** How an invoice is stored, or undefined when it is too large to store at all. */
export function storageOf(invoice: StoredInvoice, canonical: CanonicalInvoice): InvoiceStorage | undefined {
  if (canonical.bytes.length <= INLINE_LIMIT) return { invoice }
  const gz = gzipSync(canonical.bytes)
  return gz.length <= STORED_LIMIT ? { invoiceGzip: new Uint8Array(gz) } : undefined
}

/** The stored invoice of a record, however it was stored. */
export function invoiceOf(
  record: Pick<InvoiceRecord, 'invoice' | 'invoiceGzip'>,
): Record<string, unknown> | undefined {
  if (record.invoice) return record.invoice
  if (record.invoiceGzip)
    return JSON.parse(gunzipSync(record.invoiceGzip).toString('utf8')) as Record<string, unknown>
  return undefined
}
