import { timingSafeEqual } from 'node:crypto'
import type { ClientSecret } from './credentials.ts'
import { hmac } from './canonical.ts'

/**
 * True if the signature matches the canonical string under any of the client's active secrets. Every
 * secret is tried (no early exit) and each comparison is constant time, so timing says nothing about
 * which secret or how many bytes matched.
 */
export function matchesAnySecret(
  secrets: readonly ClientSecret[],
  canonical: string,
  signature: Buffer,
): boolean {
  let matched = false
  for (const { secret } of secrets) {
    const expected = hmac(secret, canonical)
    if (expected.length === signature.length && timingSafeEqual(expected, signature)) matched = true
  }
  return matched
}
