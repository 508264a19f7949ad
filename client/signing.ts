import { createHash, createHmac, randomBytes } from 'node:crypto'

/**
 * Request signing (CONTRACT sections 2 and 6): the canonical strings, the HMAC and the headers of
 * Area A (`x-api-key`, `x-api-timestamp`, `x-api-signature`) and Area B (`Authorization`,
 * `X-Timestamp`, `X-Nonce`, `X-Signature`). The ONE implementation: the service's verifiers
 * (lib/platform/auth/canonical.ts) and its own signed webhook deliveries import it from here, so a
 * client and the service cannot sign differently. Node built-ins only (this file ships in the
 * `@ng-einvoicing/client` package). Known-answer vectors: docs/signing-vectors.json.
 */

/** What both canonical strings are made of. The target is the request target exactly as sent. */
export interface SignedRequest {
  method: string
  /** Raw path plus `?` and the raw query string when there is one: no decoding, no normalising. */
  target: string
  timestamp: string
  /** The exact bytes sent (a string is taken as its UTF-8 bytes); an empty body hashes zero bytes. */
  body: Uint8Array | string
}

/** Lower-case hex SHA-256 of the body bytes. */
export function sha256Hex(body: Uint8Array | string): string {
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

export interface AreaACredentials {
  apiKey: string
  secret: string
}

export interface AreaBCredentials {
  /** The switch's bearer token, sent as `Authorization: Bearer <token>`. */
  token: string
  secret: string
}

export interface RequestToSign {
  method: string
  /** Path plus `?query` exactly as sent, e.g. `/api/v1/si/validate`. */
  target: string
  /** The exact body that will be sent (none for a GET). */
  body?: Uint8Array | string
  /** Defaults to now. */
  timestamp?: string
}

/** The three Area A headers for a request. */
export function signAreaA(credentials: AreaACredentials, request: RequestToSign): Record<string, string> {
  const timestamp = request.timestamp ?? new Date().toISOString()
  const canonical = areaACanonical({
    method: request.method.toUpperCase(),
    target: request.target,
    timestamp,
    body: request.body ?? '',
  })
  return {
    'x-api-key': credentials.apiKey,
    'x-api-timestamp': timestamp,
    'x-api-signature': hmac(credentials.secret, canonical).toString('base64'),
  }
}

/** A fresh nonce of the contract's form: 32 URL-safe characters. */
export const newNonce = (): string => randomBytes(24).toString('base64url')

/** The Area B headers for a request (with `content-type` and `accept`, which the switch sends). */
export function signAreaB(
  credentials: AreaBCredentials,
  request: RequestToSign & { nonce?: string },
): Record<string, string> {
  // Area B timestamps are UTC with Z and whole seconds, as the switch's samples show.
  const timestamp = request.timestamp ?? `${new Date().toISOString().slice(0, 19)}Z`
  const nonce = request.nonce ?? newNonce()
  const canonical = areaBCanonical({
    method: request.method.toUpperCase(),
    target: request.target,
    timestamp,
    nonce,
    body: request.body ?? '',
  })
  return {
    authorization: `Bearer ${credentials.token}`,
    'x-timestamp': timestamp,
    'x-nonce': nonce,
    'x-signature': hmac(credentials.secret, canonical).toString('base64'),
    'content-type': 'application/json',
    accept: 'application/json',
  }
}
