import { describe, expect, it } from 'vitest'
import { canonicalInvoice, invoiceOf, storageOf } from '#lib/invoice/canonical.ts'
import type { StoredInvoice } from '#lib/invoice/schemas.ts'
import { valueSize } from '#lib/platform/db/item-size.ts'
import { invoiceOfLines } from '../../fixtures/invoices/build.ts'

/**
 * The invoice body's two stored forms (lib/invoice/canonical.ts): gzipped canonical JSON wherever it
 * is smaller than the plain map, the plain map otherwise and in records written before; `invoiceOf`
 * reads both to the same invoice.
 */
const stored = (invoice: Record<string, unknown>) =>
  storageOf(invoice as StoredInvoice, canonicalInvoice(invoice as StoredInvoice))

describe('the stored invoice body', () => {
  it.each([1, 10, 100])('stores a %i-line invoice gzipped, in fewer bytes than its map', (lines) => {
    const invoice = invoiceOfLines(lines)
    const storage = stored(invoice)!
    expect(storage.invoice).toBeUndefined()
    expect(storage.invoiceGzip).toBeInstanceOf(Uint8Array)
    // At most a third of the map's bytes at every size measured (BENCHMARKS.md).
    expect(storage.invoiceGzip!.byteLength).toBeLessThan(valueSize(invoice) / 3)
    expect(invoiceOf(storage)).toEqual(invoice)
  })

  it('keeps a body gzip would not make smaller as the plain map', () => {
    const tiny = { irn: 'INV1-94ND90NR-20260101' }
    const storage = stored(tiny)!
    expect(storage.invoiceGzip).toBeUndefined()
    expect(storage.invoice).toEqual(tiny)
    expect(invoiceOf(storage)).toEqual(tiny)
  })

  it('reads a record written before the change, which holds the plain `invoice` map', () => {
    const invoice = invoiceOfLines(10)
    expect(invoiceOf({ invoice })).toEqual(invoice)
    // The same invoice, either way.
    expect(invoiceOf({ invoice })).toEqual(invoiceOf(stored(invoice)!))
    expect(invoiceOf({})).toBeUndefined()
  })
})
