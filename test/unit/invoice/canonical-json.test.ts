import { createHash } from 'node:crypto'
import canonicalize from 'canonicalize'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { canonicalInvoice, canonicalJson, storageOf } from '#lib/invoice/canonical.ts'
import { unpackJson } from '#lib/invoice/packed-json.ts'
import type { StoredInvoice } from '#lib/invoice/schemas.ts'
import { buildInvoice, invoiceOfLines } from '../../fixtures/invoices/build.ts'

/** Reverses every object's member order, arrays kept as they are. */
function reversed(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map(reversed)
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reversed(v)]),
  )
}

describe('canonical JSON (RFC 8785)', () => {
  it('is what the canonicalize package writes, for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(value)).toBe(canonicalize(value))
      }),
      { numRuns: 500 },
    )
  })

  it('is the same when an object shape comes again (its order remembered), for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const expected = canonicalize(value)
        expect(canonicalJson(value)).toBe(expected)
        expect(canonicalJson([value, value])).toBe(`[${expected},${expected}]`)
      }),
      { numRuns: 300 },
    )
  })

  it('orders objects with the same first name but other names apart, past the bounds of what it remembers', () => {
    // 1,200 shapes, all starting with "m": more per first name and more in all than are remembered.
    const rows = Array.from({ length: 1200 }, (_, i) => ({
      m: i,
      [`k${i % 97}`]: 1,
      [`a${i}`]: { z: 1, b: 2 },
    }))
    const twice = [...rows, ...rows]
    expect(canonicalJson(twice)).toBe(canonicalize(twice))
    // An index-like or __proto__ name in a shape seen before without it is still written as RFC 8785 says.
    const proto = JSON.parse('{"m":1,"__proto__":{"x":1}}')
    expect(canonicalJson([{ m: 1, b: 2 }, { m: 1, '7': 2 }, proto])).toBe(
      canonicalize([{ m: 1, b: 2 }, { m: 1, '7': 2 }, proto]),
    )
  })

  it('is the same bytes whatever the key order', () => {
    const invoice = buildInvoice() as StoredInvoice
    const a = canonicalInvoice(invoice)
    const b = canonicalInvoice(reversed(invoice) as StoredInvoice)
    expect(b.json).toBe(a.json)
    expect(b.contentHash).toBe(a.contentHash)
    expect(a.json).toBe(canonicalize(invoice))
    expect(JSON.stringify(reversed(invoice))).not.toBe(JSON.stringify(invoice))
  })

  it("hashes and counts exactly the canonical bytes, whatever the text's UTF-8 lengths", () => {
    const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')
    for (const invoice of [
      { ...buildInvoice(), note: 'Naïra ₦ 😀 — ünïcödé', payment_terms_note: '€' } as StoredInvoice,
      buildInvoice() as StoredInvoice,
      { irn: 'A' } as unknown as StoredInvoice,
      {} as StoredInvoice,
    ]) {
      const expected = canonicalize(invoice)!
      const canonical = canonicalInvoice(invoice)
      expect(canonical.contentHash).toBe(sha256(expected))
      expect(canonical.byteLength).toBe(Buffer.byteLength(expected))
      expect(canonical.json).toBe(expected)
      expect(canonical.bytes.equals(Buffer.from(expected, 'utf8'))).toBe(true)
    }
  })

  it('stores a large invoice as its canonical bytes with the replaced members swapped in, packed', () => {
    const invoice = {
      ...invoiceOfLines(1000),
      note: 'Naïra ₦ 😀',
      payment_terms_note: 'Net 30 — €',
    } as StoredInvoice
    const replaced = { note: 'enc:v1:sealed-ü', payment_terms_note: 'enc:v1:sealed' }
    const storage = storageOf(invoice, canonicalInvoice(invoice), replaced)
    expect(storage?.invoice).toBeUndefined()
    const stored = unpackJson(storage!.invoiceGzip!)
    expect(stored).toBe(canonicalize({ ...invoice, ...replaced }))
    // Nothing replaced: the canonical form itself.
    const plain = storageOf(invoice, canonicalInvoice(invoice))
    expect(unpackJson(plain!.invoiceGzip!)).toBe(canonicalize(invoice))
  })

  it('sorts index-like member names as strings, as RFC 8785 does, not as JavaScript enumerates them', () => {
    const value = { b: 1, '10': 2, '9': 3, a: { '2': true, '1': false } }
    expect(canonicalJson(value)).toBe('{"10":2,"9":3,"a":{"1":false,"2":true},"b":1}')
  })

  it('keeps a member named __proto__ (an own property from JSON.parse) as a member', () => {
    const value = JSON.parse('{"z":1,"__proto__":{"x":1}}')
    expect(canonicalJson(value)).toBe('{"__proto__":{"x":1},"z":1}')
  })

  it('writes numbers and strings as RFC 8785 says', () => {
    expect(canonicalJson({ n: [-0, 1e21, 1e-7, 0.1, 333333333.3333333] })).toBe(
      '{"n":[0,1e+21,1e-7,0.1,333333333.3333333]}',
    )
    expect(canonicalJson({ s: '\u20ac\n"\\\u0001\ud800' })).toBe('{"s":"€\\n\\"\\\\\\u0001\\ud800"}')
  })
})
