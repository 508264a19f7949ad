import { createHash, type KeyObject } from 'node:crypto'

/** One key of the JWKS at GET /api/v1/resource/public-keys (RFC 8037 for Ed25519). */
export interface PublicJwk {
  kty: 'OKP'
  crv: 'Ed25519'
  /** The raw 32-byte public key, base64url. */
  x: string
  kid: string
  use: 'sig'
  alg: 'EdDSA'
}

/**
 * RFC 7638 thumbprint: SHA-256 over the required members in lexicographic order, base64url. Anyone
 * can recompute it from the key itself, so a kid cannot be made to name a different key.
 */
export function jwkThumbprint(jwk: { crv: string; kty: string; x: string }): string {
  const members = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x })
  return createHash('sha256').update(members).digest('base64url')
}

export function publicJwkOf(publicKey: KeyObject): PublicJwk {
  const { crv, kty, x } = publicKey.export({ format: 'jwk' })
  if (kty !== 'OKP' || crv !== 'Ed25519' || !x) throw new Error('The signing key must be an Ed25519 key')
  return { kty: 'OKP', crv: 'Ed25519', x, kid: jwkThumbprint({ crv, kty, x }), use: 'sig', alg: 'EdDSA' }
}
