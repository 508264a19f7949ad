import { GetCommand } from '@aws-sdk/lib-dynamodb'
import { db, tableName } from './client.ts'
import { tableDefinition } from './table.ts'

/** Every key attribute of the table (pk, sk and each GSI's pair): storage detail, not record data. */
const KEY_ATTRIBUTES = new Set<string>([
  tableDefinition.partitionKey,
  tableDefinition.sortKey,
  ...tableDefinition.globalSecondaryIndexes.flatMap((i) => [i.partitionKey, i.sortKey]),
])

/** The record an item holds, without the key attributes it is stored and indexed under. */
export function recordOf<T>(item: Record<string, unknown>): T {
  return Object.fromEntries(Object.entries(item).filter(([name]) => !KEY_ATTRIBUTES.has(name))) as T
}

/** The record stored under a key, or undefined. `consistent` for reads that decide a write. */
export async function readRecord<T>(
  key: { pk: string; sk: string },
  { consistent = false }: { consistent?: boolean } = {},
): Promise<T | undefined> {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: consistent }),
  )
  return out.Item ? recordOf<T>(out.Item) : undefined
}
