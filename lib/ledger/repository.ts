import { GetCommand } from '@aws-sdk/lib-dynamodb'
import { db, tableName } from '#lib/platform/db/client.ts'
import { type Key, keys } from '#lib/platform/db/keys.ts'
import { writeIf } from '#lib/platform/db/write.ts'

/** A bank account: the balance is integer kobo, changed only inside conditional transactions. */
export interface Account {
  accountNumber: string
  name: string
  currency: 'NGN'
  balanceKobo: number
  /**
   * DORMANT: the account takes no postings (a name enquiry answers 06, a transfer is refused with
   * 06). Absent on the accounts stored before it existed, which are all active.
   */
  status?: AccountStatus
  /** The balance the account was opened with: reconciliation checks balance = opening + transfers. */
  openingBalanceKobo?: number
  createdAt: string
  updatedAt: string
}

export type AccountStatus = 'ACTIVE' | 'DORMANT'

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
  /** The NIP session id the switch gave it (CONTRACT 24), also keyed by lib/ledger's session record. */
  sessionId?: string
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
  sessionId?: string
  createdAt: string
}

/**
 * A status query's final "never received" (25) for a requestId that has no record (CONTRACT 24): put
 * at the request record's own key with attribute_not_exists, so a transfer or reversal arriving later
 * with that requestId collides with it (its read finds it, or its transaction's put fails on it) and
 * is refused with the same 25, never debited.
 */
export interface NotReceivedRecord {
  kind: 'NOT_RECEIVED'
  switchClientId: string
  requestId: string
  /** When the status query recorded it (UTC ISO). */
  queriedAt: string
  /** TTL, epoch seconds: 400 days on; an original can be no more than the 300 s signature window late. */
  expiresAt: number
}

export type BankRequestRecord = TransferRecord | ReversalRecord | NotReceivedRecord

/**
 * A session id's record (CONTRACT 24), at keys.bankSession: written in the transaction of the transfer
 * or reversal that carried it, with a copy of that first reply (a status query by session id is one
 * GetItem). A status query for a session id never received puts the final NOT_RECEIVED here instead
 * (with `sessionId`), which a late original carrying that id collides with.
 */
export interface SessionRecord {
  kind: 'SESSION'
  switchClientId: string
  sessionId: string
  requestId: string
  reply: Record<string, unknown>
}
export type SessionNotReceived = Omit<NotReceivedRecord, 'requestId'> & { sessionId: string }
export type BankSessionRecord = SessionRecord | SessionNotReceived

export async function getItem<T>(key: Key): Promise<T | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))
  return out.Item as T | undefined
}

export const getAccount = (accountNumber: string) => getItem<Account>(keys.account(accountNumber))
export const getMerchant = (merchantId: string) => getItem<Merchant>(keys.merchant(merchantId))
export const getBankRequest = (switchClientId: string, requestId: string) =>
  getItem<BankRequestRecord>(keys.bankRequest(switchClientId, requestId))
export const getBankSession = (switchClientId: string, sessionId: string) =>
  getItem<BankSessionRecord>(keys.bankSession(switchClientId, sessionId))

/**
 * Opens an account with an opening balance. An existing account is left exactly as it is (seeding a
 * persistent local table again must not reset balances): the reply says which happened.
 */
export async function openAccount(input: {
  accountNumber: string
  name: string
  balanceKobo: number
  status?: AccountStatus
}): Promise<{ account: Account; created: boolean }> {
  const now = new Date().toISOString()
  const account: Account = {
    ...input,
    currency: 'NGN',
    openingBalanceKobo: input.balanceKobo,
    createdAt: now,
    updatedAt: now,
  }
  const { written } = await writeIf({
    Put: {
      Item: { ...keys.account(input.accountNumber), entity: 'ACCOUNT', ...account },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  })
  return written
    ? { account, created: true }
    : { account: (await getAccount(input.accountNumber))!, created: false }
}

/** Registers a merchant that transfers may pay; an existing one is left as it is. */
export async function addMerchant(input: {
  merchantId: string
  name: string
}): Promise<{ merchant: Merchant; created: boolean }> {
  const merchant: Merchant = { ...input, active: true, createdAt: new Date().toISOString() }
  const { written } = await writeIf({
    Put: {
      Item: { ...keys.merchant(input.merchantId), entity: 'MERCHANT', ...merchant },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  })
  return written
    ? { merchant, created: true }
    : { merchant: (await getMerchant(input.merchantId))!, created: false }
}
