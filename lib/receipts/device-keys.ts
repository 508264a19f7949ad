import { createHash, createPublicKey } from 'node:crypto'
import type { Problem } from '#lib/platform/errors.ts'
import type { DevicePublicKey } from './records.ts'

/**
 * A device's public key as registered (CONTRACT 23): a public JWK, Ed25519 (`OKP`) or P-256 (`EC`).
 * A JWK carrying its private part (`d`) is refused, never stored: the key it shows is compromised.
 */

const B64URL_32 = /^[A-Za-z0-9_-]{43}$/

const keyProblem = (path: string, message: string): Problem => ({
  path: `public_key${path ? `/${path}` : ''}`,
  code: 'INVALID_DEVICE_KEY',
  message,
})

/** The key's public members, or the problems that refuse it. */
export function parseDeviceKey(
  jwk: Record<string, unknown>,
): { ok: true; key: DevicePublicKey } | { ok: false; problems: Problem[] } {
  if ('d' in jwk) {
    return {
      ok: false,
      problems: [
        keyProblem(
          'd',
          'This JWK holds the private key: register the public half only (drop `d`), and replace the key, since it has left the device',
        ),
      ],
    }
  }
  const coordinate = (name: string) =>
    typeof jwk[name] === 'string' && B64URL_32.test(jwk[name] as string)
      ? undefined
      : keyProblem(name, `${name} must be base64url (no padding) of 32 bytes`)
  let key: DevicePublicKey
  if (jwk.kty === 'OKP') {
    if (jwk.crv !== 'Ed25519')
      return { ok: false, problems: [keyProblem('crv', 'An OKP key must be crv Ed25519')] }
    const bad = coordinate('x')
    if (bad) return { ok: false, problems: [bad] }
    key = { kty: 'OKP', crv: 'Ed25519', x: jwk.x as string }
  } else if (jwk.kty === 'EC') {
    if (jwk.crv !== 'P-256')
      return { ok: false, problems: [keyProblem('crv', 'An EC key must be crv P-256')] }
    const bad = [coordinate('x'), coordinate('y')].filter((p): p is Problem => p !== undefined)
    if (bad.length) return { ok: false, problems: bad }
    key = { kty: 'EC', crv: 'P-256', x: jwk.x as string, y: jwk.y as string }
  } else {
    return { ok: false, problems: [keyProblem('kty', 'kty must be OKP (Ed25519) or EC (P-256)')] }
  }
  try {
    // Node checks that the point is on the curve: a key no signature could ever match is refused now.
    createPublicKey({ key, format: 'jwk' })
  } catch {
    return { ok: false, problems: [keyProblem('', 'The key is not a valid point of its curve')] }
  }
  return { ok: true, key }
}

/** RFC 7638: SHA-256 of the required members in lexicographic order, no whitespace; base64url. */
export function jwkThumbprint(key: DevicePublicKey): string {
  const members =
    key.kty === 'OKP'
      ? `{"crv":"${key.crv}","kty":"${key.kty}","x":"${key.x}"}`
      : `{"crv":"${key.crv}","kty":"${key.kty}","x":"${key.x}","y":"${key.y}"}`
  return createHash('sha256').update(members, 'utf8').digest('base64url')
}
