import { createHash, createHmac } from 'node:crypto'

/**
 * The signed strings of CONTRACT sections 2 and 6, shared by the verifiers and by the signing client
 * so the two can never disagree. The target is the request target exactly as sent (raw path plus
 * `?` and raw query string), and the body hash is over the exact bytes sent.
 */
export interface SignedRequest {
  method: string
  target: string
  timestamp: string
  body: Buffer | string
}

export function sha256Hex(body: Buffer | string): string {
  return createHash('sha256').update(body).digest('hex')
}

/** Area A: METHOD, target, x-api-timestamp, body hash; joined by `\n`, no trailing newline. */
export function areaACanonical(request: SignedRequest): string {
  return [request.method, request.target, request.timestamp, sha256Hex(request.body)].join('\n')
}

/** Area B: METHOD, target, X-Timestamp, X-Nonce, body hash; joined by `\n`, no trailing newline. */
export function areaBCanonical(request: SignedRequest & { nonce: string }): string {
  return [request.method, request.target, request.timestamp, request.nonce, sha256Hex(request.body)].join(
    '\n',
  )
}

/** HMAC-SHA256 of the canonical string with the secret's UTF-8 bytes: the raw 32 bytes. */
export function hmac(secret: string, canonical: string): Buffer {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(canonical, 'utf8').digest()
}

/** Standard padded Base64 of exactly 32 bytes: 43 characters then `=`, nothing lenient. */
const STRICT_BASE64_32 = /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/

/** Decodes a signature header strictly, or returns undefined (url-safe, unpadded, wrong length...). */
export function decodeSignature(value: string): Buffer | undefined {
  if (!STRICT_BASE64_32.test(value)) return undefined
  return Buffer.from(value, 'base64')
}
