import type { Route } from '#lib/routes.ts'
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
 * Establishes the caller for the route's auth scheme, or throws the scheme's 401/403. The schemes
 * themselves are the authentication issue's work; until then every route is let through as the
 * anonymous caller, with its final scheme already named in the route table.
 */
export async function authenticate(request: AuthRequest): Promise<Caller> {
  if (request.route.auth === 'none') return { scheme: 'none' }
  return { scheme: 'anonymous' }
}
