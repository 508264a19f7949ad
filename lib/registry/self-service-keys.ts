import { auditApiClient } from '#lib/platform/audit/credentials.ts'
import { modeOf } from '#lib/platform/auth/bearer.ts'
import type { ApiClientCaller } from '#lib/platform/auth/caller.ts'
import {
  type ApiClient,
  expired,
  getApiClient,
  wholeApiClientsOf,
  issueApiClient,
  revokeApiClient,
  rollApiClientSecret,
} from '#lib/platform/auth/credentials.ts'
import { Conflict, Forbidden, NotFound } from '#lib/platform/errors.ts'
import type { Mode } from '#lib/platform/mode.ts'
import type { IssueKeyRequest } from './api-key-schemas.ts'

/**
 * Self-service API keys (CONTRACT section 15): a business's ADMIN key issues, lists, rolls and
 * revokes the business's Area A keys, through the same functions the operator's CLI uses
 * (lib/platform/auth/credentials.ts), so a key made here is made exactly as the CLI makes one: its secret
 * shown once and stored sealed.
 *
 * Which keys a caller reaches: its own business's, and in test mode only test keys. A live ADMIN
 * manages both modes (it is the business's real credential); a test ADMIN, whose secret is the kind
 * that ends up in sample code, can neither see nor touch a live key: to it a live key does not exist
 * (404), and issuing one is refused (403).
 */

/** A key as listed: never a secret. */
export interface KeyView {
  key: string
  roles: string[]
  mode: Mode
  active: boolean
  created_at: string
  /** While a roll's overlap runs: when the secrets it replaced stop working; else null. */
  old_secret_valid_until: string | null
}

/** A key as issued or rolled: the secret, shown this once. */
export interface IssuedKey {
  key: string
  secret: string
  role: string
  mode: Mode
  created_at: string
}

const reaches = (caller: ApiClientCaller, client: ApiClient) =>
  client.businessId === caller.businessId && (caller.mode === 'live' || modeOf(client) === 'test')

/** The key, if the caller may manage it; else NotFound, saying nothing of other businesses' keys. */
async function reachableKey(caller: ApiClientCaller, apiKey: string): Promise<ApiClient> {
  const client = await getApiClient(apiKey)
  if (!client || !reaches(caller, client)) throw new NotFound('Your business has no API key by this name')
  return client
}

function viewOf(client: ApiClient, now = Date.now()): KeyView {
  const overlap = client.secrets
    .filter((s) => s.validUntil !== undefined && !expired(s, now))
    .map((s) => s.validUntil!)
    .sort()
  return {
    key: client.apiKey,
    roles: client.roles,
    mode: modeOf(client),
    active: client.active,
    created_at: client.createdAt,
    old_secret_valid_until: overlap.at(-1) ?? null,
  }
}

export async function issueKey(
  caller: ApiClientCaller,
  request: IssueKeyRequest,
  actor: string,
): Promise<IssuedKey> {
  const mode = request.mode ?? caller.mode
  if (caller.mode === 'test' && mode === 'live')
    throw new Forbidden('A test-mode key issues test-mode keys only: ask a live ADMIN key for a live key', {
      code: 'MODE_FORBIDDEN',
      requiredRoles: ['ADMIN'],
    })
  // A key never issues a roomier key than itself: the new key takes the issuer's own rate limit, if
  // an operator gave it one (CONTRACT 18; all of them share the business's quota besides).
  const issuer = await getApiClient(caller.apiKeyId)
  const issued = await issueApiClient({
    businessId: caller.businessId,
    roles: [request.role],
    mode,
    ...(issuer?.rateLimit ? { rateLimit: issuer.rateLimit } : {}),
  })
  await auditApiClient(
    'CREDENTIAL_ISSUED',
    actor,
    issued.apiKey,
    // As on the record: a mode is said when it is test, live is the default.
    { roles: request.role, ...(mode === 'test' ? { mode } : {}) },
    caller.businessId,
  )
  return {
    key: issued.apiKey,
    secret: issued.secret,
    role: request.role,
    mode,
    created_at: issued.client.createdAt,
  }
}

/** The business's keys the caller reaches, revoked ones included, oldest first. */
export async function listKeys(caller: ApiClientCaller): Promise<KeyView[]> {
  // Whole items: the listing shows each key's roles and secrets' overlap, which the index does not hold.
  const clients = await wholeApiClientsOf(caller.businessId)
  const now = Date.now()
  return clients
    .filter((client) => reaches(caller, client))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.apiKey.localeCompare(b.apiKey))
    .map((client) => viewOf(client, now))
}

/** A key as rolled: the new secret, shown this once, and how long the old ones still work. */
export interface RolledKey {
  key: string
  secret: string
  roles: string[]
  mode: Mode
  rolled_at: string
  old_secret_valid_until: string | null
}

/** A new secret; the key's previous secrets stay valid for `overlapSeconds` more. */
export async function rollKey(
  caller: ApiClientCaller,
  apiKey: string,
  overlapSeconds: number,
  actor: string,
): Promise<RolledKey> {
  const client = await reachableKey(caller, apiKey)
  if (!client.active) throw new Conflict('This API key is revoked: issue a new one')
  const { secret, secrets } = await rollApiClientSecret(client, overlapSeconds)
  await auditApiClient(
    'CREDENTIAL_ROTATED',
    actor,
    apiKey,
    { overlap_seconds: overlapSeconds },
    caller.businessId,
  )
  const rolled = viewOf({ ...client, secrets })
  return {
    key: apiKey,
    secret,
    roles: client.roles,
    mode: rolled.mode,
    rolled_at: secrets.at(-1)!.createdAt,
    old_secret_valid_until: rolled.old_secret_valid_until,
  }
}

/**
 * Revokes a key: refused from now on by this container and, within the credential cache's bound
 * (5 s, lib/platform/cache/records.ts), by every other; it no longer counts towards the business's
 * active keys. Revoking a revoked key changes nothing; a key may revoke itself.
 */
export async function revokeKey(caller: ApiClientCaller, apiKey: string, actor: string): Promise<void> {
  const client = await reachableKey(caller, apiKey)
  if (!client.active) return
  await revokeApiClient(apiKey)
  await auditApiClient('CREDENTIAL_REVOKED', actor, apiKey, {}, caller.businessId)
}
