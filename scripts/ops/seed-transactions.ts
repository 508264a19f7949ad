import { createHash } from 'node:crypto'
import { BatchWriteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { lagosLocalIso } from '#lib/platform/time.ts'
import { seeded } from '../local/seeded-random.ts'
import {
  addDayChange,
  type DayChange,
  dayChangeOf,
  dayTotalsUpdate,
  type HistoryFacts,
  type HistoryHead,
  type HistoryItem,
  type HistoryStatus,
  headOf,
  historyItem,
  providerReferenceItem,
  reversalBlockOf,
  reversalCountAttribute,
  unstripedSet,
} from '#lib/merchant-history/items.ts'

/**
 * Bulk history for demos and the benchmark (`npm run cli -- seed-transactions`, bench/history.ts):
 * the same item shapes a transfer writes (history item, providerReference pointer, reference counter,
 * head counters, reversal blocks, daily totals), written with BatchWriteItem instead of one transaction each. The numbers are
 * reserved on the head first with a conditional update, so live transfers arriving meanwhile take
 * the numbers after them and the sequences stay dense. Seeded transactions are history only: they
 * move no balances and have no Area B request record (they cannot be reversed through the API).
 */
export interface SeedOptions {
  merchantId: string
  count: number
  accountNumber?: string
  productCode?: string
  /** Time span the transactions are spread over, oldest first; default the 90 days before now. */
  from?: Date
  to?: Date
  failedShare?: number
  reversedShare?: number
  /** PRNG seed: the same seed gives the same statuses and amounts. */
  seed?: number
  /** Parallel BatchWriteItem calls. */
  concurrency?: number
  /** Keep and return every item written (tests); off for big loads. */
  returnItems?: boolean
  onProgress?: (written: number, total: number) => void
}

export interface SeedResult {
  written: number
  head: HistoryHead
  items?: HistoryItem[]
  counts: Record<'SUCCESSFUL' | 'FAILED' | 'REVERSED', number>
}

const DAY_MS = 24 * 60 * 60 * 1000

export async function seedTransactions(options: SeedOptions): Promise<SeedResult> {
  const { merchantId, count } = options
  if (!Number.isInteger(count) || count < 1) throw new Error('count must be a positive whole number')
  const random = seeded(options.seed ?? 42)
  const failedShare = options.failedShare ?? 0.08
  const reversedShare = options.reversedShare ?? 0.02

  // Decide every status first: the head reservation needs the totals.
  const statuses: HistoryStatus[] = Array.from({ length: count }, () => {
    const r = random()
    return r < failedShare ? 'FAILED' : r < failedShare + reversedShare ? 'REVERSED' : 'SUCCESSFUL'
  })
  const counts = { SUCCESSFUL: 0, FAILED: 0, REVERSED: 0 }
  for (const s of statuses) counts[s as keyof typeof counts]++

  const headKey = keys.historyHead(merchantId)
  const stored = (
    await db().send(new GetCommand({ TableName: tableName(), Key: headKey, ConsistentRead: true }))
  ).Item
  const head = headOf(stored)
  // Times: after everything already recorded (createdAt never goes backwards along the sequence).
  const end = Math.max(options.to?.getTime() ?? Date.now(), head.lastAtMs + count)
  const start = Math.max(options.from?.getTime() ?? end - 90 * DAY_MS, head.lastAtMs + 1)
  const step = Math.max(1, Math.floor((end - start) / count))
  const lastAtMs = start + step * (count - 1)
  const okAdded = counts.SUCCESSFUL + counts.REVERSED
  const after: HistoryHead = {
    all: head.all + count,
    ok: head.ok + okAdded,
    failed: head.failed + counts.FAILED,
    reversed: head.reversed + counts.REVERSED,
    reversedInBlock: { ...head.reversedInBlock },
    lastAtMs,
    unstriped: head.unstriped,
    // Seeded demo data books no statement entries (it has no ledger transfers behind it).
    entries: head.entries,
    balanceKobo: head.balanceKobo,
    entryAtMs: head.entryAtMs,
  }
  // The statuses are known up front, so are the reversals per block: the head gets them with the reservation.
  const reversalsPerBlock = new Map<number, number>()
  {
    let ok = head.ok
    for (const status of statuses) {
      if (status === 'FAILED') continue
      ok++
      if (status === 'REVERSED')
        reversalsPerBlock.set(reversalBlockOf(ok), (reversalsPerBlock.get(reversalBlockOf(ok)) ?? 0) + 1)
    }
  }
  for (const [block, n] of reversalsPerBlock)
    after.reversedInBlock[block] = (after.reversedInBlock[block] ?? 0) + n
  const blockNames = Object.fromEntries(
    [...reversalsPerBlock.keys()].map((b, i) => [`#rb${i}`, reversalCountAttribute(b)]),
  )
  const blockValues = Object.fromEntries(
    [...reversalsPerBlock.values()].map((count, i) => [`:rb${i}`, count]),
  )
  const blockAdds = Object.keys(blockNames).map((name, i) => `${name} :rb${i}`)
  const unstriped = unstripedSet(head)
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: headKey,
      UpdateExpression:
        `SET #all = :all, ok = :ok, failed = :failed, reversed = if_not_exists(reversed, :zero) + :reversed, lastAtMs = :at, entity = :entity, ${unstriped.set}` +
        (blockAdds.length ? ` ADD ${blockAdds.join(', ')}` : ''),
      ConditionExpression: stored ? '#all = :previous' : 'attribute_not_exists(pk)',
      ExpressionAttributeNames: { '#all': 'all', ...blockNames },
      ExpressionAttributeValues: {
        ':all': after.all,
        ':ok': after.ok,
        ':failed': after.failed,
        ':zero': 0,
        ':reversed': counts.REVERSED,
        ':at': lastAtMs,
        ':entity': 'MERCHANT_HISTORY_HEAD',
        ...unstriped.values,
        ...blockValues,
        ...(stored ? { ':previous': head.all } : {}),
      },
    }),
  )

  // Seeded references cannot collide with live ones: 24 digits (live ones have 20), and a per-merchant tag.
  const tag = String(
    Number.parseInt(createHash('sha256').update(merchantId).digest('hex').slice(0, 8), 16) % 10_000,
  ).padStart(4, '0')
  const items: HistoryItem[] = []
  const reversedByBlock = new Map<number, number[]>()
  let cursor: HistoryHead = { ...head }
  const puts: object[] = []
  const days = new Map<string, DayChange>()
  for (let i = 0; i < count; i++) {
    const status = statuses[i]!
    const createdStatus = status === 'FAILED' ? 'FAILED' : 'SUCCESSFUL'
    cursor = {
      ...cursor,
      all: cursor.all + 1,
      ok: cursor.ok + (createdStatus === 'SUCCESSFUL' ? 1 : 0),
      failed: cursor.failed + (createdStatus === 'FAILED' ? 1 : 0),
    }
    const atMs = start + step * i
    const createdAt = lagosLocalIso(new Date(atMs))
    const stamp = createdAt.replace(/\D/g, '').slice(2, 14)
    const facts: HistoryFacts = {
      merchantId,
      amountKobo: 100 * Math.floor(1 + random() * 50_000),
      merchantReference: `SEED-${cursor.all}`,
      providerReference: `TNX${stamp}${tag}${String(cursor.all % 100_000_000).padStart(8, '0')}`,
      accountNumber: options.accountNumber ?? '0123456789',
      status: createdStatus,
      responseCode: createdStatus === 'SUCCESSFUL' ? '00' : '51',
      createdAt,
      productCode: options.productCode ?? 'SEED',
    }
    // Each seeded reference names one transaction: the first (and only) of its reference.
    const item = historyItem(facts, cursor, 1, status)
    if (status === 'REVERSED') {
      const block = reversalBlockOf(cursor.ok)
      reversedByBlock.set(block, [...(reversedByBlock.get(block) ?? []), cursor.ok])
    }
    puts.push(item, providerReferenceItem(facts, cursor.all), {
      ...keys.historyReferenceHead(merchantId, facts.merchantReference),
      entity: 'MERCHANT_HISTORY_REFERENCE',
      merchantId,
      merchantReference: facts.merchantReference,
      all: 1,
    })
    // The day totals count it as the indexer does: created SUCCESSFUL on its Lagos day, and a seeded
    // reversal (reversed the same day) as reversed on that day too.
    addDayChange(days, createdAt.slice(0, 10), dayChangeOf(facts.status, facts.amountKobo))
    if (status === 'REVERSED')
      addDayChange(days, createdAt.slice(0, 10), dayChangeOf(status, facts.amountKobo))
    if (options.returnItems) items.push(item)
  }

  let written = 0
  const chunks: object[][] = []
  for (let i = 0; i < puts.length; i += 25) chunks.push(puts.slice(i, i + 25))
  let next = 0
  const worker = async () => {
    while (next < chunks.length) {
      const chunk = chunks[next++]!
      await batchWrite(chunk)
      written += chunk.length
      options.onProgress?.(Math.floor(written / 3), count)
    }
  }
  await Promise.all(Array.from({ length: options.concurrency ?? 8 }, worker))

  for (const [block, seqs] of reversedByBlock) {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.historyReversalBlock(merchantId, block),
        UpdateExpression: 'ADD seqs :seqs, #count :n SET entity = :entity',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: {
          ':seqs': new Set(seqs),
          ':n': seqs.length,
          ':entity': 'MERCHANT_HISTORY_REVERSALS',
        },
      }),
    )
  }
  // One ADD per day, after the items: the statement of a seeded day then equals its history.
  const dayList = [...days]
  const dayWorker = async () => {
    for (let entry = dayList.shift(); entry; entry = dayList.shift()) {
      const [day, change] = entry
      await db().send(
        new UpdateCommand({ TableName: tableName(), ...dayTotalsUpdate(merchantId, day, change) }),
      )
    }
  }
  await Promise.all(Array.from({ length: options.concurrency ?? 8 }, dayWorker))
  return { written: count, head: after, counts, ...(options.returnItems ? { items } : {}) }
}

/** One BatchWriteItem of up to 25 puts, retrying what DynamoDB leaves unprocessed. */
async function batchWrite(items: object[]): Promise<void> {
  let pending = items.map((Item) => ({ PutRequest: { Item } }))
  for (let round = 0; pending.length; round++) {
    if (round > 0) await new Promise((r) => setTimeout(r, Math.min(1000, 20 * 2 ** round)))
    const out = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }))
    pending = (out.UnprocessedItems?.[tableName()] ?? []) as typeof pending
  }
}
