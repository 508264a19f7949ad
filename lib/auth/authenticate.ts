import type { AuthScheme, Route } from '#lib/routes.ts'
import type { Caller } from './caller.ts'

/** What every auth scheme gets to look at: the request exactly as received. */
export interface AuthRequest {
  route: Route
  method: string
  /** The request target as sent: raw path plus `?` and the raw query string when there is one. */
  target: string
  /** Lower-cased header names. */
  headers: Record<string, string | undefined>
  rawBody: Buffer
}

/**
 * One auth scheme's check: establishes the caller or throws the scheme's 401/403. A handler module
 * names the one verifier its routes use (see apiHandler), so a function bundles that scheme's code
 * only: the HMAC schemes open encrypted secrets and bring the Encryption SDK, the bearer schemes
 * do not.
 */
export interface Verifier {
  scheme: AuthScheme
  verify(request: AuthRequest): Promise<Caller>
}

/** Routes anyone may call (the public keys, the OpenAPI document, the catch-all). */
export const noAuth: Verifier = {
  scheme: 'none',
  verify: async () => ({ scheme: 'none' }),
}
