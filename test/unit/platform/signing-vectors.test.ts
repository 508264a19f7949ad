import { describe, expect, it } from 'vitest'
import { areaACanonical, areaBCanonical, hmac, sha256Hex } from '#lib/platform/auth/canonical.ts'
import { signAreaA, signAreaB } from '#client/signing.ts'
import { signingVectors } from '../../support/signing-vectors.ts'

const { areaA, areaB } = signingVectors

describe('signing vectors (docs/signing-vectors.json)', () => {
  it('has the Area A vectors and the three published Area B vectors', () => {
    expect(areaA.map((v) => v.id)).toEqual([
      'A01-post-compact-body',
      'A02-get-empty-body-fraction',
      'A03-get-query-offset',
      'A04-post-utf8-pretty-body',
    ])
    expect(areaB.map((v) => v.id)).toEqual([
      'B01-post-transfer-compact',
      'B03-get-empty-body',
      'B06-get-with-query',
    ])
  })

  it.each(areaA)('$id: body hash, canonical string and signature match byte for byte', (v) => {
    const body = Buffer.from(v.bodyHex, 'hex')
    expect(body.toString('utf8')).toBe(v.body)
    expect(sha256Hex(body)).toBe(v.bodyHash)
    const canonical = areaACanonical({ method: v.method, target: v.path, timestamp: v.timestamp, body })
    expect(canonical).toBe(v.canonical)
    const mac = hmac(v.secret, canonical)
    expect(mac.toString('hex')).toBe(v.signatureHex)
    expect(mac.toString('base64')).toBe(v.signature)
  })

  it.each(areaB)('$id: body hash, canonical string and signature match byte for byte', (v) => {
    const body = Buffer.from(v.bodyHex, 'hex')
    expect(body.toString('utf8')).toBe(v.body)
    expect(sha256Hex(body)).toBe(v.bodyHash)
    const canonical = areaBCanonical({
      method: v.method,
      target: v.path,
      timestamp: v.timestamp,
      nonce: v.nonce!,
      body,
    })
    expect(canonical).toBe(v.canonical)
    const mac = hmac(v.secret, canonical)
    expect(mac.toString('hex')).toBe(v.signatureHex)
    expect(mac.toString('base64')).toBe(v.signature)
  })

  it.each(areaA)('$id: the signing client produces the published headers', (v) => {
    const headers = signAreaA(
      { apiKey: 'any-key', secret: v.secret },
      { method: v.method, target: v.path, body: v.body, timestamp: v.timestamp },
    )
    expect(headers).toEqual({
      'x-api-key': 'any-key',
      'x-api-timestamp': v.timestamp,
      'x-api-signature': v.signature,
    })
  })

  it.each(areaB)('$id: the signing client produces the published headers', (v) => {
    const headers = signAreaB(
      { token: 'any-token', secret: v.secret },
      { method: v.method, target: v.path, body: v.body, timestamp: v.timestamp, nonce: v.nonce! },
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
