import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseReceiptVerifyUrl, receiptVerifyUrl } from '#client/receipts/verify-url.ts'

/**
 * The receipt's QR URL (CONTRACT 23): what receiptVerifyUrl writes, parseReceiptVerifyUrl reads back
 * exactly, whatever the device id and base; anything else parses to undefined, never a throw.
 */

const FIELDS = {
  irn: 'T0100000042-94ND90NR-20261202',
  hash: Buffer.alloc(32, 7).toString('base64url'),
  device_id: 'dev_01JE4Q8N2K7V5X3M9P6R1T0W2Y',
  counter: 42,
  signature: Buffer.alloc(64, 9).toString('base64url'),
}

describe('receiptVerifyUrl and parseReceiptVerifyUrl', () => {
  it('write a short URL on the verification page, and read it back', () => {
    const url = receiptVerifyUrl('https://einvoice.example.ng/', FIELDS)
    expect(url).toBe(
      `https://einvoice.example.ng/verify/r/${FIELDS.device_id}/42?h=${FIELDS.hash}&s=${FIELDS.signature}&i=${FIELDS.irn}`,
    )
    // A version 12 QR code at level M holds 287 bytes: room for a base of 80 characters.
    expect(url.length).toBe(237)
    expect(parseReceiptVerifyUrl(url)).toEqual({ base: 'https://einvoice.example.ng', ...FIELDS })
    expect(parseReceiptVerifyUrl(new URL(url))).toEqual({ base: 'https://einvoice.example.ng', ...FIELDS })
  })

  it('keep a base with a path, and read a path without scheme and host (as a server sees it)', () => {
    const url = receiptVerifyUrl('http://127.0.0.1:3000/prod', FIELDS)
    expect(parseReceiptVerifyUrl(url)?.base).toBe('http://127.0.0.1:3000/prod')
    const path = url.slice('http://127.0.0.1:3000/prod'.length)
    expect(parseReceiptVerifyUrl(path)).toEqual({ base: '', ...FIELDS })
  })

  it('round-trip any device id, counter, hash and signature', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 128, unit: 'grapheme-composite' }),
        fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ minLength: 64, maxLength: 64 }),
        (device_id, counter, hash, signature) => {
          const fields = {
            ...FIELDS,
            device_id,
            counter,
            hash: Buffer.from(hash).toString('base64url'),
            signature: Buffer.from(signature).toString('base64url'),
          }
          // '.' and '..' are dot segments a URL resolves away; no device id the service issues is one.
          fc.pre(device_id.length <= 128 && device_id !== '.' && device_id !== '..')
          expect(parseReceiptVerifyUrl(receiptVerifyUrl('https://a.example', fields))).toEqual({
            base: 'https://a.example',
            ...fields,
          })
        },
      ),
      { numRuns: 500 },
    )
  })

  it('answer undefined, never throw, for anything else', () => {
    const good = new URL(receiptVerifyUrl('https://a.example', FIELDS))
    const variants: string[] = [
      '',
      'not a url',
      'https://a.example/',
      'https://a.example/verify/r/',
      `https://a.example/verify/r/${FIELDS.device_id}`,
      `https://a.example/verify/r/${FIELDS.device_id}/42/extra${good.search}`,
      `https://a.example/verify/r/${FIELDS.device_id}/0${good.search}`,
      `https://a.example/verify/r/${FIELDS.device_id}/042${good.search}`,
      `https://a.example/verify/r/${FIELDS.device_id}/-1${good.search}`,
      `https://a.example/verify/r/${FIELDS.device_id}/99999999999999999${good.search}`,
      `https://a.example/verify/r/%E0%A4%A/42${good.search}`,
      `https://a.example/verify/r/${'d'.repeat(129)}/42${good.search}`,
      `https://a.example/verify/x/${FIELDS.device_id}/42${good.search}`,
    ]
    for (const [name, value] of [
      ['h', undefined],
      ['s', undefined],
      ['i', undefined],
      ['h', `${FIELDS.hash}=`],
      ['h', FIELDS.hash.slice(1)],
      ['s', FIELDS.signature.slice(2)],
      ['s', `${FIELDS.signature.slice(0, -1)}+`],
      ['i', 'INV-1'],
      ['i', 'T01-94ND90NR-2026120'],
    ] as const) {
      const url = new URL(good)
      if (value === undefined) url.searchParams.delete(name)
      else url.searchParams.set(name, value)
      variants.push(url.href)
    }
    const twice = new URL(good)
    twice.searchParams.append('h', FIELDS.hash)
    variants.push(twice.href)
    for (const url of variants) expect(parseReceiptVerifyUrl(url), url).toBeUndefined()
    expect(parseReceiptVerifyUrl(good.href)).toBeDefined()
  })
})
