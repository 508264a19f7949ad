import { GetCommand } from '@aws-sdk/lib-dynamodb'
import { db, tableName } from '#lib/platform/db/client.ts'
import { queryAll } from '#lib/platform/db/query.ts'
import { withAttributes } from '#lib/platform/db/index-reads.ts'
import { recordOf } from '#lib/platform/db/items.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { AGAIN, withRetries } from '#lib/platform/db/retry.ts'
import { type NamedItems, type TransactItem, type Transacted, transact } from '#lib/platform/db/transact.ts'
import { Conflict, DependencyDown } from '#lib/platform/errors.ts'
import type { Mode } from '#lib/platform/mode.ts'

/**
 * At most MAX_ACTIVE_KEYS active API keys per business and mode (CONTRACT 18), so that issuing keys
 * cannot multiply a business's standing. One count item per business and mode
 * (keys.apiKeyCount) goes up in the transaction that stores a new key, only while it is below the
 * bound (a conditional write, not a query that two concurrent issues could both pass), and down in the
 * transaction that revokes one.
 *
 * Keys issued before the count existed are counted once, at the business's first issue since
 * (countEarlierKeys), as the webhook subscriptions' count does (lib/webhooks/subscriptions.ts): each
 * such active key is marked `inCount` in the transaction that adds it, so a revocation knows whether
 * to take it off the count. A key issued since carries `counted`.
 */
export const MAX_ACTIVE_KEYS = 20

/** The code of the 409 a 21st active key of a mode gets. */
export const TOO_MANY_KEYS_CODE = 'TOO_MANY_KEYS'

/** What a key record says about its place in the count. */
export interface CountedKey {
  apiKey: string
  businessId: string
  active: boolean
  counted?: boolean
  inCount?: boolean
}

const tooMany = (mode: Mode) => {
  const message = `Your business has ${MAX_ACTIVE_KEYS} active ${mode} API keys, the most it may have: revoke one it no longer uses (DELETE /api/v1/keys/{key}) before issuing another`
  return new Conflict(message, { problems: [{ path: 'mode', code: TOO_MANY_KEYS_CODE, message }] })
}

/**
 * A transaction on a count item: two made at once may cancel each other (TransactionConflict, which
 * the SDK does not retry), so it is tried again a few times; still conflicting, a 503 to try again.
 */
function transactOnCount<I extends NamedItems>(items: I): Promise<Transacted<keyof I & string>> {
  return withRetries(
    async () => {
      const outcome = await transact(items)
      return !outcome.ok && outcome.conflict ? AGAIN : outcome
    },
    {
      attempts: 5,
      baseMs: 20,
      capMs: 400,
      exhausted: () => {
        throw new DependencyDown(
          "Other changes to your business's API keys were being made at the same moment: nothing changed, try again",
        )
      },
    },
  )
}

/**
 * Stores a new key's item (`put`, conditional on its key being free) with the count's increment.
 * Refused with the 409 TOO_MANY_KEYS when the business already has MAX_ACTIVE_KEYS active keys of the
 * mode; `taken` is the error when the key's name is already used.
 */
export async function putCountedKey(
  put: NonNullable<TransactItem['Put']>,
  businessId: string,
  mode: Mode,
  taken: () => Error,
): Promise<void> {
  const countKey = keys.apiKeyCount(businessId, mode)
  await withRetries(
    async () => {
      const outcome = await transactOnCount({
        count: {
          Update: {
            TableName: tableName(),
            Key: countKey,
            UpdateExpression: 'ADD activeKeys :one',
            // Only a count that includes the keys issued before it existed is a bound.
            ConditionExpression: 'includesEarlier = :yes AND activeKeys < :max',
            ExpressionAttributeValues: { ':one': 1, ':max': MAX_ACTIVE_KEYS, ':yes': true },
          },
        },
        key: { Put: put },
      })
      if (outcome.ok) return true
      if (outcome.failed.includes('key')) throw taken()
      // Refused by the count: full, or not including earlier keys yet (count them, then try again).
      const count = await readCount(businessId, mode)
      if (count.includesEarlier && count.activeKeys >= MAX_ACTIVE_KEYS) throw tooMany(mode)
      if (!count.includesEarlier) await countEarlierKeys(businessId, mode)
      return AGAIN
    },
    {
      attempts: 5,
      baseMs: 0,
      exhausted: () => {
        throw new DependencyDown(
          "Your business's API keys were being counted by another request at the same moment: nothing changed, try again",
        )
      },
    },
  )
}

/**
 * Revokes a key in one transaction with the count's decrement (when the key is in the count): the
 * key's update is conditional on it being active, and on its place in the count being what was read,
 * so a concurrent revocation or count cannot take it off twice or not at all. False when the key was
 * no longer as read (revoked meanwhile, or counted just now): the caller reads it again.
 */
export async function revokeCountedKey(client: CountedKey, mode: Mode): Promise<boolean> {
  const inCount = Boolean(client.counted || client.inCount)
  const outcome = await transactOnCount({
    key: {
      Update: {
        TableName: tableName(),
        Key: keys.apiClient(client.apiKey),
        UpdateExpression: 'SET active = :no',
        ConditionExpression: `active = :yes${inCount ? '' : ' AND attribute_not_exists(inCount)'}`,
        ExpressionAttributeValues: { ':no': false, ':yes': true },
      },
    },
    count: inCount
      ? {
          Update: {
            TableName: tableName(),
            Key: keys.apiKeyCount(client.businessId, mode),
            UpdateExpression: 'ADD activeKeys :minus',
            ExpressionAttributeValues: { ':minus': -1 },
          },
        }
      : undefined,
  })
  return outcome.ok
}

async function readCount(businessId: string, mode: Mode) {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.apiKeyCount(businessId, mode), ConsistentRead: true }),
  )
  const activeKeys = out.Item?.activeKeys
  return {
    activeKeys: typeof activeKeys === 'number' ? activeKeys : 0,
    includesEarlier: out.Item?.includesEarlier === true,
  }
}

/**
 * A business's API clients on its index (keys.apiClientByBusiness), as the index holds them: what
 * LISTED.apiClientSystem names, no secrets (lib/platform/db/table.ts).
 */
export const clientsIndexed = (businessId: string) =>
  queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.apiClientByBusiness(businessId, '').gsi1pk },
  })

/**
 * Makes the count include the active keys of the mode issued before it existed: once per business and
 * mode, in transactions that mark each such key `inCount` (conditional on it still being active and
 * unmarked) and ADD them to the count, the last one setting `includesEarlier`. A concurrent issue
 * doing the same, or a revocation meanwhile, fails a condition: the caller reads the count again.
 */
async function countEarlierKeys(businessId: string, mode: Mode): Promise<void> {
  // Whole items: whether a key is counted is not on the index.
  const items = await withAttributes<Record<string, unknown>>(
    'gsi1',
    'item',
    await clientsIndexed(businessId),
  )
  const earlier = items
    .map((item) => recordOf<CountedKey & { mode?: Mode }>(item))
    .filter((k) => k.active && (k.mode ?? 'live') === mode && !k.counted && !k.inCount)
  // DynamoDB's 100 actions per transaction, less the count's own.
  const CHUNK = 99
  for (let i = 0; i === 0 || i < earlier.length; i += CHUNK) {
    const chunk = earlier.slice(i, i + CHUNK)
    const last = i + CHUNK >= earlier.length
    const outcome = await transactOnCount({
      inCount: chunk.map((k) => ({
        Update: {
          TableName: tableName(),
          Key: keys.apiClient(k.apiKey),
          UpdateExpression: 'SET inCount = :yes',
          ConditionExpression:
            'active = :yes AND attribute_not_exists(inCount) AND attribute_not_exists(counted)',
          ExpressionAttributeValues: { ':yes': true },
        },
      })),
      count: {
        Update: {
          TableName: tableName(),
          Key: keys.apiKeyCount(businessId, mode),
          UpdateExpression: `ADD activeKeys :n${last ? ' SET includesEarlier = :yes' : ''}`,
          ConditionExpression: 'attribute_not_exists(includesEarlier)',
          ExpressionAttributeValues: { ':n': chunk.length, ...(last ? { ':yes': true } : {}) },
        },
      },
    })
    if (!outcome.ok) return
  }
}
