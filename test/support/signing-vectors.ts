import { readFileSync } from 'node:fs'

/**
 * The published known-answer signing vectors (docs/signing-vectors.json): Area A made for this
 * project, Area B the worked examples the switch operator published with the contract, copied
 * unchanged. One reader for the tests that hold the client, its examples and the service's verifiers
 * to them.
 */
export interface SigningVector {
  id: string
  secret: string
  method: string
  path: string
  timestamp: string
  nonce?: string
  body: string
  bodyHex: string
  bodyHash: string
  canonical: string
  signature: string
  signatureHex: string
}

export const signingVectors = JSON.parse(
  readFileSync(new URL('../../docs/signing-vectors.json', import.meta.url), 'utf8'),
) as { areaA: SigningVector[]; areaB: SigningVector[] }
