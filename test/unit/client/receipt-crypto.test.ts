import {
  createPublicKey,
  generateKeyPairSync,
  type JsonWebKey,
  type KeyObject,
  sign,
  webcrypto,
} from 'node:crypto'
import canonicalize from 'canonicalize'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  canonicalJson,
  genesisHash,
  receiptBytes,
  receiptHash,
  signReceiptBytes,
  verifyReceiptSignature,
  verifySignatureBytes,
} from '#client/receipts/crypto.ts'

/**
 * The receipt's canonical bytes, hash, genesis and signature (CONTRACT 23), the one implementation
 * both the till and the service use: RFC 8785 held to the RFC's own examples and to the `canonicalize`
 * package on generated values, the hashes to vectors computed outside Node (Python's hashlib), and
 * the signatures to RFC 8032's vector and to WebCrypto's ES256 (r || s).
 */

describe('canonicalJson (RFC 8785)', () => {
  it('writes the RFC 8785 example of section 3.2.2', () => {
    const input = JSON.parse(
      '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],' +
        ' "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/",' +
        ' "literals": [null, true, false]}',
    )
    expect(canonicalJson(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],' +
        '"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    )
  })

  it('sorts members by UTF-16 code units (the example of section 3.2.3)', () => {
    const input = JSON.parse(
      '{"\\u20ac": "Euro Sign", "\\r": "Carriage Return", "\\ufb33": "Hebrew Letter Dalet With Dagesh",' +
        ' "1": "One", "\\ud83d\\ude00": "Emoji: Grinning Face", "\\u0080": "Control",' +
        ' "\\u00f6": "Latin Small Letter O With Diaeresis"}',
    )
    // JSON.parse would put "1" first whatever the text says: the order is read from the text itself.
    const written = [...canonicalJson(input).matchAll(/"([^"]*)":/g)].map((m) => m[1])
    expect(written).toEqual(['\\r', '1', '\u0080', 'ö', '€', '😀', '\ufb33'])
  })

  it('writes numbers as ECMAScript does (the IEEE 754 examples of appendix B)', () => {
    const cases: [string, string][] = [
      ['0000000000000000', '0'],
      ['8000000000000000', '0'],
      ['0000000000000001', '5e-324'],
      ['8000000000000001', '-5e-324'],
      ['7fefffffffffffff', '1.7976931348623157e+308'],
      ['ffefffffffffffff', '-1.7976931348623157e+308'],
      ['4340000000000000', '9007199254740992'],
      ['c340000000000000', '-9007199254740992'],
      ['4430000000000000', '295147905179352830000'],
      ['44b52d02c7e14af5', '9.999999999999997e+22'],
      ['44b52d02c7e14af6', '1e+23'],
      ['44b52d02c7e14af7', '1.0000000000000001e+23'],
      ['444b1ae4d6e2ef4e', '999999999999999700000'],
      ['444b1ae4d6e2ef4f', '999999999999999900000'],
      ['444b1ae4d6e2ef50', '1e+21'],
      ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
      ['3eb0c6f7a0b5ed8d', '0.000001'],
      ['41b3de4355555553', '333333333.3333332'],
      ['41b3de4355555554', '333333333.33333325'],
      ['41b3de4355555555', '333333333.3333333'],
      ['41b3de4355555556', '333333333.3333334'],
      ['41b3de4355555557', '333333333.33333343'],
      ['becbf647612f3696', '-0.0000033333333333333333'],
      ['43143ff3c1cb0959', '1424953923781206.2'],
    ]
    for (const [bits, text] of cases) {
      const number = Buffer.from(bits, 'hex').readDoubleBE(0)
      expect(canonicalJson(number), bits).toBe(text)
    }
  })

  it('agrees with the canonicalize package on generated JSON values', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'grapheme' }), (value) => {
        expect(canonicalJson(value)).toBe(canonicalize(value))
      }),
      { numRuns: 1000 },
    )
    fc.assert(
      fc.property(fc.dictionary(fc.string({ unit: 'binary' }), fc.jsonValue()), (value) => {
        expect(canonicalJson(value)).toBe(canonicalize(value))
      }),
      { numRuns: 500 },
    )
  })

  it('leaves out members whose value is undefined and writes toJSON values, as JSON.stringify does', () => {
    expect(canonicalJson({ b: 1, a: undefined })).toBe('{"b":1}')
    expect(canonicalJson({ at: new Date('2026-12-02T08:15:00Z') })).toBe('{"at":"2026-12-02T08:15:00.000Z"}')
  })

  it('refuses what is not JSON data, as RFC 8785 requires, with a TypeError', () => {
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    for (const value of [
      undefined,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      10n,
      () => 1,
      Symbol('s'),
      '\ud800',
      { a: 'x\udc00' },
      { '\ud83d': 1 },
      [undefined],
      cyclic,
    ]) {
      expect(() => canonicalJson(value), String(typeof value)).toThrow(TypeError)
    }
    // A surrogate pair is one code point and is written as itself.
    expect(canonicalJson('\ud83d\ude00')).toBe('"😀"')
    // The same object twice (not a cycle) is data.
    const shared = { x: 1 }
    expect(canonicalJson([shared, shared])).toBe('[{"x":1},{"x":1}]')
  })
})

/** A receipt whose canonical JSON and hash were computed with Python (json.dumps sorted, hashlib). */
const RECEIPT = {
  irn: 'INV001-94ND90NR-20240611',
  note: 'Café €',
  invoice_kind: 'B2C',
  legal_monetary_total: { payable_amount: 1075.5 },
  device: {
    device_id: 'dev_01HZX',
    counter: 1,
    prev_hash: 'fO6bffHEfQfQZRry1KRF9CkqhWd06IOdk-PMjfr4s4I',
    issued_at: '2026-12-02T08:15:00+01:00',
  },
}
const RECEIPT_JSON =
  '{"device":{"counter":1,"device_id":"dev_01HZX","issued_at":"2026-12-02T08:15:00+01:00",' +
  '"prev_hash":"fO6bffHEfQfQZRry1KRF9CkqhWd06IOdk-PMjfr4s4I"},"invoice_kind":"B2C",' +
  '"irn":"INV001-94ND90NR-20240611","legal_monetary_total":{"payable_amount":1075.5},"note":"Café €"}'

describe('receiptBytes, receiptHash and genesisHash', () => {
  it('are the UTF-8 of the canonical JSON without signature, and its SHA-256 in base64url', () => {
    expect(Buffer.from(receiptBytes(RECEIPT)).toString('utf8')).toBe(RECEIPT_JSON)
    expect(receiptHash(RECEIPT)).toBe('274ypMOHUkZ6ZbemFd0gmLdIDu67d8xJNRHaQKXZWd4')
    // The signature is no part of the bytes, and member order is not either.
    const reordered = Object.fromEntries(Object.entries({ ...RECEIPT, signature: 'x' }).reverse())
    expect(receiptHash(reordered)).toBe(receiptHash(RECEIPT))
    expect(receiptHash({ ...RECEIPT, note: 'Cafe €' })).not.toBe(receiptHash(RECEIPT))
  })

  it('encode the genesis as every other hash: base64url of SHA-256 of the UTF-8 device id', () => {
    expect(genesisHash('dev_01HZX')).toBe('fO6bffHEfQfQZRry1KRF9CkqhWd06IOdk-PMjfr4s4I')
    expect(genesisHash('0193a6d2-5f3c-7b61-9a1e-2c4d8e0f1a2b')).toBe(
      '1IOdgU7rV7wgqNQWVgTDlRG5_WaLl0TQ8BL9vSVLad8',
    )
    expect(genesisHash('é')).toBe('SplVfkAzw1Od4utlRyAXytX5VX96BiWgnxw_biumnEw')
    for (const hash of [genesisHash('d'), receiptHash(RECEIPT)]) expect(hash).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })
})

const keyPairs = {
  Ed25519: generateKeyPairSync('ed25519'),
  'P-256': generateKeyPairSync('ec', { namedCurve: 'P-256' }),
}
const jwkOf = (key: KeyObject): JsonWebKey => key.export({ format: 'jwk' })

describe('signReceiptBytes and verifyReceiptSignature', () => {
  it("reproduce RFC 8032's first Ed25519 vector", () => {
    const d = Buffer.from('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'hex')
    const x = Buffer.from('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a', 'hex')
    const jwk = { kty: 'OKP', crv: 'Ed25519', d: d.toString('base64url'), x: x.toString('base64url') }
    const signature = signReceiptBytes(new Uint8Array(), jwk)
    expect(Buffer.from(signature, 'base64url').toString('hex')).toBe(
      'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
    )
    expect(verifySignatureBytes(new Uint8Array(), signature, { kty: 'OKP', crv: 'Ed25519', x: jwk.x })).toBe(
      true,
    )
  })

  it('write ES256 as JWS does (r || s, 64 bytes), which WebCrypto verifies', async () => {
    const { privateKey, publicKey } = keyPairs['P-256']
    const bytes = receiptBytes(RECEIPT)
    const signature = signReceiptBytes(bytes, privateKey)
    expect(Buffer.from(signature, 'base64url')).toHaveLength(64)
    const key = await webcrypto.subtle.importKey(
      'jwk',
      jwkOf(publicKey),
      { name: 'ECDSA', namedCurve: 'P-256' },
      false,
      ['verify'],
    )
    const ok = await webcrypto.subtle.verify(
      { name: 'ECDSA', hash: 'SHA-256' },
      key,
      Buffer.from(signature, 'base64url'),
      bytes,
    )
    expect(ok).toBe(true)
  })

  for (const [name, { privateKey, publicKey }] of Object.entries(keyPairs)) {
    it(`sign and verify a receipt with ${name}, from a KeyObject or a JWK`, () => {
      const publicJwk = jwkOf(publicKey)
      for (const key of [privateKey, jwkOf(privateKey)]) {
        const signed = { ...RECEIPT, signature: signReceiptBytes(receiptBytes(RECEIPT), key) }
        expect(signed.signature).toMatch(/^[A-Za-z0-9_-]{86}$/)
        expect(verifyReceiptSignature(signed, publicJwk)).toBe(true)
        // Any change to the signed content, or another device's key, fails.
        expect(verifyReceiptSignature({ ...signed, note: 'Cafe €' }, publicJwk)).toBe(false)
        const other = name === 'Ed25519' ? keyPairs['P-256'] : keyPairs.Ed25519
        expect(verifyReceiptSignature(signed, jwkOf(other.publicKey))).toBe(false)
        const same =
          name === 'Ed25519'
            ? generateKeyPairSync('ed25519')
            : generateKeyPairSync('ec', { namedCurve: 'P-256' })
        expect(verifyReceiptSignature(signed, jwkOf(same.publicKey))).toBe(false)
      }
    })
  }

  it('answer false, never throw, for a malformed signature, key or receipt', () => {
    const { privateKey, publicKey } = keyPairs['P-256']
    const publicJwk = jwkOf(publicKey)
    const bytes = receiptBytes(RECEIPT)
    const good = signReceiptBytes(bytes, privateKey)
    const der = sign('sha256', bytes, privateKey).toString('base64url')
    const raw = Buffer.from(good, 'base64url')
    const lastBitsSet =
      good.slice(0, -1) +
      'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'[
        'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.indexOf(good.at(-1)!) ^ 1
      ]!
    const badSignatures: unknown[] = [
      undefined,
      null,
      42,
      '',
      der,
      `${good}==`,
      good.slice(0, -2),
      `${good}AA`,
      raw.toString('base64'),
      good
        .replaceAll('-', '+')
        .replaceAll('_', '/')
        .replace(/[^A-Za-z0-9+/]/, '!'),
      Buffer.alloc(64).toString('base64url'),
      lastBitsSet,
    ]
    for (const signature of badSignatures) {
      expect(verifyReceiptSignature({ ...RECEIPT, signature }, publicJwk), String(signature)).toBe(false)
    }
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey
    const secp256k1 = generateKeyPairSync('ec', { namedCurve: 'secp256k1' }).publicKey
    const badKeys: unknown[] = [
      undefined,
      null,
      'key',
      {},
      jwkOf(rsa),
      jwkOf(secp256k1),
      { ...publicJwk, crv: 'P-384' },
      { ...publicJwk, kty: 'OKP' },
      { kty: 'EC', crv: 'P-256', x: publicJwk.x },
      { ...publicJwk, x: 'not base64url!' },
      { ...publicJwk, x: publicJwk.y },
      { kty: 'OKP', crv: 'Ed25519', x: 'AAAA' },
      { kty: 'OKP', crv: 'Ed448', x: jwkOf(keyPairs.Ed25519.publicKey).x },
      createPublicKey(privateKey),
    ]
    for (const key of badKeys) {
      expect(
        verifyReceiptSignature({ ...RECEIPT, signature: good }, key as JsonWebKey),
        JSON.stringify(key),
      ).toBe(false)
    }
    // A receipt that is not JSON data has no bytes: false, not a throw.
    expect(verifyReceiptSignature({ ...RECEIPT, n: Number.NaN, signature: good }, publicJwk)).toBe(false)
    expect(verifyReceiptSignature(null as unknown as object, publicJwk)).toBe(false)
    expect(verifyReceiptSignature({ ...RECEIPT, signature: good }, publicJwk)).toBe(true)
  })

  it('refuse to sign with a key of another kind', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey
    expect(() => signReceiptBytes(new Uint8Array(), rsa)).toThrow(/neither Ed25519 nor P-256/)
  })
})
