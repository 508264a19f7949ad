import manifest from '../../data/reference/manifest.json' with { type: 'json' }
import type { ReferenceListName } from '#lib/reference/lists.ts'

export interface ListMeta {
  file: string
  version: string
  /** The date of the data at its source (YYYY-MM-DD). */
  sourceDate: string
  records: number
  /** False where only part of the authority's list is public (the LGAs). */
  complete: boolean
  source: string
}

/** The bundled lists' metadata. The data itself is loaded into DynamoDB, not bundled into functions. */
export const bundledLists = manifest as Record<ReferenceListName, ListMeta>
