import { randomBytes } from 'node:crypto'
import { areaACanonical, areaBCanonical, hmac } from './canonical.ts'

/**
 * Signing a request: the headers of CONTRACT sections 2 and 6 for a request given its method, target
 * (path plus query, exactly as it will be sent) and body, made from the same canonical strings the
 * verifiers check (./canonical.ts). The service signs its own webhook deliveries with `signAreaB`
 * (lib/webhooks/party-post.ts); integrators and the project's tests take these from client/signing.ts.
 */

export interface AreaACredentials {
  apiKey: string
  secret: string
}

export interface AreaBCredentials {
  token: string
  secret: string
}

export interface RequestToSign {
  method: string
  /** Path plus `?query` exactly as sent, e.g. `/api/v1/si/validate`. */
  target: string
  body?: string | Buffer
  /** Defaults to now. */
  timestamp?: string
}

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
export const newNonce = () => randomBytes(24).toString('base64url')

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
