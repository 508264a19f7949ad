import {
  createHash,
  createPrivateKey,
  createPublicKey,
  type JsonWebKey,
  KeyObject,
  sign,
  verify,
} from 'node:crypto'

/**
 * The receipt's bytes, hash, genesis and signature (CONTRACT 23). This module is the one
 * implementation of them: the till signs with it (ReceiptChain) and the service checks with it (it
 * imports these functions from the client package), so the two sides cannot drift apart, which is
 * the first class of errors integrators of device-signed receipts report.
 */

/** A value that is not I-JSON (RFC 7493): RFC 8785 says such input must fail, not be written somehow. */
function notJson(what: string): never {
  throw new TypeError(`canonicalJson: ${what} is not JSON data`)
}

/** With the u flag a surrogate pair is one code point, so this matches only a surrogate alone. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u

function write(value: unknown, seen: Set<object>): string {
  switch (typeof value) {
    case 'string':
      // A lone surrogate has no UTF-8 form; RFC 8785 (3.2.2.2) requires a failure.
      if (LONE_SURROGATE.test(value)) notJson('a string with a lone surrogate')
      return JSON.stringify(value)
    case 'number':
      if (!Number.isFinite(value)) notJson(String(value))
      // ECMAScript's Number-to-String, which is exactly RFC 8785's number form (-0 writes 0).
      return JSON.stringify(value)
    case 'boolean':
      return value ? 'true' : 'false'
    case 'object': {
      if (value === null) return 'null'
      if (seen.has(value)) notJson('a cyclic value')
      // A Date (or anything with toJSON) is written as JSON.stringify writes it.
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function')
        return write((value as { toJSON: () => unknown }).toJSON(), seen)
      seen.add(value)
      let out: string
      if (Array.isArray(value)) {
        out = `[${value.map((item) => (item === undefined ? notJson('undefined in an array') : write(item, seen))).join(',')}]`
      } else {
        // The default sort compares UTF-16 code units, RFC 8785's order (3.2.3). A member whose value
        // is undefined is left out, as JSON.stringify leaves it out.
        const members: string[] = []
        for (const name of Object.keys(value).sort()) {
          const member = (value as Record<string, unknown>)[name]
          if (member === undefined) continue
          members.push(`${write(name, seen)}:${write(member, seen)}`)
        }
        out = `{${members.join(',')}}`
      }
      seen.delete(value)
      return out
    }
    default:
      return notJson(typeof value)
  }
}

/**
 * RFC 8785 (JSON Canonicalization Scheme) JSON of a value: members sorted by UTF-16 code units, no
 * whitespace, strings and numbers as ECMAScript's JSON.stringify writes them. Throws a TypeError for
 * what is not JSON data (undefined, a function, a bigint, NaN or an infinity, a lone surrogate, a cycle).
 */
export function canonicalJson(value: unknown): string {
  return write(value, new Set())
}

/** The bytes a receipt's hash and signature are over: the UTF-8 of its RFC 8785 JSON without `signature`. */
export function receiptBytes(receipt: object): Uint8Array {
  const { signature: _signature, ...signed } = receipt as Record<string, unknown>
  return Buffer.from(canonicalJson(signed), 'utf8')
}

/** base64url (no padding) of SHA-256: the one hash encoding of receipts, the genesis included. */
const sha256Url = (bytes: Uint8Array | string): string =>
  createHash('sha256').update(bytes).digest('base64url')

/** The receipt's hash: base64url (no padding) of SHA-256 of receiptBytes. */
export function receiptHash(receipt: object): string {
  return sha256Url(receiptBytes(receipt))
}

/**
 * The `prev_hash` of a device's first receipt: base64url of SHA-256 of the UTF-8 device id, encoded as
 * every other link is (a genesis with an encoding of its own is a known trap of other systems).
 */
export function genesisHash(deviceId: string): string {
  return sha256Url(Buffer.from(deviceId, 'utf8'))
}

/** Which of the two receipt algorithms a key is for, or undefined for any other key. */
function algorithmOf(key: KeyObject): 'Ed25519' | 'ES256' | undefined {
  if (key.asymmetricKeyType === 'ed25519') return 'Ed25519'
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return 'ES256'
  return undefined
}

/**
 * A device's signature over a receipt's bytes, base64url: Ed25519, or ES256 as JWS writes it (r || s,
 * 64 bytes, not DER). Throws for a key of any other kind: that is the till's own configuration error.
 */
export function signReceiptBytes(bytes: Uint8Array, privateKey: KeyObject | JsonWebKey): string {
  const keyObject =
    privateKey instanceof KeyObject ? privateKey : createPrivateKey({ key: privateKey, format: 'jwk' })
  const algorithm = algorithmOf(keyObject)
  if (algorithm === undefined) throw new TypeError('signReceiptBytes: the key is neither Ed25519 nor P-256')
  const signature =
    algorithm === 'Ed25519'
      ? sign(null, bytes, keyObject)
      : sign('sha256', bytes, { key: keyObject, dsaEncoding: 'ieee-p1363' })
  return signature.toString('base64url')
}

/** Both algorithms' signatures are 64 bytes: 86 base64url characters, no padding. */
const SIGNATURE = /^[A-Za-z0-9_-]{86}$/

/** The public key of a device's JWK, only its public members read; undefined when it is not one. */
function publicKeyOf(jwk: unknown): KeyObject | undefined {
  if (typeof jwk !== 'object' || jwk === null) return undefined
  const { kty, crv, x, y } = jwk as Record<string, unknown>
  if (typeof x !== 'string') return undefined
  if (kty === 'OKP' && crv === 'Ed25519') return createPublicKey({ key: { kty, crv, x }, format: 'jwk' })
  if (kty === 'EC' && crv === 'P-256' && typeof y === 'string')
    return createPublicKey({ key: { kty, crv, x, y }, format: 'jwk' })
  return undefined
}

/**
 * Whether `signature` is the device's signature over `bytes`. Never throws: a signature of the wrong
 * length or alphabet, a key that is not an Ed25519 or P-256 public JWK, anything malformed, answers false.
 */
export function verifySignatureBytes(bytes: Uint8Array, signature: unknown, publicJwk: unknown): boolean {
  try {
    if (typeof signature !== 'string' || !SIGNATURE.test(signature)) return false
    const raw = Buffer.from(signature, 'base64url')
    // The last character carries 2 unused bits: only the form signReceiptBytes writes is accepted.
    if (raw.length !== 64 || raw.toString('base64url') !== signature) return false
    const key = publicKeyOf(publicJwk)
    const algorithm = key && algorithmOf(key)
    if (!key || !algorithm) return false
    return algorithm === 'Ed25519'
      ? verify(null, bytes, key, raw)
      : verify('sha256', bytes, { key, dsaEncoding: 'ieee-p1363' }, raw)
  } catch {
    return false
  }
}

/**
 * Whether a receipt's `signature` is its device's signature over receiptBytes(receipt). Never throws:
 * anything malformed (the receipt, the signature, the key) answers false.
 */
export function verifyReceiptSignature(receipt: object, publicJwk: JsonWebKey): boolean {
  try {
    const signature = (receipt as { signature?: unknown }).signature
    return verifySignatureBytes(receiptBytes(receipt), signature, publicJwk)
  } catch {
    return false
  }
}
