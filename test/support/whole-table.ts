import { ScanCommand } from '@aws-sdk/lib-dynamodb'
import { db, tableName } from '#lib/platform/db/client.ts'

/**
 * Every item of the test's table, as stored, as one JSON text: for tests that look for what must be
 * stored nowhere (a secret in plain text). A test may Scan; a request path never does.
 */
export async function wholeTable(): Promise<string> {
  const items: unknown[] = []
  let start: Record<string, unknown> | undefined
  do {
    const page = await db().send(new ScanCommand({ TableName: tableName(), ExclusiveStartKey: start }))
    items.push(...(page.Items ?? []))
    start = page.LastEvaluatedKey
  } while (start)
  return JSON.stringify(items)
}
