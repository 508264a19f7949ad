import { type DomainError, statusOf } from '#lib/platform/errors.ts'
import { logger } from '#lib/platform/log.ts'
import { type Caller, callerLabel } from './caller.ts'
import type { AuthRequest } from './authenticate.ts'

/**
 * Why a request was refused, as a stable code an operator can count and alert on. The reply's
 * message says the same to the client in words; the log line says it as one of these codes.
 */
export const REFUSAL_REASONS = [
  /** A credential header (or the bearer token) is missing. */
  'missing_credentials',
  /** The API key or bearer token is not one the service issued. */
  'unknown_key',
  /** The API key was issued and then revoked. */
  'revoked_key',
  /** The timestamp is not a date-time of the scheme's form. */
  'malformed_timestamp',
  /** The timestamp is more than 300.000 s from the server clock. */
  'timestamp_out_of_window',
  /** The signature is not standard padded Base64 of 32 bytes, or the nonce is not of its form. */
  'malformed_signature',
  /** The signature does not match the request under any of the client's secrets. */
  'signature_mismatch',
  /** A signed request (Area A signature, Area B nonce) received a second time. */
  'replay',
  /** A valid client calling a route its roles do not allow. */
  'role_forbidden',
  /** Area C: x-Merchant-Id names another merchant than the token's. */
  'merchant_mismatch',
  /** A live credential on a route of test mode only (the sandbox's clocks, lib/platform/test-clock.ts). */
  'mode_forbidden',
] as const
export type RefusalReason = (typeof REFUSAL_REASONS)[number]

/**
 * Logs a refusal with its reason code and who presented it (callerLabel), and hands the error back to be thrown,
 * carrying the reason.
 * Never the secret, the signature or the token: an API key as its fingerprint, and for bearer
 * schemes the id the token stands for, once known, never the token itself.
 */
export function refused<E extends DomainError>(
  request: Pick<AuthRequest, 'route'>,
  reason: RefusalReason,
  error: E,
  keyId?: string,
): E & { reason: RefusalReason; caller: string } {
  const caller = callerLabel(request.route.auth as Caller['scheme'], keyId)
  logger.warn('request refused', {
    reason,
    status: statusOf(error),
    scheme: request.route.auth,
    route: `${request.route.method} ${request.route.path}`,
    caller,
  })
  // Carried on the error too, so the Refusals metric (lib/platform/http/observability.ts) counts by
  // it, and the request line (lib/platform/http/factory.ts) names who was refused. The reply's code
  // is the reason in upper case (lib/platform/error-codes.ts: MISSING_CREDENTIALS, ROLE_FORBIDDEN...).
  error.code ??= reason.toUpperCase()
  return Object.assign(error, { reason, caller })
}
