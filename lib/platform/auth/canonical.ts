/**
 * The signed strings of CONTRACT sections 2 and 6 and their HMAC, which the verifiers check. They are
 * the client's own (client/signing.ts, shipped as the `@ng-einvoicing/client` package): one
 * implementation, so a client and the service can never disagree. The target is the request target
 * exactly as sent (raw path plus `?` and raw query string), and the body hash is over the exact bytes
 * sent. Only the strict decoding of a received signature is the verifiers' alone.
 */
export { areaACanonical, areaBCanonical, hmac, sha256Hex } from '#client/signing.ts'

/** Standard padded Base64 of exactly 32 bytes: 43 characters then `=`, nothing lenient. */
const STRICT_BASE64_32 = /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/

/** Decodes a signature header strictly, or returns undefined (url-safe, unpadded, wrong length...). */
export function decodeSignature(value: string): Buffer | undefined {
  if (!STRICT_BASE64_32.test(value)) return undefined
  return Buffer.from(value, 'base64')
}
