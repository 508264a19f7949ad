/**
 * Every key string in the table is composed here and nowhere else, so the access patterns of the
 * whole service can be read in one file. Each builder returns the full key (pk/sk, and GSI keys where
 * the item is indexed).
 */
export interface Key {
  pk: string
  sk: string
}

export const keys = {
  /** Reference lists: one META item and the list's JSON in ordered chunks (items stay under 400 KB). */
  referenceMeta: (list: string): Key => ({ pk: `REF#${list}`, sk: 'META' }),
  /** Chunks are keyed by the load's revision, so a reload never mixes old and new rows. */
  referenceChunk: (list: string, revision: string, index: number): Key => ({
    pk: `REF#${list}`,
    sk: `CHUNK#${revision}#${String(index).padStart(4, '0')}`,
  }),
  referenceChunkPrefix: (revision: string) => `CHUNK#${revision}#`,

  /** The health check's round trip reads this key (it need not exist). */
  healthProbe: (): Key => ({ pk: 'HEALTH', sk: 'PROBE' }),
} as const
