import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { packJson, packValue, unpackJson, unpackValue } from '#lib/invoice/packed-json.ts'
import { buildInvoice, invoiceOfLines } from '../../fixtures/invoices/build.ts'
import { b2cInvoice } from '../../support/receipts.ts'

const utf8 = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8')

describe('packed JSON bodies (lib/invoice/packed-json.ts)', () => {
  it('gives back the exact text it packed, any characters, small and large', () => {
    for (const value of [{}, { note: 'Naïra ₦ 😀 — €' }, buildInvoice(), invoiceOfLines(1000)]) {
      expect(unpackJson(packJson(utf8(value)))).toBe(JSON.stringify(value))
      expect(unpackJson(packJson(utf8(value), { fast: true }))).toBe(JSON.stringify(value))
      expect(unpackValue(packValue(value))).toEqual(value)
    }
  })

  it('reads the gzip bodies written before it', () => {
    const invoice = buildInvoice()
    expect(unpackValue(new Uint8Array(gzipSync(utf8(invoice))))).toEqual(invoice)
  })

  it('reads what it packed when the dictionary was first shipped: the dictionary is fixed for good', () => {
    // Packed on 2026-12-03. Bytes 2-5 are the dictionary's Adler-32 (RFC 1950's DICTID).
    const shipped = Buffer.from(
      'eLvAe+sdg4W6p1+YgYGhrqWJn4ulgV+QrpGBkZmhoZGhEjxR+iUeXl+UqPCoaZlSLQCNERA1',
      'base64',
    )
    expect(shipped.subarray(2, 6).toString('hex')).toBe('c07beb1d')
    expect(unpackValue(new Uint8Array(shipped))).toEqual({ irn: 'INV001-94ND90NR-20261121', note: 'Naïra ₦' })
    expect(
      Buffer.from(packValue({ irn: 'X' }))
        .subarray(2, 6)
        .toString('hex'),
    ).toBe('c07beb1d')
  })

  it('packs a small invoice in about two thirds of its gzip size (the member names are in the dictionary)', () => {
    for (const invoice of [buildInvoice(), b2cInvoice()]) {
      const gzipped = gzipSync(utf8(invoice)).length
      expect(packValue(invoice).length).toBeLessThan(gzipped * 0.75)
    }
  })

  it('refuses bytes that are neither of its forms rather than give back something else', () => {
    expect(() => unpackJson(new Uint8Array(Buffer.from('{"irn":"X"}')))).toThrow()
  })
})
