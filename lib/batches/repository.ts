import { randomUUID } from 'node:crypto'
import { PutCommand } from '@aws-sdk/lib-dynamodb'
import type { Role } from '#lib/platform/http/route.ts'
import { db, tableName } from '#lib/platform/db/client.ts'
import { queryAll } from '#lib/platform/db/query.ts'
import { writeIf } from '#lib/platform/db/write.ts'
import { putAll } from '#lib/platform/db/batch.ts'
import { recordOf } from '#lib/platform/db/items.ts'
import { withAttributes } from '#lib/platform/db/index-reads.ts'
import { BATCH_PREFIX, keys } from '#lib/platform/db/keys.ts'
import { TTL_ATTRIBUTE } from '#lib/platform/db/table.ts'
import { packValue, unpackValue } from '#lib/invoice/packed-json.ts'
import type { ApiVersion } from '#lib/invoice/schemas.ts'

/**
 * A batch submission (CONTRACT section 11), in its own partition: one item per invoice, written
 * first, then the header, written last with attribute_not_exists. The header is the commit point:
 * its insertion on the table's stream starts the worker (lib/service/consumers.ts), and a POST that stopped
 * before it leaves only unreferenced items, removed by their TTL. Each item's status moves PENDING ->
 * SUCCEEDED | FAILED exactly once, in the same transaction as the invoice write it reports.
 */
export type BatchStatus = 'ACCEPTED' | 'PROCESSING' | 'COMPLETED'
export type ItemStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED'
export type BatchAction = 'validate' | 'sign'

export interface BatchHeader {
  batchId: string
  businessId: string
  /** The submitting client, so each item is handled as its own request would have been. */
  apiKeyId: string
  roles: Role[]
  validationMode?: 'strict' | 'lenient'
  modeHeader?: string
  version: ApiVersion
  action: BatchAction
  total: number
  status: BatchStatus
  succeeded?: number
  failed?: number
  createdAt: string
  completedAt?: string
}

export interface BatchItem {
  batchId: string
  index: number
  /** The invoice's irn as sent, when it is a string (for the listing; the worker checks it). */
  irn: string | null
  status: ItemStatus
  /** The invoice as sent, compressed JSON (lib/invoice/packed-json.ts; an item must stay under 400 KB). */
  invoiceGzip: Uint8Array
  httpStatus?: number
  reply?: Record<string, unknown>
  message?: string
  errors?: unknown[]
  /** Times the worker has taken the item up (lib/batches/worker.ts bounds them). */
  attempts?: number
}

export type ItemResult =
  | { status: 'SUCCEEDED'; httpStatus: number; reply: Record<string, unknown> }
  | { status: 'FAILED'; httpStatus: number; message: string; errors: unknown[] }

const RETENTION_SECONDS = 30 * 24 * 3600
const expiresAt = () => Math.floor(Date.now() / 1000) + RETENTION_SECONDS

export async function createBatch(
  header: Omit<BatchHeader, 'batchId' | 'total' | 'status' | 'createdAt'>,
  invoices: unknown[],
): Promise<BatchHeader> {
  const batchId = randomUUID()
  const ttl = expiresAt()
  await putAll(
    invoices.map((invoice, index) => {
      const irn = (invoice as { irn?: unknown } | null)?.irn
      const item: BatchItem = {
        batchId,
        index,
        irn: typeof irn === 'string' ? irn : null,
        status: 'PENDING',
        invoiceGzip: packValue(invoice),
      }
      return { ...keys.batchItem(batchId, index), entity: 'BATCH_ITEM', ...item, [TTL_ATTRIBUTE]: ttl }
    }),
  )
  const stored: BatchHeader = {
    ...header,
    batchId,
    total: invoices.length,
    status: 'ACCEPTED',
    createdAt: new Date().toISOString(),
  }
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.batch(batchId),
        ...keys.batchByBusiness(stored.businessId, stored.createdAt, batchId),
        entity: 'BATCH',
        ...stored,
        [TTL_ATTRIBUTE]: ttl,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  )
  return stored
}

export const isBatchHeader = (item: Record<string, unknown>) =>
  item.entity === 'BATCH' && typeof item.pk === 'string' && item.pk.startsWith(BATCH_PREFIX)

export const invoiceOfItem = (item: BatchItem): unknown => unpackValue(item.invoiceGzip)

/** The header and its items in index order; undefined when there is no such batch. */
export async function readBatch(
  batchId: string,
): Promise<{ header: BatchHeader; items: BatchItem[] } | undefined> {
  let header: BatchHeader | undefined
  const items: BatchItem[] = []
  const stored = await queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.batchPartition(batchId) },
    ConsistentRead: true,
  })
  for (const item of stored) {
    if (item.entity === 'BATCH') header = recordOf<BatchHeader>(item)
    else items.push(recordOf<BatchItem>(item))
  }
  if (!header) return undefined
  return { header, items: items.sort((a, b) => a.index - b.index) }
}

/** The Update that records an item's result, only while it is PENDING (so exactly once). */
export function itemResultUpdate(item: Pick<BatchItem, 'batchId' | 'index'>, result: ItemResult) {
  const fields = Object.entries(result)
  return {
    TableName: tableName(),
    Key: keys.batchItem(item.batchId, item.index),
    UpdateExpression: `SET ${fields.map(([name]) => `#${name} = :${name}`).join(', ')}`,
    ConditionExpression: '#status = :pending',
    ExpressionAttributeNames: Object.fromEntries(fields.map(([name]) => [`#${name}`, name])),
    ExpressionAttributeValues: {
      ':pending': 'PENDING',
      ...Object.fromEntries(fields.map(([name, value]) => [`:${name}`, value])),
    },
  }
}

/** Records an item's result on its own; false when it already had one. */
export async function recordItemResult(...args: Parameters<typeof itemResultUpdate>): Promise<boolean> {
  return (await writeIf({ Update: itemResultUpdate(...args) })).written
}

/**
 * What an item may hold beside its keys and names: DynamoDB's 400 KB item limit, less room for the
 * keys, the attribute names and the small fields.
 */
export const ITEM_RESULT_ROOM_BYTES = 400 * 1024 - 4 * 1024

/**
 * The bytes the item would hold with `result`: its stored invoice and the result's JSON (DynamoDB
 * counts a map's names and values, about what its JSON spells).
 */
export const itemBytesWith = (item: Pick<BatchItem, 'invoiceGzip'>, result: ItemResult): number =>
  Buffer.from(item.invoiceGzip).byteLength + Buffer.byteLength(JSON.stringify(result), 'utf8')

/**
 * Takes the item up once more: its attempt count after this one, or undefined when it has its
 * result already (another run finished it).
 */
export async function claimAttempt(item: Pick<BatchItem, 'batchId' | 'index'>): Promise<number | undefined> {
  const claimed = await writeIf({
    Update: {
      Key: keys.batchItem(item.batchId, item.index),
      UpdateExpression: 'ADD attempts :one',
      ConditionExpression: '#status = :pending',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':one': 1, ':pending': 'PENDING' },
      ReturnValues: 'UPDATED_NEW',
    },
  })
  return claimed.written ? Number(claimed.attributes?.attempts) : undefined
}

/** ACCEPTED -> PROCESSING when the worker starts (only once; a retry finds it moved). */
export async function markProcessing(batchId: string): Promise<void> {
  await writeIf({
    Update: {
      Key: keys.batch(batchId),
      UpdateExpression: 'SET #status = :processing',
      ConditionExpression: '#status = :accepted',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':processing': 'PROCESSING', ':accepted': 'ACCEPTED' },
    },
  })
}

/** A business's batches (headers only), oldest first. */
export async function batchesOf(businessId: string): Promise<BatchHeader[]> {
  const listed = await queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.batchBusinessPartition(businessId) },
  })
  // The index holds a batch's keys only (a CLI and test listing): the headers are read after it.
  const items = await withAttributes<Record<string, unknown>>('gsi1', 'item', listed)
  return items.map((item) => recordOf<BatchHeader>(item))
}
