import {
  paginateQuery,
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
