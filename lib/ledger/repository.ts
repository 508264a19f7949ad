import { BatchGetCommand, GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb'
import { db, tableName } from '#lib/platform/db/client.ts'
import { isConditionFailed } from '#lib/platform/db/errors.ts'
import { type Key, keys } from '#lib/platform/db/keys.ts'

/** A bank account: the balance is integer kobo, changed only inside conditional transactions. */
export interface Account {
  accountNumber: string
  name: string
  currency: 'NGN'
  balanceKobo: number
  /** The balance the account was opened with: reconciliation checks balance = opening + transfers. */
  openingBalanceKobo?: number
  createdAt: string
  updatedAt: string
}

export interface Merchant {
  merchantId: string
  name: string
  active: boolean
  createdAt: string
}

/** What a transfer record remembers (it is also the request's idempotency record). */
export interface TransferRecord {
  kind: 'TRANSFER'
  switchClientId: string
  requestId: string
  bodyHash: string
  /** The first reply's data, returned again for a repeated requestId. */
  reply: Record<string, unknown>
  status: 'SUCCESSFUL' | 'FAILED' | 'REVERSED'
  responseCode: string
  amountKobo: number
  accountNumber: string
  merchantId: string
  merchantReference: string
  providerReference: string
  productCode: string
  createdAt: string
  reversedBy?: string
  reversedAt?: string
}

export interface ReversalRecord {
  kind: 'REVERSAL'
  switchClientId: string
  requestId: string
  bodyHash: string
  reply: Record<string, unknown>
  originalRequestId: string
  createdAt: string
}

export type BankRequestRecord = TransferRecord | ReversalRecord

const keyId = (key: Key) => `${key.pk}\u0000${key.sk}`

/**
 * Strongly consistent reads of several items in one round trip, retrying DynamoDB's unprocessed keys.
 * Returns the items found by key (absent keys are simply missing from the map).
 */
export async function readMany(wanted: Key[]): Promise<Map<string, Record<string, unknown>>> {
  const found = new Map<string, Record<string, unknown>>()
  let pending: Key[] = [...new Map(wanted.map((k) => [keyId(k), { pk: k.pk, sk: k.sk }])).values()]
  for (let round = 0; pending.length > 0; round++) {
    const out = await db().send(
      new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: true } } }),
    )
    for (const item of out.Responses?.[tableName()] ?? []) found.set(keyId(item as Key), item)
    pending = (out.UnprocessedKeys?.[tableName()]?.Keys ?? []) as Key[]
    if (pending.length && round > 0) await new Promise((r) => setTimeout(r, Math.min(200, 10 * 2 ** round)))
  }
  return found
}

export const itemAt = <T>(found: Map<string, Record<string, unknown>>, key: Key) =>
  found.get(keyId(key)) as T | undefined

export async function getItem<T>(key: Key): Promise<T | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))
  return out.Item as T | undefined
}

export const getAccount = (accountNumber: string) => getItem<Account>(keys.account(accountNumber))
export const getMerchant = (merchantId: string) => getItem<Merchant>(keys.merchant(merchantId))
export const getBankRequest = (switchClientId: string, requestId: string) =>
  getItem<BankRequestRecord>(keys.bankRequest(switchClientId, requestId))

/**
 * Opens an account with an opening balance. An existing account is left exactly as it is (seeding a
 * persistent local table again must not reset balances): the reply says which happened.
 */
export async function openAccount(input: {
  accountNumber: string
  name: string
  balanceKobo: number
}): Promise<{ account: Account; created: boolean }> {
  const now = new Date().toISOString()
  const account: Account = {
    ...input,
    currency: 'NGN',
    openingBalanceKobo: input.balanceKobo,
    createdAt: now,
    updatedAt: now,
  }
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.account(input.accountNumber), entity: 'ACCOUNT', ...account },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    )
    return { account, created: true }
  } catch (error) {
    if (!isConditionFailed(error)) throw error
    return { account: (await getAccount(input.accountNumber))!, created: false }
  }
}

/** Registers a merchant that transfers may pay; an existing one is left as it is. */
export async function addMerchant(input: {
  merchantId: string
  name: string
}): Promise<{ merchant: Merchant; created: boolean }> {
  const merchant: Merchant = { ...input, active: true, createdAt: new Date().toISOString() }
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.merchant(input.merchantId), entity: 'MERCHANT', ...merchant },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    )
    return { merchant, created: true }
  } catch (error) {
    if (!isConditionFailed(error)) throw error
    return { merchant: (await getMerchant(input.merchantId))!, created: false }
  }
}

/** One TransactWriteItems over the table (every element names its own operation). */
export type TransactItem = NonNullable<
  ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']
>[number]

export async function transact(items: TransactItem[]): Promise<void> {
  await db().send(new TransactWriteCommand({ TransactItems: items }))
}
