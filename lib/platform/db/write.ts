import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { db, tableName } from './client.ts'
import { isConditionFailed } from './errors.ts'
import { assertItemFits } from './item-size.ts'
import type { TransactItem } from './transact.ts'

/** A transaction item's action, whose table is the service's unless it says otherwise. */
type Action<K extends 'Put' | 'Update' | 'Delete'> = Omit<NonNullable<TransactItem[K]>, 'TableName'> & {
  TableName?: string
}
type Put = Action<'Put'>
type Update = Action<'Update'> & { ReturnValues?: 'ALL_NEW' | 'ALL_OLD' | 'UPDATED_NEW' | 'UPDATED_OLD' }
type Delete = Action<'Delete'>

/** One conditional write, in a transaction item's shape (so one builder serves both). TableName defaults. */
export type Write = { Put: Put } | { Update: Update } | { Delete: Delete }

export type Written = { written: true; attributes: Record<string, unknown> | undefined } | { written: false }

/**
 * A Put, Update or Delete whose failed condition is an answer (`written: false`), not an exception:
 * a failed condition is the "already there" or "not in that state any more" a writer decides on,
 * so callers write no try/catch around it. Every other error is thrown.
 */
export async function writeIf(write: Write): Promise<Written> {
  assertWriteFits(write)
  try {
    const out =
      'Put' in write
        ? await db().send(new PutCommand({ ...write.Put, TableName: write.Put.TableName ?? tableName() }))
        : 'Update' in write
          ? await db().send(
              new UpdateCommand({ ...write.Update, TableName: write.Update.TableName ?? tableName() }),
            )
          : await db().send(
              new DeleteCommand({ ...write.Delete, TableName: write.Delete.TableName ?? tableName() }),
            )
    return { written: true, attributes: out.Attributes }
  } catch (error) {
    if (isConditionFailed(error)) return { written: false }
    throw error
  }
}

/**
 * A write's item (a Put) or the values it sets (an Update) within DynamoDB's item limit, sized
 * before anything is written (./item-size.ts); the record is named by its sort key's first word.
 */
export function assertWriteFits(write: Write | TransactItem): void {
  if ('Put' in write && write.Put) assertItemFits(write.Put.Item, recordName(write.Put.Item))
  else if ('Update' in write && write.Update) {
    assertItemFits(write.Update.ExpressionAttributeValues, recordName(write.Update.Key))
  }
}

const recordName = (key: Record<string, unknown> | undefined) =>
  String(key?.pk ?? 'record')
    .split('#')[0]!
    .toLowerCase() || 'record'

/**
 * A transaction's item as a write of its own, for a writer that commits some items together and
 * writes others after them (lib/platform/audit/trail.ts). A ConditionCheck writes nothing: refused.
 */
export function writeOf(item: TransactItem): Write {
  if (item.Put) return { Put: item.Put }
  if (item.Update) return { Update: item.Update }
  if (item.Delete) return { Delete: item.Delete }
  throw new Error('A ConditionCheck is no write of its own')
}
