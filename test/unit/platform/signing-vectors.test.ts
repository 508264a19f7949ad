import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { areaBCanonical, hmac, sha256Hex } from '#lib/platform/auth/canonical.ts'
import { signAreaB } from '#client/signing.ts'

interface Vector {
  id: string
  secret: string
  method: string
  path: string
  timestamp: string
  nonce: string
  body: string
  bodyHex: string
  bodyHash: string
  canonical: string
  signature: string
  signatureHex: string
}

// The worked Area B examples the switch operator published with the contract.
const vectors: Vector[] = JSON.parse(
  readFileSync(new URL('../../fixtures/signing-vectors.json', import.meta.url), 'utf8'),
)

describe('Area B signing vectors', () => {
  it('has the three published vectors', () => {
    expect(vectors.map((v) => v.id)).toEqual([
      'B01-post-transfer-compact',
      'B03-get-empty-body',
      'B06-get-with-query',
    ])
  })

  it.each(vectors)('$id: body hash, canonical string and signature match byte for byte', (v) => {
    const body = Buffer.from(v.bodyHex, 'hex')
    expect(body.toString('utf8')).toBe(v.body)
    expect(sha256Hex(body)).toBe(v.bodyHash)
    const canonical = areaBCanonical({
      method: v.method,
      target: v.path,
      timestamp: v.timestamp,
      nonce: v.nonce,
      body,
    })
    expect(canonical).toBe(v.canonical)
    const mac = hmac(v.secret, canonical)
    expect(mac.toString('hex')).toBe(v.signatureHex)
    expect(mac.toString('base64')).toBe(v.signature)
  })

  it.each(vectors)('$id: the signing client produces the published headers', (v) => {
    const headers = signAreaB(
      { token: 'any-token', secret: v.secret },
      { method: v.method, target: v.path, body: v.body, timestamp: v.timestamp, nonce: v.nonce },
    )
    expect(headers).toEqual({
      authorization: 'Bearer any-token',
      'x-timestamp': v.timestamp,
      'x-nonce': v.nonce,
      'x-signature': v.signature,
      'content-type': 'application/json',
      accept: 'application/json',
    })
  })
})
