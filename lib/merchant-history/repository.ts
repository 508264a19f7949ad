import { GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { queryPages } from '#lib/platform/db/query.ts'
import {
  type HistoryHead,
  type HistoryItem,
  headOf,
  historyItemKey,
  historyStripe,
  type ReferenceHead,
  referenceHeadOf,
  statusStripe,
  stripesOf,
} from './items.ts'

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

/** One item by its key, read strongly consistent and counted in the meter. */
async function readMeteredItem(key: { pk: string; sk: string }, meter: ReadMeter) {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))
  meter.requests++
  meter.otherItems += out.Item ? 1 : 0
  return out.Item
}

export async function readHead(merchantId: string, meter: ReadMeter): Promise<HistoryHead> {
  return headOf(await readMeteredItem(keys.historyHead(merchantId), meter))
}

/**
 * The newest item created before `beforeLocal` (exclusive bound), by the time index: the newest of
 * each stripe's, asked side by side (the time index sorts as the numbering does, in every stripe).
 */
export async function lastItemBefore(
  merchantId: string,
  head: HistoryHead,
  beforeLocal: string,
  meter: ReadMeter,
): Promise<HistoryItem | undefined> {
  const newest = await Promise.all(
    stripesOf(1, head.all, head.unstriped.all).map(async (stripe) => {
      const out = await query(
        {
          IndexName: 'gsi2',
          KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk < :before',
          ExpressionAttributeValues: {
            ':pk': keys.historyTimePartition(merchantId, stripe),
            ':before': beforeLocal,
          },
          ScanIndexForward: false,
          Limit: 1,
        },
        meter,
        'other',
      )
      return out.Items?.[0] as HistoryItem | undefined
    }),
  )
  return newest.reduce<HistoryItem | undefined>(
    (best, item) => (item && (!best || item.seqAll > best.seqAll) ? item : best),
    undefined,
  )
}

/**
 * The items numbered `numbers` (newest first) in one striped list, newest first: one query per
 * stripe they fall in, side by side, each a key range limited to the numbers it holds.
 */
async function readNumbers(
  numbers: number[],
  stripeOf: (seq: number) => number,
  rangeIn: (stripe: number, bottom: number, top: number) => Omit<QueryCommandInput, 'TableName' | 'Limit'>,
  sortKey: 'sk' | 'gsi1sk',
  meter: ReadMeter,
): Promise<HistoryItem[]> {
  const perStripe = new Map<number, { bottom: number; top: number; count: number }>()
  for (const seq of numbers) {
    const stripe = stripeOf(seq)
    const range = perStripe.get(stripe)
    if (!range) perStripe.set(stripe, { bottom: seq, top: seq, count: 1 })
    else {
      range.bottom = Math.min(range.bottom, seq)
      range.top = Math.max(range.top, seq)
      range.count++
    }
  }
  const found = await Promise.all(
    [...perStripe].map(async ([stripe, range]) => {
      const input = rangeIn(stripe, range.bottom, range.top)
      return ((await query({ ...input, Limit: range.count }, meter, 'page')).Items ?? []) as HistoryItem[]
    }),
  )
  return found.flat().sort((a, b) => (a[sortKey] < b[sortKey] ? 1 : a[sortKey] > b[sortKey] ? -1 : 0))
}

/** Numbers top, top - 1, ..., bottom. */
export const downFrom = (top: number, bottom: number) =>
  Array.from({ length: Math.max(0, top - bottom + 1) }, (_, i) => top - i)

/** A key range of the ALL list (main table, strongly consistent), newest first. */
export async function allRange(
  merchantId: string,
  head: HistoryHead,
  bottom: number,
  top: number,
  meter: ReadMeter,
): Promise<HistoryItem[]> {
  return readNumbers(
    downFrom(top, bottom),
    (seq) => historyStripe(seq, head.unstriped.all),
    (stripe, from, to) => ({
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :bottom AND :top',
      ExpressionAttributeValues: {
        ':pk': keys.historyListPartition(merchantId, stripe),
        ':bottom': keys.historySeqKey(from),
        ':top': keys.historySeqKey(to),
      },
      ScanIndexForward: false,
      ConsistentRead: true,
    }),
    'sk',
    meter,
  )
}

/** The items of one status partition (gsi1) numbered `numbers` there, newest first. */
export async function statusItems(
  merchantId: string,
  head: HistoryHead,
  status: string,
  numbers: number[],
  meter: ReadMeter,
): Promise<HistoryItem[]> {
  return readNumbers(
    numbers,
    (seq) => statusStripe(status, seq, head),
    (stripe, from, to) => ({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :bottom AND :top',
      ExpressionAttributeValues: {
        ':pk': keys.historyStatusPartition(merchantId, status, stripe),
        ':bottom': keys.seqKey(from),
        ':top': keys.seqKey(to),
      },
      ScanIndexForward: false,
    }),
    'gsi1sk',
    meter,
  )
}

/** The reversed seqOk numbers recorded in one block, newest first. */
export async function readReversalBlock(
  merchantId: string,
  block: number,
  meter: ReadMeter,
): Promise<number[]> {
  const item = await readMeteredItem(keys.historyReversalBlock(merchantId, block), meter)
  return [...((item?.seqs as Set<number> | undefined) ?? [])].sort((a, b) => b - a)
}

/** A merchant reference's counters (`keys.historyReferenceHead`), strongly consistent. */
export async function readReferenceHead(
  merchantId: string,
  reference: string,
  meter: ReadMeter,
): Promise<ReferenceHead> {
  return referenceHeadOf(await readMeteredItem(keys.historyReferenceHead(merchantId, reference), meter))
}

/**
 * Whether a reference still has items recorded before references were numbered and not ranked by
 * the backfill yet (scripts/ops/rank-history-references.ts): their sort key is the bare `<seqAll>`,
 * which sorts before `L#` and `R#`. A Query that reads at most one item (none once the backfill ran).
 */
export async function hasUnrankedItems(
  merchantId: string,
  reference: string,
  meter: ReadMeter,
): Promise<boolean> {
  const out = await query(
    {
      IndexName: 'gsi3',
      KeyConditionExpression: 'gsi3pk = :pk AND gsi3sk < :ranked',
      ExpressionAttributeValues: {
        ':pk': keys.historyReferencePartition(merchantId, reference),
        ':ranked': keys.historyReferenceLegacyKey(0),
      },
      Limit: 1,
    },
    meter,
    'other',
  )
  return (out.Count ?? 0) > 0
}

/**
 * The sort key of position `position` (1 = oldest) of a reference: the backfill's `legacy` items
 * come first, then the ranked ones.
 */
const referencePositionKey = (position: number, legacy: number) =>
  position <= legacy
    ? keys.historyReferenceLegacyKey(position)
    : keys.historyReferenceRankKey(position - legacy)

/** A reference's positions bottom..top (1 = oldest), newest first: one key range, top - bottom + 1 items at most. */
export async function referenceRange(
  merchantId: string,
  reference: string,
  legacy: number,
  bottom: number,
  top: number,
  meter: ReadMeter,
): Promise<HistoryItem[]> {
  if (top < bottom) return []
  const out = await query(
    {
      IndexName: 'gsi3',
      KeyConditionExpression: 'gsi3pk = :pk AND gsi3sk BETWEEN :bottom AND :top',
      ExpressionAttributeValues: {
        ':pk': keys.historyReferencePartition(merchantId, reference),
        ':bottom': referencePositionKey(bottom, legacy),
        ':top': referencePositionKey(top, legacy),
      },
      ScanIndexForward: false,
      Limit: top - bottom + 1,
    },
    meter,
    'page',
  )
  return (out.Items ?? []) as HistoryItem[]
}

/**
 * Every item of a reference, whatever its sort key's form. The caller bounds it: a reference of at
 * most REFERENCE_FILTER_LIMIT items when filters apply, or one with items not ranked yet (until the
 * backfill has run, the only way to find those).
 */
export async function everyReferenceItem(
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
  const [found, head] = await Promise.all([
    db().send(
      new GetCommand({
        TableName: tableName(),
        Key: keys.providerReference(reference),
        ConsistentRead: true,
      }),
    ),
    readHead(merchantId, meter),
  ])
  const pointer = found.Item
  meter.requests++
  if (!pointer) return undefined
  meter.otherItems++
  // Not this merchant's, or not in the history yet (the indexer adds seqAll within moments).
  if (pointer.merchantId !== merchantId || typeof pointer.seqAll !== 'number') return undefined
  const item = (
    await db().send(
      new GetCommand({
        TableName: tableName(),
        Key: historyItemKey(merchantId, pointer.seqAll as number, head),
        ConsistentRead: true,
      }),
    )
  ).Item
  meter.requests++
  if (item) meter.pageItems++
  return item as HistoryItem | undefined
}
