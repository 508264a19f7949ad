import type { AuthScheme, Route } from '#lib/platform/http/route.ts'
import type { Caller, PublicCaller } from './caller.ts'

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
 * One auth scheme's check: establishes the caller or throws the scheme's 401/403. Typed by the scheme
 * and by the caller it yields, so a handler built with it receives that caller, already narrowed. A
 * handler module names the one verifier its routes use (see apiHandler), so a function bundles that
 * scheme's code only: the HMAC schemes open encrypted secrets and bring the Encryption SDK, the
 * bearer schemes do not.
 */
export interface Verifier<S extends AuthScheme = AuthScheme, C extends Caller = Caller> {
  scheme: S
  verify(request: AuthRequest): Promise<C>
}

/** Routes anyone may call (the public keys, the OpenAPI document, the catch-all). */
export const noAuth: Verifier<'none', PublicCaller> = {
  scheme: 'none',
  verify: async () => ({ scheme: 'none' }),
}
