import { randomBytes, randomUUID } from 'node:crypto'
import { PutCommand } from '@aws-sdk/lib-dynamodb'
import { DecryptionFailed, decryptField, encryptField } from '#lib/platform/crypto/fields.ts'
import { forgetRecord } from '#lib/platform/cache/records.ts'
import { db, tableName } from '#lib/platform/db/client.ts'
import { readRecord, recordOf } from '#lib/platform/db/items.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { writeIf } from '#lib/platform/db/write.ts'
import { AGAIN, withRetries } from '#lib/platform/db/retry.ts'
import { clientsIndexed, putCountedKey, revokeCountedKey } from './key-count.ts'
import { checkDestination } from '#lib/platform/net/destination.ts'
import { withAttributes } from '#lib/platform/db/index-reads.ts'
import { LISTED } from '#lib/platform/db/table.ts'
import { queryAll } from '#lib/platform/db/query.ts'
import { Conflict, DependencyDown, NotFound } from '#lib/platform/errors.ts'
import { logger, fingerprint } from '#lib/platform/log.ts'
import type { Mode } from '#lib/platform/mode.ts'
import type { Role } from '#lib/platform/http/route.ts'
import { type BearerKind, type BearerToken, hashToken, modeOf } from './bearer.ts'
import type { RateLimit } from './rate-limit.ts'

/**
 * Credentials of all four areas: issue, look up, rotate, revoke. The CLI and the local seed both go
 * through these functions, so development credentials are made exactly as real ones are.
 * HMAC secrets must be recoverable (the service recomputes signatures with them); bearer tokens are
 * only ever stored as SHA-256 hashes.
 */

export interface ClientSecret {
  id: string
  secret: string
  createdAt: string
  /**
   * When a secret replaced by a roll stops working (ISO). Absent: valid until it is replaced. Kept on
   * the record, so every container (its cached copy included) refuses it from that moment on.
   */
  validUntil?: string
}

export interface ApiClient {
  apiKey: string
  businessId: string
  roles: Role[]
  /** At most two active at once, so a client can rotate without downtime. */
  secrets: ClientSecret[]
  webhookUrl?: string
  /** The client's default invoice validation mode (CONTRACT section 5); x-validation-mode overrides it. */
  validationMode?: ValidationMode
  /** Its own rate limit (lib/platform/auth/rate-limit.ts); absent: the default. */
  rateLimit?: RateLimit
  /** `test` for sandbox keys (CONTRACT section 15); absent on live keys (lib/platform/auth/bearer.ts modeOf). */
  mode?: Mode
  active: boolean
  createdAt: string
  /** In its business's count of active keys since its issue, or (`inCount`) since it was counted (key-count.ts). */
  counted?: boolean
  inCount?: boolean
}

export type ValidationMode = 'strict' | 'lenient'

export interface SwitchClient {
  clientId: string
  name: string
  secrets: ClientSecret[]
  /** Its own rate limit (lib/platform/auth/rate-limit.ts); absent: the default. */
  rateLimit?: RateLimit
  /** `test` for the sandbox's switch client (CONTRACT section 15); absent on live ones. */
  mode?: Mode
  active: boolean
  createdAt: string
}

/** Only test credentials store their mode: every record without one is live, as before the sandbox. */
const modeField = (mode: Mode | undefined) => (mode === 'test' ? { mode } : {})

const MAX_ACTIVE_SECRETS = 2

const newSecret = () => randomBytes(32).toString('base64url')
const newToken = (prefix: string) => `${prefix}_${randomBytes(24).toString('base64url')}`
const now = () => new Date().toISOString()

/** Which record an HMAC secret belongs to: its encryption context, so a copied ciphertext fails. */
export type SecretOwner = { record: 'api-client' | 'switch-client'; id: string }
export const secretContext = (owner: SecretOwner) => ({ record: owner.record, id: owner.id, field: 'secret' })

/** A new secret entry, stored encrypted (the caller is given the plaintext once). */
const secretRecord = async (secret: string, owner: SecretOwner): Promise<ClientSecret> => ({
  id: randomUUID().slice(0, 8),
  secret: await encryptField(secret, secretContext(owner)),
  createdAt: now(),
})

/**
 * The secrets of a record in plaintext, for signature verification. Values stored before the
 * encryption migration are plaintext and pass through. A secret that does not decrypt (moved from
 * another record, or a lost key) is left out and logged without its value: the request then simply
 * fails to verify (401), it is not a server error.
 */
export async function usableSecrets(
  secrets: readonly ClientSecret[],
  owner: SecretOwner,
  now = Date.now(),
): Promise<ClientSecret[]> {
  const usable: ClientSecret[] = []
  for (const entry of secrets) {
    // A rolled secret past its overlap is no longer a credential (lib/platform/keys, CONTRACT section 15).
    if (expired(entry, now)) continue
    try {
      usable.push({
        ...entry,
        secret: await decryptField(entry.secret, secretContext(owner), { cache: true }),
      })
    } catch (error) {
      if (!(error instanceof DecryptionFailed)) throw error
      logger.error('stored HMAC secret could not be decrypted', {
        record: owner.record,
        id: fingerprint(owner.id),
        secretId: entry.id,
        reason: error.message,
      })
    }
  }
  return usable
}

/** Whether a secret's overlap after a roll has ended. */
export const expired = (entry: ClientSecret, now = Date.now()): boolean =>
  entry.validUntil !== undefined && Date.parse(entry.validUntil) <= now

/** A new credential's record: false when one already exists under its key (a failed condition). */
const putNew = async (Item: Record<string, unknown>) =>
  (await writeIf({ Put: { Item, ConditionExpression: 'attribute_not_exists(pk)' } })).written

// Area A clients -----------------------------------------------------------------------------

export interface IssuedApiClient {
  apiKey: string
  secret: string
  client: ApiClient
}

export async function issueApiClient(input: {
  businessId: string
  roles: Role[]
  apiKey?: string
  secret?: string
  webhookUrl?: string
  mode?: Mode
  /** Its own rate limit from the start (a key issued by a key takes the issuer's, lib/registry/self-service-keys.ts). */
  rateLimit?: RateLimit
}): Promise<IssuedApiClient> {
  // The business record's key is read directly: its owner is lib/registry/businesses.ts, which sits
  // above authentication and may not be imported here.
  if (!(await readRecord(keys.business(input.businessId))))
    throw new NotFound(`No business ${input.businessId}`)
  // The destination policy of webhooks (CONTRACT section 14): transmit sends the bearer key there.
  if (input.webhookUrl) await checkDestination(input.webhookUrl)
  const apiKey = input.apiKey ?? newToken(input.mode === 'test' ? 'ak_test' : 'ak')
  const secret = input.secret ?? newSecret()
  const client: ApiClient = {
    apiKey,
    businessId: input.businessId,
    roles: input.roles,
    secrets: [await secretRecord(secret, { record: 'api-client', id: apiKey })],
    ...(input.webhookUrl ? { webhookUrl: input.webhookUrl } : {}),
    ...(input.rateLimit ? { rateLimit: input.rateLimit } : {}),
    ...modeField(input.mode),
    active: true,
    createdAt: now(),
    counted: true,
  }
  // With the business's count of active keys of the mode: a 409 past MAX_ACTIVE_KEYS (CONTRACT 18).
  await putCountedKey(
    {
      TableName: tableName(),
      Item: {
        ...keys.apiClient(apiKey),
        ...keys.apiClientByBusiness(input.businessId, apiKey),
        ...keys.credentialListing('api-client', apiKey),
        ...client,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
    input.businessId,
    input.mode ?? 'live',
    () => new Conflict('That API key already exists'),
  )
  return { apiKey, secret, client }
}

export const getApiClient = (apiKey: string) => readRecord<ApiClient>(keys.apiClient(apiKey))

/** What the business index shows of an API client: whether it is a system of the business. */
export type ApiClientSystem = Pick<ApiClient, 'apiKey' | 'active' | 'mode' | 'webhookUrl'>

/**
 * Every client of a business as the index shows it (to find the webhook of a party, for instance):
 * its secrets are not there (getApiClient reads them).
 */
export async function apiClientsOf(businessId: string): Promise<ApiClientSystem[]> {
  return withAttributes<ApiClientSystem>('gsi1', LISTED.apiClientSystem, await clientsIndexed(businessId))
}

/** Every client of a business, whole (the key listing), from the index then the items. */
export async function wholeApiClientsOf(businessId: string): Promise<ApiClient[]> {
  const items = await withAttributes<Record<string, unknown>>(
    'gsi1',
    'item',
    await clientsIndexed(businessId),
  )
  return items.map((item) => recordOf<ApiClient>(item))
}

async function updateClient(
  key: { pk: string; sk: string },
  expression: string,
  values: Record<string, unknown>,
) {
  try {
    const { written } = await writeIf({
      Update: {
        Key: key,
        UpdateExpression: expression,
        ConditionExpression: 'attribute_exists(pk)',
        // DynamoDB refuses an empty value map (a REMOVE needs none).
        ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
      },
    })
    if (!written) throw new NotFound('No such credential')
  } finally {
    // This container's verifiers see the change at once; others within the cache bound.
    forgetRecord(key)
  }
}

/**
 * Revokes an API key and takes it off its business's count of active keys (key-count.ts), in one
 * transaction on the key as read (consistently): a revocation or count between the read and the
 * write makes it read again. Revoking a revoked key changes nothing.
 */
export async function revokeApiClient(apiKey: string): Promise<void> {
  const key = keys.apiClient(apiKey)
  try {
    await withRetries(
      async () => {
        const client = await readRecord<ApiClient>(key, { consistent: true })
        if (!client) throw new NotFound('No such credential')
        if (!client.active) return true
        return (await revokeCountedKey(client, modeOf(client))) ? true : AGAIN
      },
      {
        attempts: 5,
        baseMs: 20,
        exhausted: () => {
          throw new DependencyDown(
            'The API key was being changed by other requests at the same moment: try again',
          )
        },
      },
    )
  } finally {
    forgetRecord(key)
  }
}

/**
 * Sets (or removes) a client's webhook URL: transmit delivers invoices there with the client's bearer
 * key, and the health check probes it, so it follows the webhook destination policy (CONTRACT
 * section 14, lib/platform/net/destination.ts): https:// to public addresses only; a 400 saying why otherwise.
 */
export async function setWebhook(apiKey: string, url: string | undefined): Promise<void> {
  if (url) {
    await checkDestination(url)
    await updateClient(keys.apiClient(apiKey), 'SET webhookUrl = :u', { ':u': url })
  } else await updateClient(keys.apiClient(apiKey), 'REMOVE webhookUrl', {})
}

/**
 * Adds a new secret and keeps at most two (the newest two), so the old one works until the client
 * has switched. Conditional on the secrets not having changed meanwhile, so two rotations cannot
 * silently overwrite each other, and on the credential still being active.
 *
 * With `overlapSeconds` (a self-service roll, lib/platform/keys): the secrets the record had stay valid that
 * much longer and no more (an earlier overlap that ends sooner keeps its end); 0 retires them at once.
 * Without it (the CLI's rotate) they stay valid until a later rotation pushes them out.
 */
async function rotate(
  key: { pk: string; sk: string },
  owner: SecretOwner,
  options: { overlapSeconds?: number; record?: { secrets: ClientSecret[] } } = {},
): Promise<{ secret: string; secrets: ClientSecret[] }> {
  const record = options.record ?? (await readRecord<{ secrets: ClientSecret[] }>(key))
  if (!record) throw new NotFound('No such credential')
  const secret = newSecret()
  const kept =
    options.overlapSeconds === undefined
      ? record.secrets
      : overlapping(record.secrets, options.overlapSeconds, Date.now())
  const secrets = [...kept, await secretRecord(secret, owner)].slice(-MAX_ACTIVE_SECRETS)
  try {
    const { written } = await writeIf({
      Update: {
        Key: key,
        UpdateExpression: 'SET secrets = :new',
        // Active too: a roll racing a revocation in another container fails here rather than hand
        // out a secret for the revoked credential (CONTRACT 18).
        ConditionExpression: 'secrets = :old AND active = :yes',
        ExpressionAttributeValues: { ':new': secrets, ':old': record.secrets, ':yes': true },
      },
    })
    if (!written) {
      const now = await readRecord<{ active: boolean }>(key, { consistent: true })
      if (now && !now.active)
        throw new Conflict(
          `This ${owner.record === 'api-client' ? 'API key' : 'switch client'} is revoked: issue a new one`,
        )
      throw new Conflict('The secrets changed during rotation: try again')
    }
  } finally {
    forgetRecord(key)
  }
  return { secret, secrets }
}

/** The secrets a roll keeps beside the new one: those still valid, each ending within the overlap. */
function overlapping(secrets: readonly ClientSecret[], overlapSeconds: number, now: number): ClientSecret[] {
  if (overlapSeconds <= 0) return []
  const end = now + overlapSeconds * 1000
  return secrets
    .filter((entry) => !expired(entry, now))
    .map((entry) => {
      const until = entry.validUntil === undefined ? end : Math.min(Date.parse(entry.validUntil), end)
      return { ...entry, validUntil: new Date(until).toISOString() }
    })
}

/**
 * A client's own rate limit, or (undefined) back to the default: an API key, a switch client (by its
 * id), a merchant or admin bearer token (by the token itself, as `token revoke` takes it), or a
 * business, whose limit all its API keys of a mode share (lib/platform/auth/rate-limit.ts).
 */
export function setRateLimit(
  credential: { apiKey: string } | { switchClientId: string } | { token: string } | { businessId: string },
  limit: RateLimit | undefined,
) {
  const key =
    'apiKey' in credential
      ? keys.apiClient(credential.apiKey)
      : 'switchClientId' in credential
        ? keys.switchClient(credential.switchClientId)
        : 'businessId' in credential
          ? keys.business(credential.businessId)
          : keys.bearer(hashToken(credential.token))
  return limit
    ? updateClient(key, 'SET rateLimit = :l', { ':l': limit })
    : updateClient(key, 'REMOVE rateLimit', {})
}

export const setValidationMode = (apiKey: string, mode: ValidationMode) =>
  updateClient(keys.apiClient(apiKey), 'SET validationMode = :m', { ':m': mode })

export const rotateApiClientSecret = async (apiKey: string) =>
  (await rotate(keys.apiClient(apiKey), { record: 'api-client', id: apiKey })).secret

/**
 * A self-service roll (POST /api/v1/keys/{key}/roll): a new secret, the previous ones valid for
 * `overlapSeconds` more. `client` is the record the caller already read to check it may roll it.
 */
export const rollApiClientSecret = (client: ApiClient, overlapSeconds: number) =>
  rotate(
    keys.apiClient(client.apiKey),
    { record: 'api-client', id: client.apiKey },
    { overlapSeconds, record: client },
  )

// Bearer tokens (Areas B, C, D) ----------------------------------------------------------------

async function storeBearer(
  token: string,
  kind: BearerKind,
  subjectId: string,
  mode?: Mode,
): Promise<BearerToken> {
  const record: BearerToken = {
    kind,
    subjectId,
    hint: token.slice(0, 6),
    ...modeField(mode),
    active: true,
    createdAt: now(),
  }
  const tokenHash = hashToken(token)
  const stored = await putNew({
    ...keys.bearer(tokenHash),
    ...keys.credentialListing(kind, `${subjectId}#${tokenHash.slice(0, 12)}`),
    tokenHash,
    ...record,
  })
  if (!stored) throw new Conflict('That token already exists')
  return record
}

export const revokeBearer = (token: string) =>
  updateClient(keys.bearer(hashToken(token)), 'SET active = :f', { ':f': false })

export async function issueSwitchClient(input: {
  name: string
  clientId?: string
  token?: string
  secret?: string
  mode?: Mode
}) {
  const clientId = input.clientId ?? `sw_${randomBytes(6).toString('hex')}`
  const token = input.token ?? newToken(input.mode === 'test' ? 'swt_test' : 'swt')
  const secret = input.secret ?? newSecret()
  const client: SwitchClient = {
    clientId,
    name: input.name,
    secrets: [await secretRecord(secret, { record: 'switch-client', id: clientId })],
    ...modeField(input.mode),
    active: true,
    createdAt: now(),
  }
  // A random client id that is already taken is not worth a message of its own: the put's error.
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.switchClient(clientId),
        ...keys.credentialListing('switch-client', clientId),
        ...client,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  )
  await storeBearer(token, 'switch', clientId, input.mode)
  return { clientId, token, secret }
}

export const rotateSwitchSecret = async (clientId: string) =>
  (await rotate(keys.switchClient(clientId), { record: 'switch-client', id: clientId })).secret

export async function issueMerchantToken(input: { merchantId: string; token?: string; mode?: Mode }) {
  const token = input.token ?? newToken(input.mode === 'test' ? 'mt_test' : 'mt')
  await storeBearer(token, 'merchant', input.merchantId, input.mode)
  return { merchantId: input.merchantId, token, mode: input.mode ?? 'live' }
}

export async function issueNotifyAdminKey(input: { adminKeyId?: string; token?: string } = {}) {
  const adminKeyId = input.adminKeyId ?? `na_${randomBytes(4).toString('hex')}`
  const token = input.token ?? newToken('nak')
  await storeBearer(token, 'notify-admin', adminKeyId)
  return { adminKeyId, token }
}

/** Every credential of a kind, secrets left out (the CLI masks what remains). */
export async function listCredentials(kind: string): Promise<Record<string, unknown>[]> {
  // The index holds the keys only of credentials (an operator's listing): the items are read after it.
  const listed = await queryAll({
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.credentialListing(kind, '').gsi2pk },
  })
  const items = await withAttributes<Record<string, unknown>>('gsi2', 'item', listed)
  return items.map((item) => {
    const { secrets, tokenHash: _t, ...rest } = recordOf<Record<string, unknown>>(item)
    return { ...rest, ...(secrets ? { secrets: (secrets as ClientSecret[]).length } : {}) }
  })
}
