import { GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb'
import { db, tableName } from '#lib/db/client.ts'
import { keys } from '#lib/db/keys.ts'
import { queryPages } from '#lib/db/query.ts'
import { type HistoryHead, type HistoryItem, headOf } from './items.ts'

/**
 * Reads of a merchant's history. Every read goes through a meter so that the benchmark (and anyone
 * curious) can see exactly how many items a page cost: `pageItems` for the page itself (DynamoDB's
 * ScannedCount), `otherItems` for the head, date boundaries and reversal blocks.
 */
export interface ReadMeter {
  pageItems: number
  otherItems: number
  requests: number
}

export const newMeter = (): ReadMeter => ({ pageItems: 0, otherItems: 0, requests: 0 })

async function query(input: Omit<QueryCommandInput, 'TableName'>, meter: ReadMeter, kind: 'page' | 'other') {
  const out = await db().send(new QueryCommand({ TableName: tableName(), ...input }))
  meter.requests++
  if (kind === 'page') meter.pageItems += out.ScannedCount ?? 0
  else meter.otherItems += out.ScannedCount ?? 0
  return out
}

export async function readHead(merchantId: string, meter: ReadMeter): Promise<HistoryHead> {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.historyHead(merchantId), ConsistentRead: true }),
  )
  meter.requests++
  meter.otherItems += out.Item ? 1 : 0
  return headOf(out.Item)
}

/** The newest item created at or before `beforeLocal` (exclusive bound), by the time index. */
export async function lastItemBefore(
  merchantId: string,
  beforeLocal: string,
  meter: ReadMeter,
): Promise<HistoryItem | undefined> {
  const out = await query(
    {
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk < :before',
      ExpressionAttributeValues: { ':pk': keys.historyTimePartition(merchantId), ':before': beforeLocal },
      ScanIndexForward: false,
      Limit: 1,
    },
    meter,
    'other',
  )
  return out.Items?.[0] as HistoryItem | undefined
}

/** A key range of the ALL list (main table, strongly consistent), newest first. */
export async function allRange(
  merchantId: string,
  bottom: number,
  top: number,
  meter: ReadMeter,
): Promise<HistoryItem[]> {
  const out = await query(
    {
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :bottom AND :top',
      ExpressionAttributeValues: {
        ':pk': keys.historyHead(merchantId).pk,
        ':bottom': keys.historySeqKey(bottom),
        ':top': keys.historySeqKey(top),
      },
      ScanIndexForward: false,
      ConsistentRead: true,
      Limit: top - bottom + 1,
    },
    meter,
    'page',
  )
  return (out.Items ?? []) as HistoryItem[]
}

/** A key range of one status partition (gsi1), newest first, at most `limit` items. */
export async function statusRange(
  merchantId: string,
  status: string,
  bottom: number,
  top: number,
  limit: number,
  meter: ReadMeter,
): Promise<HistoryItem[]> {
  const out = await query(
    {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :bottom AND :top',
      ExpressionAttributeValues: {
        ':pk': keys.historyStatusPartition(merchantId, status),
        ':bottom': keys.seqKey(bottom),
        ':top': keys.seqKey(top),
      },
      ScanIndexForward: false,
      Limit: limit,
    },
    meter,
    'page',
  )
  return (out.Items ?? []) as HistoryItem[]
}

/** The reversed seqOk numbers recorded in one block, newest first. */
export async function readReversalBlock(
  merchantId: string,
  block: number,
  meter: ReadMeter,
): Promise<number[]> {
  const out = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.historyReversalBlock(merchantId, block),
      ConsistentRead: true,
    }),
  )
  meter.requests++
  if (!out.Item) return []
  meter.otherItems++
  return [...((out.Item.seqs as Set<number> | undefined) ?? [])].sort((a, b) => b - a)
}

/** Every item carrying a merchantReference (a reference names one payment and its retries: a handful). */
export async function byReference(
  merchantId: string,
  reference: string,
  meter: ReadMeter,
): Promise<HistoryItem[]> {
  const items: HistoryItem[] = []
  for await (const page of queryPages({
    IndexName: 'gsi3',
    KeyConditionExpression: 'gsi3pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.historyReferencePartition(merchantId, reference) },
    ScanIndexForward: false,
    Limit: 100,
  })) {
    meter.requests++
    meter.pageItems += page.ScannedCount ?? 0
    items.push(...((page.Items ?? []) as HistoryItem[]))
  }
  return items
}

/** The item a providerReference points to, if it is this merchant's. */
export async function byProviderReference(
  merchantId: string,
  reference: string,
  meter: ReadMeter,
): Promise<HistoryItem | undefined> {
  const pointer = (
    await db().send(
      new GetCommand({
        TableName: tableName(),
        Key: keys.providerReference(reference),
        ConsistentRead: true,
      }),
    )
  ).Item
  meter.requests++
  if (!pointer) return undefined
  meter.otherItems++
  // Not this merchant's, or not in the history yet (the indexer adds seqAll within moments).
  if (pointer.merchantId !== merchantId || typeof pointer.seqAll !== 'number') return undefined
  const item = (
    await db().send(
      new GetCommand({
        TableName: tableName(),
        Key: keys.historyItem(merchantId, pointer.seqAll as number),
        ConsistentRead: true,
      }),
    )
  ).Item
  meter.requests++
  if (item) meter.pageItems++
  return item as HistoryItem | undefined
}
