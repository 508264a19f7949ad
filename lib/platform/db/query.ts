import {
  paginateQuery,
  QueryCommand,
  paginateScan,
  type QueryCommandInput,
  type QueryCommandOutput,
  type ScanCommandInput,
  type ScanCommandOutput,
} from '@aws-sdk/lib-dynamodb'
import { db, tableName } from './client.ts'

/**
 * Reading past DynamoDB's 1 MB (or `Limit`) page, in one place: the SDK's own paginators follow
 * LastEvaluatedKey, so no module writes that loop by hand. TableName defaults to the service's table.
 */
type Input<T extends { TableName?: string }> = Omit<T, 'TableName'> & { TableName?: string }

/** Every page of a Query, in order, for callers that look at each page (its counts, its items). */
export function queryPages(input: Input<QueryCommandInput>): AsyncIterable<QueryCommandOutput> {
  return paginateQuery({ client: db() }, { TableName: tableName(), ...input })
}

/** Every item a Query matches, across all its pages. */
export async function queryAll<T = Record<string, unknown>>(input: Input<QueryCommandInput>): Promise<T[]> {
  const items: T[] = []
  for await (const page of queryPages(input)) items.push(...((page.Items ?? []) as T[]))
  return items
}

/** Every page of a Scan (whole-table jobs: migrations, reconciliation). */
export function scanPages(input: Input<ScanCommandInput> = {}): AsyncIterable<ScanCommandOutput> {
  return paginateScan({ client: db() }, { TableName: tableName(), ...input })
}

/**
 * Up to `limit` items of a Query, in its order, following DynamoDB's pages (a page ends at 1 MB
 * before `limit`), each page asking only for the items still wanted. `onPage` sees each page as read
 * (for callers that meter what a request cost).
 */
export async function queryUpTo<T = Record<string, unknown>>(
  input: Input<QueryCommandInput>,
  limit: number,
  onPage?: (page: QueryCommandOutput) => void,
): Promise<T[]> {
  const items: T[] = []
  let start: Record<string, unknown> | undefined
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        ...input,
        Limit: limit - items.length,
        ExclusiveStartKey: start,
      }),
    )
    onPage?.(page)
    items.push(...((page.Items ?? []) as T[]))
    start = page.LastEvaluatedKey
  } while (start && items.length < limit)
  return items
}

/**
 * One page of `size` items from one Query of `size + 1`: the extra item only says there is a next
 * page (`more`), whose cursor is the page's last item, so a page costs the same however deep. A
 * 1 MB page that ended before `size + 1` also means more (fewer items than asked, with a next key).
 */
export async function queryPage<T = Record<string, unknown>>(
  input: Input<QueryCommandInput>,
  size: number,
): Promise<{ items: T[]; more: boolean }> {
  const out = await db().send(new QueryCommand({ TableName: tableName(), ...input, Limit: size + 1 }))
  const read = (out.Items ?? []) as T[]
  const items = read.slice(0, size)
  return { items, more: read.length > size || (out.LastEvaluatedKey !== undefined && items.length > 0) }
}
