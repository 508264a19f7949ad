import { itemAt, readMany } from './batch.ts'
import type { Key } from './keys.ts'
import { type IndexName, indexNamed, projects } from './table.ts'

/**
 * The items an index Query found, holding what the reader reads. An index holds the keys and what
 * its listings show (lib/platform/db/table.ts LISTED); a reader that reads more names it here, and
 * the items are then read from the table (one BatchGetItem per 100, eventually consistent as the
 * index is, in the index's order; an item deleted meanwhile is left out). `reads: 'item'` reads
 * whole items. A reader whose attributes the index projects (every reader, while the indexes project
 * ALL) pays nothing more.
 */
export async function withAttributes<T>(
  index: IndexName,
  reads: readonly string[] | 'item',
  found: readonly object[],
): Promise<T[]> {
  if (reads === 'item' ? indexNamed(index).projection.type === 'ALL' : projects(index, reads))
    return found as T[]
  if (found.length === 0) return []
  const at = (item: object): Key => {
    const { pk, sk } = item as Key
    return { pk, sk }
  }
  const items = await readMany(found.map(at), { consistent: false })
  return found.map((item) => itemAt<T>(items, at(item))).filter((item): item is T => item !== undefined)
}
