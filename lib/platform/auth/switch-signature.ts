import { Unauthorized } from '#lib/platform/errors.ts'
import type { AuthRequest, Verifier } from './authenticate.ts'
import { findBearer, modeOf } from './bearer.ts'
import { areaBCanonical, decodeSignature } from './canonical.ts'
import type { SwitchCaller } from './caller.ts'
import { readCachedRecord, readFreshRecord } from '#lib/platform/cache/records.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { type SwitchClient, usableSecrets } from './credentials.ts'
import { admitRequest, limitOf } from './rate-limit.ts'
import { type RefusalReason, refused } from './refusal.ts'
import { spendNonce } from './replay-store.ts'
import { parseUtcTimestamp, withinWindow } from './timestamps.ts'
import { matchesAnySecret } from './verify-hmac.ts'

/** The Area B signature codes of the spec's Authentication part. */
export const SIGNATURE_CODES = {
  invalid: '91',
  expired: '92',
  duplicateNonce: '93',
  missing: '94',
  malformed: '95',
} as const

const NONCE = /^[A-Za-z0-9_-]{16,64}$/

const refuse = (request: AuthRequest, reason: RefusalReason, code: string, message: string, keyId?: string) =>
  refused(request, reason, new Unauthorized(message, { responseCode: code }), keyId)

/**
 * Area B verification (CONTRACT section 6), in the contract's order: 94 missing, 95 malformed,
 * 92 timestamp, then the bearer token (needed to find the secret), 91 signature, and 93 nonce last,
 * so that only a request with a valid signature can spend a nonce.
 */
export async function verifySwitchSignature(request: AuthRequest): Promise<SwitchCaller> {
  const { headers } = request
  const signatureHeader = headers['x-signature']
  const timestampHeader = headers['x-timestamp']
  const nonce = headers['x-nonce']
  const missing = (
    [
      ['X-Signature', signatureHeader],
      ['X-Timestamp', timestampHeader],
      ['X-Nonce', nonce],
    ] as const
  )
    .filter(([, value]) => !value)
    .map(([name]) => name)
  if (missing.length)
    throw refuse(
      request,
      'missing_credentials',
      SIGNATURE_CODES.missing,
      `Missing signature header${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`,
    )

  const signature = decodeSignature(signatureHeader!)
  if (!signature) {
    throw refuse(
      request,
      'malformed_signature',
      SIGNATURE_CODES.malformed,
      'X-Signature must be standard padded Base64 of the 32-byte HMAC-SHA256 (44 characters)',
    )
  }
  if (!NONCE.test(nonce!))
    throw refuse(
      request,
      'malformed_signature',
      SIGNATURE_CODES.malformed,
      'X-Nonce must be 16 to 64 characters of A-Z, a-z, 0-9, _ and -',
    )

  const timestamp = parseUtcTimestamp(timestampHeader!)
  if (!timestamp)
    throw refuse(
      request,
      'malformed_timestamp',
      SIGNATURE_CODES.expired,
      'X-Timestamp must be UTC ISO 8601 ending in Z, e.g. 2026-01-23T11:00:00Z',
    )
  if (!withinWindow(timestamp)) {
    throw refuse(
      request,
      'timestamp_out_of_window',
      SIGNATURE_CODES.expired,
      `X-Timestamp is more than 5 minutes from the server time (${new Date().toISOString()})`,
    )
  }

  const bearer = await findBearer(headers.authorization, 'switch')
  // Token and client records come from the container's cache (CREDENTIAL_CACHE_SECONDS).
  const clientKey = bearer ? keys.switchClient(bearer.subjectId) : undefined
  const found = clientKey ? await readCachedRecord<SwitchClient>(clientKey) : undefined
  const noToken = () =>
    refused(
      request,
      found ? 'revoked_key' : 'unknown_key',
      new Unauthorized('Authorization must carry a valid switch bearer token', { responseCode: '63' }),
      bearer?.subjectId,
    )
  if (!found?.record.active) throw noToken()
  const client = found.record

  const canonical = areaBCanonical({
    method: request.method,
    target: request.target,
    timestamp: timestampHeader!,
    nonce: nonce!,
    body: request.rawBody,
  })
  const signedBy = async (record: SwitchClient) =>
    matchesAnySecret(
      await usableSecrets(record.secrets, { record: 'switch-client', id: record.clientId }),
      canonical,
      signature,
    )
  if (!(await signedBy(client))) {
    // A cached record may predate a rotation in another container: read it again before refusing.
    const fresh = found.cached ? await readFreshRecord<SwitchClient>(clientKey!) : undefined
    if (!fresh || !(await signedBy(fresh))) {
      throw refuse(
        request,
        'signature_mismatch',
        SIGNATURE_CODES.invalid,
        'X-Signature does not match this request (method, path, timestamp, nonce and body hash)',
        client.clientId,
      )
    }
    if (!fresh.active) throw noToken()
  }
  // The nonce is spent first: a replay fails its condition and so writes nothing, and only a request
  // that passed authentication is counted (CONTRACT 18).
  if (!(await spendNonce(client.clientId, nonce!, timestamp))) {
    throw refuse(
      request,
      'replay',
      SIGNATURE_CODES.duplicateNonce,
      'X-Nonce was already used: every request needs a fresh nonce',
      client.clientId,
    )
  }
  const rate = await admitRequest({ subject: `B#${client.clientId}`, limit: limitOf(client.rateLimit) })
  return {
    scheme: 'switch-signature',
    switchClientId: client.clientId,
    mode: modeOf(client),
    rate,
  }
}

/** Area B's verifier, for apiHandler. */
export const switchSignature: Verifier<'switch-signature', SwitchCaller> = {
  scheme: 'switch-signature',
  verify: verifySwitchSignature,
}
