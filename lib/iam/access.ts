import type { QueueName } from '#lib/async/queue.ts'
import type { IndexName } from '#lib/db/table.ts'
import type { ServiceSecret } from '#lib/http/route.ts'

/**
 * What a function may do in AWS, as its declaration states it: the one description the IAM policy
 * (infra) and every local run's guard (lib/iam/local-guard.ts) are both made from.
 */

export type TableAction =
  | 'GetItem'
  | 'BatchGetItem'
  | 'Query'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'ConditionCheckItem'
  | 'BatchWriteItem'

export interface TableGrant {
  actions: readonly TableAction[]
  /** Partition-key prefixes the grant is limited to (IAM: ForAllValues:StringLike dynamodb:LeadingKeys `<prefix>*`). Absent: every key. */
  keys?: readonly string[]
  /** Indexes the grant's reads may use; absent: the table only. */
  indexes?: readonly IndexName[]
}

/** The encryption context's `record` of each sealed field kind. */
export type EncryptionRecord = 'api-client' | 'switch-client' | 'invoice' | 'webhook-subscription'

export interface Access {
  table?: readonly TableGrant[]
  decrypt?: readonly EncryptionRecord[]
  encrypt?: readonly EncryptionRecord[]
  secrets?: readonly ServiceSecret[]
  queues?: readonly QueueName[]
  email?: boolean
}

const union = <T>(...lists: (readonly T[] | undefined)[]): T[] | undefined => {
  const all = [...new Set(lists.flatMap((l) => l ?? []))]
  return all.length ? all : undefined
}

/** Everything any of the parts allows. */
export function mergeAccess(...parts: Access[]): Access {
  const out: Access = {}
  const table = parts.flatMap((p) => p.table ?? [])
  if (table.length) out.table = table
  const decrypt = union(...parts.map((p) => p.decrypt))
  if (decrypt) out.decrypt = decrypt
  const encrypt = union(...parts.map((p) => p.encrypt))
  if (encrypt) out.encrypt = encrypt
  const secrets = union(...parts.map((p) => p.secrets))
  if (secrets) out.secrets = secrets
  const queues = union(...parts.map((p) => p.queues))
  if (queues) out.queues = queues
  if (parts.some((p) => p.email)) out.email = true
  return out
}
