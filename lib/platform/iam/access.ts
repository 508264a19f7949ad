import type { QueueName } from '#lib/platform/async/queue.ts'
import type { IndexName } from '#lib/platform/db/table.ts'
import type { Mode } from '#lib/platform/mode.ts'

/**
 * What a function may do in AWS, in one shape: the IAM policy of its role is generated from it
 * (infra/constructs/grants.ts), and every local run refuses what it does not allow (lib/platform/aws-guard.ts,
 * lib/platform/iam/evaluate.ts). Nothing else decides a function's permissions.
 *
 * How IAM reads the table grants, which the policy and the local evaluator both follow:
 * - A transaction is authorised item by item, each under the action it performs (Put -> PutItem,
 *   Update -> UpdateItem, Delete -> DeleteItem, ConditionCheck -> ConditionCheckItem, Get -> GetItem):
 *   "Permissions for Put, Update, Delete, and Get actions are governed by the permissions used for the
 *   underlying PutItem, UpdateItem, DeleteItem, and GetItem operations"
 *   (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis-iam.html).
 * - dynamodb:LeadingKeys is the set of partition-key values a request names, and the condition must be
 *   used with ForAllValues: BatchGetItem and BatchWriteItem name one per item, and every one must match
 *   (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/specifying-conditions.html, whose
 *   first example grants BatchWriteItem and BatchGetItem under a LeadingKeys condition).
 * - A Query on a global secondary index is a request on the index's ARN (`<table>/index/<name>`), and
 *   the partition-key value it names is the index's: a grant's `keys` limit an index's partition
 *   keys as they limit the table's, so an index grant with keys lists index key prefixes.
 */

/** The service's own private keys: the invoice signing key (Ed25519) and the QR authority key (RSA). */
export type ServiceSecret = 'signing-key' | 'qr-authority-key'

/**
 * Each service key exists once per mode (CONTRACT 18): test-mode artefacts are signed and encrypted
 * with keys of their own. A function granted a ServiceSecret reads both modes' secrets, since it
 * serves both modes.
 */
export type ModeSecret = ServiceSecret | `test-${ServiceSecret}`
export const secretOfMode = (name: ServiceSecret, mode: Mode): ModeSecret =>
  mode === 'test' ? `test-${name}` : name

/** The environment variable through which a function learns each secret's ARN. */
export const SECRET_ENV: Record<ModeSecret, string> = {
  'signing-key': 'SIGNING_KEY_SECRET_ARN',
  'qr-authority-key': 'QR_KEY_SECRET_ARN',
  'test-signing-key': 'TEST_SIGNING_KEY_SECRET_ARN',
  'test-qr-authority-key': 'TEST_QR_KEY_SECRET_ARN',
}

export type TableAction =
  | 'GetItem'
  | 'BatchGetItem'
  | 'Query'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'ConditionCheckItem'
  | 'BatchWriteItem'
  /** A whole-table job's read (the daily reconciliation): it names no partition key. */
  | 'Scan'

/** Every TableAction, for reading a policy back into grants (scripts/local/cloud-grants.ts). */
export const TABLE_ACTIONS: readonly TableAction[] = [
  'GetItem',
  'BatchGetItem',
  'Query',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'ConditionCheckItem',
  'BatchWriteItem',
  'Scan',
]

export interface TableGrant {
  actions: readonly TableAction[]
  /** Partition-key prefixes the grant is limited to (IAM: ForAllValues:StringLike dynamodb:LeadingKeys `<prefix>*`). Absent: every key. */
  keys?: readonly string[]
  /** Indexes (IndexName from lib/platform/db/table.ts) the grant's reads may use; absent: the table only. */
  indexes?: readonly IndexName[]
}

/**
 * The encryption context's `record` of each sealed field kind: API client secrets and switch client
 * secrets (lib/platform/auth/credentials.ts), invoice notes (lib/invoice/notes.ts), webhook subscription
 * secrets (lib/webhooks/subscriptions.ts). The local key files' `key-file` record (lib/platform/crypto/
 * sealed-file.ts) is not one: in AWS those keys are Secrets Manager secrets (`secrets` below).
 */
export type EncryptionRecord =
  | 'api-client'
  | 'switch-client'
  | 'invoice'
  | 'webhook-subscription'
  | 'idempotent-reply'

export const ENCRYPTION_RECORDS: readonly EncryptionRecord[] = [
  'api-client',
  'switch-client',
  'invoice',
  'webhook-subscription',
  'idempotent-reply',
]

export interface Access {
  table?: readonly TableGrant[]
  /** kms:Decrypt of the data key, for values sealed under these records. */
  decrypt?: readonly EncryptionRecord[]
  /** kms:GenerateDataKey and kms:Encrypt of the data key, to seal values under these records. */
  encrypt?: readonly EncryptionRecord[]
  /** secretsmanager:GetSecretValue of these service secrets. */
  secrets?: readonly ServiceSecret[]
  /** sqs:SendMessage to these queues (lib/platform/async/queue.ts). */
  queues?: readonly QueueName[]
  /** ses:SendEmail from the configured identity (the outbox sender). */
  email?: boolean
}

export const READ_ACTIONS: readonly TableAction[] = ['GetItem', 'BatchGetItem', 'Query']
export const WRITE_ACTIONS: readonly TableAction[] = [
  ...READ_ACTIONS,
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'ConditionCheckItem',
]
export const ALL_INDEXES: readonly IndexName[] = ['gsi1', 'gsi2', 'gsi3']

/** Get and query every record, through the table and every index (Scan is not among them). */
export const READ_EVERY_RECORD: TableGrant = { actions: READ_ACTIONS, indexes: ALL_INDEXES }

/**
 * Table grants by the partition-key prefixes a function's records live under (dynamodb:LeadingKeys):
 * `reads(...)` may get and query them (and the named indexes), `writes(...)` may also change them.
 */
export const reads = (keys: readonly string[], indexes: readonly IndexName[] = []): TableGrant => ({
  actions: READ_ACTIONS,
  keys,
  ...(indexes.length ? { indexes } : {}),
})
export const writes = (keys: readonly string[], indexes: readonly IndexName[] = []): TableGrant => ({
  actions: WRITE_ACTIONS,
  keys,
  ...(indexes.length ? { indexes } : {}),
})

const union = <T>(...lists: (readonly T[] | undefined)[]): T[] => [...new Set(lists.flatMap((l) => l ?? []))]

/** Whether every request `inner` allows, `outer` allows too. */
function covers(outer: TableGrant, inner: TableGrant): boolean {
  if (!inner.actions.every((a) => outer.actions.includes(a))) return false
  if (!(inner.indexes ?? []).every((i) => outer.indexes?.includes(i))) return false
  if (!outer.keys) return true
  if (!inner.keys) return false
  return inner.keys.every((k) => outer.keys!.some((prefix) => k.startsWith(prefix)))
}

const sameGrant = (a: TableGrant, b: TableGrant) => covers(a, b) && covers(b, a)

/**
 * The access of a function that does all of `parts`: each list is the union, and a table grant that
 * another grant already covers is dropped (a function reading the whole table needs no separate
 * grant to read API client records), so the policy holds no redundant statement.
 */
export function mergeAccess(...parts: Access[]): Access {
  const grants = parts.flatMap((p) => p.table ?? [])
  const kept: TableGrant[] = []
  grants.forEach((grant, i) => {
    const redundant = grants.some(
      (other, j) => j !== i && covers(other, grant) && (!sameGrant(other, grant) || j < i),
    )
    if (!redundant) {
      kept.push({
        actions: union(grant.actions),
        ...(grant.keys ? { keys: union(grant.keys) } : {}),
        ...(grant.indexes?.length ? { indexes: union(grant.indexes) } : {}),
      })
    }
  })
  const merged: Access = {}
  if (kept.length) merged.table = kept
  const decrypt = union(...parts.map((p) => p.decrypt))
  const encrypt = union(...parts.map((p) => p.encrypt))
  const secrets = union(...parts.map((p) => p.secrets))
  const queues = union(...parts.map((p) => p.queues))
  if (decrypt.length) merged.decrypt = decrypt
  if (encrypt.length) merged.encrypt = encrypt
  if (secrets.length) merged.secrets = secrets
  if (queues.length) merged.queues = queues
  if (parts.some((p) => p.email)) merged.email = true
  return merged
}
