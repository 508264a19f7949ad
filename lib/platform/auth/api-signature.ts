import { Forbidden, Unauthorized } from '#lib/platform/errors.ts'
import type { AuthRequest, Verifier } from './authenticate.ts'
import { areaACanonical, decodeSignature } from './canonical.ts'
import type { AnonymousCaller, ApiClientCaller } from './caller.ts'
import { readCachedRecord, readFreshRecord } from '#lib/platform/cache/records.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { modeOf } from './bearer.ts'
import { type ApiClient, usableSecrets } from './credentials.ts'
import { admitRequest, businessHolder, businessSubject, limitOf, type RateLimit } from './rate-limit.ts'
import { refused } from './refusal.ts'
import { acceptSignatureOnce } from './replay-store.ts'
import { parseZonedTimestamp, withinWindow } from './timestamps.ts'
import { matchesAnySecret } from './verify-hmac.ts'

const HEADERS = ['x-api-key', 'x-api-signature', 'x-api-timestamp'] as const

/**
 * The longest x-api-key the service looks up. The key becomes part of DynamoDB keys (the client
 * record, the replay guard, the rate limit window), whose partition key holds at most 2,048 bytes: a
 * longer header would reach GetItem and fail there as a 500. Issued keys are 35 characters.
 */
export const MAX_API_KEY_LENGTH = 256

const HOW_TO_SIGN =
  'sign "METHOD\\nPATH?QUERY\\nTIMESTAMP\\nhex(SHA-256(body))" with HMAC-SHA256 and your API secret, then Base64'

/**
 * The authority's own API takes the secret itself in `x-api-secret`; clients written for it send it
 * here and would hear only that a signature is missing. Every refusal of such a request says the
 * secret is never sent, and how to sign instead (CONTRACT section 17).
 */
const SECRET_NEVER_SENT = `The API secret is never sent to this service: remove x-api-secret and ${HOW_TO_SIGN}, sent as x-api-signature with the same x-api-timestamp (docs/authentication.md)`

/**
 * Area A authentication (CONTRACT section 2): headers present, key known and active, timestamp in
 * the window, signature valid under one of the client's secrets, role allowed on the route, and the
 * (key, signature) pair not seen before. Each failure names its reason.
 */
export async function verifyApiSignature(request: AuthRequest): Promise<ApiClientCaller> {
  const { headers, route } = request
  const secretSent = headers['x-api-secret'] !== undefined
  const unauthorized = (message: string) =>
    secretSent
      ? new Unauthorized(`${message}. ${SECRET_NEVER_SENT}`, {
          problems: [{ path: 'x-api-secret', code: 'API_SECRET_SENT', message: SECRET_NEVER_SENT }],
        })
      : new Unauthorized(message)
  const missing = HEADERS.filter((name) => !headers[name])
  if (missing.length)
    throw refused(
      request,
      'missing_credentials',
      unauthorized(`Missing authentication header${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`),
      headers['x-api-key'],
    )
  const apiKey = headers['x-api-key']!
  if (apiKey.length > MAX_API_KEY_LENGTH) {
    throw refused(
      request,
      'unknown_key',
      unauthorized(`Unknown API key: x-api-key is longer than ${MAX_API_KEY_LENGTH} characters`),
    )
  }
  const signatureHeader = headers['x-api-signature']!
  const timestampHeader = headers['x-api-timestamp']!

  // The client record comes from the container's cache (CREDENTIAL_CACHE_SECONDS, lib/platform/cache/records.ts).
  const clientKey = keys.apiClient(apiKey)
  const found = await readCachedRecord<ApiClient>(clientKey)
  if (!found) throw refused(request, 'unknown_key', unauthorized('Unknown API key: check x-api-key'), apiKey)
  let client = found.record
  // The business's own limit (CONTRACT 18), read while the signature is checked; cached like the client.
  const business = readCachedRecord<{ rateLimit?: RateLimit }>(keys.business(client.businessId))
  // Awaited only once the request is authenticated: a refusal before then must not leave it unhandled.
  business.catch(() => undefined)
  const revoked = () =>
    refused(request, 'revoked_key', unauthorized('This API key has been revoked: ask for a new one'), apiKey)
  if (!client.active) throw revoked()

  const timestamp = parseZonedTimestamp(timestampHeader)
  if (!timestamp) {
    throw refused(
      request,
      'malformed_timestamp',
      unauthorized('x-api-timestamp must be an ISO 8601 date-time with a zone, e.g. 2026-11-21T10:15:30Z'),
      apiKey,
    )
  }
  if (!withinWindow(timestamp)) {
    throw refused(
      request,
      'timestamp_out_of_window',
      unauthorized(
        `x-api-timestamp is more than 5 minutes from the server time (${new Date().toISOString()}): check your clock`,
      ),
      apiKey,
    )
  }

  const signature = decodeSignature(signatureHeader)
  if (!signature)
    throw refused(
      request,
      'malformed_signature',
      unauthorized('x-api-signature must be standard padded Base64 of the 32-byte HMAC-SHA256'),
      apiKey,
    )
  const canonical = areaACanonical({
    method: request.method,
    target: request.target,
    timestamp: timestampHeader,
    body: request.rawBody,
  })
  const signedBy = async (record: ApiClient) =>
    matchesAnySecret(
      await usableSecrets(record.secrets, { record: 'api-client', id: apiKey }),
      canonical,
      signature,
    )
  if (!(await signedBy(client))) {
    // A cached record may predate a rotation in another container: read it again before refusing.
    const fresh = found.cached ? await readFreshRecord<ApiClient>(clientKey) : undefined
    if (!fresh || !(await signedBy(fresh))) {
      throw refused(
        request,
        'signature_mismatch',
        unauthorized(`x-api-signature does not match this request: ${HOW_TO_SIGN}`),
        apiKey,
      )
    }
    client = fresh
    if (!client.active) throw revoked()
  }

  const allowed = route.roles.some((role) => client.roles.includes(role))
  if (!allowed) {
    throw refused(
      request,
      'role_forbidden',
      new Forbidden(
        `${route.method} ${route.path} needs an API key with role ${route.roles.join(' or ')}; this key has ${client.roles.join(', ') || 'no role'}`,
        { requiredRoles: route.roles },
      ),
      apiKey,
    )
  }
  // The replay guard first: a replay fails its condition and so writes nothing, and only a request
  // that passed authentication is counted (CONTRACT 18), in its key's window and its business's.
  if (!(await acceptSignatureOnce(apiKey, signatureHeader, timestamp))) {
    throw refused(
      request,
      'replay',
      unauthorized('This signed request was already received (replay): sign every request afresh'),
      apiKey,
    )
  }
  const mode = modeOf(client)
  const limit = limitOf(client.rateLimit)
  const businessLimit = limitOf((await business)?.record.rateLimit)
  const rate = await admitRequest(
    { subject: `A#${apiKey}`, limit },
    { subject: businessSubject(client.businessId, mode), limit: businessLimit, holder: businessHolder(mode) },
  )
  return {
    scheme: 'api-signature',
    apiKeyId: apiKey,
    rate,
    businessId: client.businessId,
    mode,
    roles: client.roles,
    ...(client.webhookUrl ? { webhookUrl: client.webhookUrl } : {}),
    ...(client.validationMode ? { validationMode: client.validationMode } : {}),
  }
}

/** Area A's verifier, for apiHandler. */
export const apiSignature: Verifier<'api-signature', ApiClientCaller> = {
  scheme: 'api-signature',
  verify: verifyApiSignature,
}

/**
 * Area A's verifier for the routes that also answer callers without credentials (the health check,
 * `allowAnonymous` in the route table): no header at all is an anonymous caller; anything else is
 * checked exactly as apiSignature checks it (a wrong signature is still 401).
 */
export const apiSignatureOrAnonymous: Verifier<'api-signature', ApiClientCaller | AnonymousCaller> = {
  scheme: 'api-signature',
  async verify(request) {
    const none = HEADERS.every((name) => !request.headers[name])
    if (request.route.allowAnonymous && none) return { scheme: 'anonymous' }
    return verifyApiSignature(request)
  },
}
