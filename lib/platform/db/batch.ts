import { BatchGetCommand, BatchWriteCommand } from '@aws-sdk/lib-dynamodb'
import { db, tableName } from './client.ts'
import { assertWriteFits } from './write.ts'
import type { Key } from './keys.ts'

/**
 * Batch reads and writes, with DynamoDB's unprocessed keys and items sent again (after a short,
 * growing pause) until none is left: a batch call may do only part of its work under load.
 */
const keyId = (key: Key) => `${key.pk}\u0000${key.sk}`

const pause = (round: number, capMs: number, stepMs: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.min(capMs, stepMs * 2 ** round)))

/**
 * Reads of several items, 100 to a BatchGetItem (its most), strongly consistent unless `consistent`
 * is false. Returns the items found by key (absent keys are simply missing from the map: read them
 * with `itemAt`).
 */
export async function readMany(
  wanted: Key[],
  { consistent = true }: { consistent?: boolean } = {},
): Promise<Map<string, Record<string, unknown>>> {
  const found = new Map<string, Record<string, unknown>>()
  const unique = [...new Map(wanted.map((k) => [keyId(k), { pk: k.pk, sk: k.sk }])).values()]
  const chunks: Key[][] = []
  for (let i = 0; i < unique.length; i += 100) chunks.push(unique.slice(i, i + 100))
  await Promise.all(
    chunks.map(async (chunk) => {
      let pending = chunk
      for (let round = 0; pending.length > 0; round++) {
        const out = await db().send(
          new BatchGetCommand({
            RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: consistent } },
          }),
        )
        for (const item of out.Responses?.[tableName()] ?? []) found.set(keyId(item as Key), item)
        pending = (out.UnprocessedKeys?.[tableName()]?.Keys ?? []) as Key[]
        if (pending.length && round > 0) await pause(round, 200, 10)
      }
    }),
  )
  return found
}

/** The item `readMany` found under a key, or undefined. */
export const itemAt = <T>(found: Map<string, Record<string, unknown>>, key: Key) =>
  found.get(keyId(key)) as T | undefined

/** Puts every item, 25 to a BatchWriteItem (its most), the batches side by side. */
export async function putAll(items: Record<string, unknown>[]): Promise<void> {
  for (const Item of items) assertWriteFits({ Put: { Item } })
  const chunks: Record<string, unknown>[][] = []
  for (let i = 0; i < items.length; i += 25) chunks.push(items.slice(i, i + 25))
  await Promise.all(
    chunks.map(async (chunk) => {
      let pending = chunk.map((Item) => ({ PutRequest: { Item } }))
      for (let round = 0; pending.length; round++) {
        if (round > 0) await pause(round, 1000, 20)
        const out = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }))
        pending = (out.UnprocessedItems?.[tableName()] ?? []) as typeof pending
      }
    }),
  )
}
