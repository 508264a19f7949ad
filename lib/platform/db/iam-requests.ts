import type { DynamoItemRequest } from '#lib/platform/aws-guard.ts'
import { tableDefinition } from './table.ts'

/**
 * What IAM authorises in one DynamoDB command: its action, table or index and partition key, item by
 * item for transactions and batches (lib/platform/iam/access.ts says how IAM reads each). Works on the
 * document client's plain values and on the low-level client's AttributeValues alike.
 */

// biome-ignore lint/suspicious/noExplicitAny: any SDK command input, read field by field as IAM reads it
type Input = Record<string, any>

/** A key attribute's string: a plain value (document client) or `{S: ...}` (low-level client). */
function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (value && typeof value === 'object' && typeof (value as { S?: unknown }).S === 'string') {
    return (value as { S: string }).S
  }
  return undefined
}

const PK = tableDefinition.partitionKey
const leadingKeyOf = (keyOrItem: Input | undefined) => text(keyOrItem?.[PK])

/**
 * The partition-key value a Query's key condition names: `<name> = :value`, where the name may be an
 * expression attribute name (`#pk`). Legacy KeyConditions are read too.
 */
function queryLeadingKey(input: Input): string | undefined {
  const index = tableDefinition.globalSecondaryIndexes.find((i) => i.indexName === input.IndexName)
  const attribute = index ? index.partitionKey : PK
  if (input.KeyConditions?.[attribute]) return text(input.KeyConditions[attribute].AttributeValueList?.[0])
  const expression: string = input.KeyConditionExpression ?? ''
  const aliases = Object.entries((input.ExpressionAttributeNames ?? {}) as Record<string, string>)
    .filter(([, name]) => name === attribute)
    .map(([alias]) => alias)
  for (const name of [attribute, ...aliases]) {
    const escaped = name.replace(/[#.*+?^${}()|[\]\\]/g, '\\$&')
    const match = new RegExp(`(?:^|[\\s(])${escaped}\\s*=\\s*(:[A-Za-z0-9_]+)`).exec(expression)
    if (match) return text(input.ExpressionAttributeValues?.[match[1]!])
  }
  return undefined
}

/** `PutCommand` and `PutItemCommand` alike -> `PutItem`. */
const ACTIONS: Record<string, string> = {
  Get: 'GetItem',
  GetItem: 'GetItem',
  Put: 'PutItem',
  PutItem: 'PutItem',
  Update: 'UpdateItem',
  UpdateItem: 'UpdateItem',
  Delete: 'DeleteItem',
  DeleteItem: 'DeleteItem',
  Query: 'Query',
  Scan: 'Scan',
  BatchGet: 'BatchGetItem',
  BatchGetItem: 'BatchGetItem',
  BatchWrite: 'BatchWriteItem',
  BatchWriteItem: 'BatchWriteItem',
  TransactWrite: 'TransactWriteItems',
  TransactWriteItems: 'TransactWriteItems',
  TransactGet: 'TransactGetItems',
  TransactGetItems: 'TransactGetItems',
}

/** Each item-level request of the command named `commandName` (the SDK's, e.g. `BatchWriteCommand`). */
export function requestsOf(commandName: string, input: Input): DynamoItemRequest[] {
  const action = ACTIONS[commandName.replace(/Command$/, '')] ?? commandName.replace(/Command$/, '')
  switch (action) {
    case 'GetItem':
    case 'DeleteItem':
    case 'UpdateItem':
      return [{ action, table: input.TableName, leadingKey: leadingKeyOf(input.Key) }]
    case 'PutItem':
      return [{ action, table: input.TableName, leadingKey: leadingKeyOf(input.Item) }]
    case 'Query':
      return [
        {
          action,
          table: input.TableName,
          ...(input.IndexName ? { index: input.IndexName } : {}),
          leadingKey: queryLeadingKey(input),
        },
      ]
    case 'Scan':
      return [{ action, table: input.TableName, ...(input.IndexName ? { index: input.IndexName } : {}) }]
    case 'BatchGetItem':
      return Object.entries((input.RequestItems ?? {}) as Record<string, { Keys?: Input[] }>).flatMap(
        ([table, request]) =>
          (request.Keys ?? []).map((key) => ({ action, table, leadingKey: leadingKeyOf(key) })),
      )
    case 'BatchWriteItem':
      return Object.entries((input.RequestItems ?? {}) as Record<string, Input[]>).flatMap(
        ([table, writes]) =>
          writes.map((write) => ({
            action,
            table,
            leadingKey: leadingKeyOf(write.PutRequest?.Item ?? write.DeleteRequest?.Key),
          })),
      )
    // A transaction is authorised item by item under each item's own action.
    case 'TransactWriteItems':
      return ((input.TransactItems ?? []) as Input[]).map((item) => {
        if (item.Put)
          return { action: 'PutItem', table: item.Put.TableName, leadingKey: leadingKeyOf(item.Put.Item) }
        if (item.Update)
          return {
            action: 'UpdateItem',
            table: item.Update.TableName,
            leadingKey: leadingKeyOf(item.Update.Key),
          }
        if (item.Delete)
          return {
            action: 'DeleteItem',
            table: item.Delete.TableName,
            leadingKey: leadingKeyOf(item.Delete.Key),
          }
        const check = item.ConditionCheck ?? {}
        return { action: 'ConditionCheckItem', table: check.TableName, leadingKey: leadingKeyOf(check.Key) }
      })
    case 'TransactGetItems':
      return ((input.TransactItems ?? []) as Input[]).map((item) => ({
        action: 'GetItem',
        table: item.Get?.TableName,
        leadingKey: leadingKeyOf(item.Get?.Key),
      }))
    default:
      // DescribeTable, ListTables, CreateTable...: actions no function's Access holds, refused as such.
      return [{ action, table: input.TableName ?? '*' }]
  }
}
