import { createHash, randomBytes } from 'node:crypto'
import { BatchWriteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { queryAll } from '#lib/platform/db/query.ts'

/** A list's META item: which revision is current, and what HTTP caching needs. */
export interface ListHead {
  name: string
  revision: string
  chunkCount: number
  version: string
  sourceDate: string
  complete: boolean
  source: string
  records: number
  /** A strong validator over the list's content. */
  etag: string
  /** HTTP date of the source date. */
  lastModified: string
  loadedAt: string
}

export interface StoredList extends ListHead {
  rows: unknown[]
}

/** Chunks stay well under DynamoDB's 400 KB item limit. */
const CHUNK_BYTES = 300_000

function chunkRows(rows: unknown[]): string[] {
  const chunks: string[] = []
  let current: string[] = []
  let size = 2
  for (const row of rows) {
    const json = JSON.stringify(row)
    if (current.length && size + json.length + 1 > CHUNK_BYTES) {
      chunks.push(`[${current.join(',')}]`)
      current = []
      size = 2
    }
    current.push(json)
    size += json.length + 1
  }
  chunks.push(`[${current.join(',')}]`)
  return chunks
}

async function batchWrite(items: object[], kind: 'put' | 'delete') {
  for (let i = 0; i < items.length; i += 25) {
    let pending: Record<string, unknown>[] | undefined = items
      .slice(i, i + 25)
      .map((item) => (kind === 'put' ? { PutRequest: { Item: item } } : { DeleteRequest: { Key: item } }))
    // BatchWrite may hand back unprocessed items under load: keep offering them until none are left.
    while (pending?.length) {
      const out = await db().send(
        new BatchWriteCommand({ RequestItems: { [tableName()]: pending as never } }),
      )
      pending = out.UnprocessedItems?.[tableName()] as Record<string, unknown>[] | undefined
    }
  }
}

export interface ListSource {
  version: string
  sourceDate: string
  complete: boolean
  source: string
}

let writesHere = 0
/**
 * How many lists this process has stored: a container that loads a list itself (the CLI, the local
 * server's tests) sees it at once instead of after the code-list cache bound (lib/invoice/code-lists.ts).
 */
export const listWritesInThisProcess = () => writesHere

/**
 * Stores a list as a new revision: chunks first, then the META item that points at them (one atomic
 * put, so a reader sees the old list or the new one, never a mixture), then the old chunks go.
 */
export async function writeList(name: string, rows: unknown[], source: ListSource): Promise<ListHead> {
  const previous = await readHead(name)
  const revision = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`
  const chunks = chunkRows(rows)
  await batchWrite(
    chunks.map((data, index) => ({ ...keys.referenceChunk(name, revision, index), data })),
    'put',
  )
  const head: ListHead = {
    name,
    revision,
    chunkCount: chunks.length,
    ...source,
    records: rows.length,
    etag: `"${createHash('sha256').update(chunks.join('\n')).digest('base64url').slice(0, 27)}"`,
    lastModified: new Date(`${source.sourceDate}T00:00:00Z`).toUTCString(),
    loadedAt: new Date().toISOString(),
  }
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...keys.referenceMeta(name), ...head } }))
  writesHere++
  if (previous) {
    await batchWrite(
      Array.from({ length: previous.chunkCount }, (_, i) => keys.referenceChunk(name, previous.revision, i)),
      'delete',
    )
  }
  return head
}

export async function readHead(name: string): Promise<ListHead | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: keys.referenceMeta(name) }))
  if (!out.Item) return undefined
  const { pk: _pk, sk: _sk, ...head } = out.Item
  return head as ListHead
}

/** Parsed lists by name, kept while their ETag is current: a warm function reads one small item. */
const cache = new Map<string, StoredList>()

async function readRows(head: ListHead): Promise<unknown[]> {
  const chunks = await queryAll<{ data: string }>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: {
      ':pk': keys.referenceMeta(head.name).pk,
      ':prefix': keys.referenceChunkPrefix(head.revision),
    },
  })
  return chunks.flatMap((chunk) => JSON.parse(chunk.data) as unknown[])
}

/** The list with its rows, or undefined when it has never been loaded into this table. */
export async function readList(name: string, head?: ListHead): Promise<StoredList | undefined> {
  const current = head ?? (await readHead(name))
  if (!current) return undefined
  const cached = cache.get(name)
  if (cached && cached.etag === current.etag) return cached
  const list = { ...current, rows: await readRows(current) }
  cache.set(name, list)
  return list
}
