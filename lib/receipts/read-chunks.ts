import { readMany } from '#lib/platform/db/batch.ts'
import type { Key } from '#lib/platform/db/keys.ts'

/** BatchGetItem takes at most 100 keys: readMany's consistent reads, 100 keys a call, side by side. */
export async function readInChunks(wanted: Key[]): Promise<Map<string, Record<string, unknown>>> {
  const chunks: Key[][] = []
  for (let i = 0; i < wanted.length; i += 100) chunks.push(wanted.slice(i, i + 100))
  const found = new Map<string, Record<string, unknown>>()
  for (const part of await Promise.all(chunks.map(readMany))) for (const [k, v] of part) found.set(k, v)
  return found
}
