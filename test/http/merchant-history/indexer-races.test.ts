import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb'
import { marshall } from '@aws-sdk/util-dynamodb'
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { handler as historyIndexer } from '#functions/merchant-history/history-indexer.ts'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import type { StatementEntry } from '#lib/merchant-history/items.ts'
import { addMerchant, getBankRequest, openAccount, type TransferRecord } from '#lib/ledger/repository.ts'
import { TransferRequest } from '#lib/ledger/schemas.ts'
import { transfer } from '#lib/ledger/service.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { ascending, range, storedHistory } from '../../support/history.ts'

/**
 * The history indexer as the stream delivers to it in AWS: the same records more than once, and a
 * hot merchant's records on several shards at once, so several invocations number one merchant's
 * transfers side by side. Stream events go into the handler directly (its public surface); the local
 * stream drive is stopped first so that these invocations are the only writers of the history.
 */
let api: TestApi
beforeAll(async () => {
  api = await startApi()
  await api.workers.stop()
})
afterAll(() => api?.close())

const MERCHANT = 'MRC-RACE-1'
const COUNT = 130 // three transactions' worth of one merchant's transfers (at most 49 each)

function streamRecord(record: TransferRecord, sequence: number): DynamoDBRecord {
  const image = marshall(record, { removeUndefinedValues: true })
  return {
    eventName: 'INSERT',
    eventSource: 'aws:dynamodb',
    dynamodb: {
      Keys: { pk: image.pk!, sk: image.sk! },
      NewImage: image,
      SequenceNumber: String(sequence).padStart(21, '0'),
      StreamViewType: 'NEW_IMAGE',
    },
  } as DynamoDBRecord
}

describe('history indexer, invocations racing for one merchant', () => {
  it('numbers every transfer exactly once when overlapping batches are indexed at the same time', {
    timeout: 120_000,
  }, async () => {
    await addMerchant({ merchantId: MERCHANT, name: 'Race merchant' })
    // 100 of the 130 are paid (two accounts of 500.00 pay 50 transfers of 10.00 each); 30 are declined.
    for (const n of [1, 2])
      await openAccount({ accountNumber: `700000009${n}`, name: `Race ${n}`, balanceKobo: 50_000 })
    const requestIds = Array.from({ length: COUNT }, (_, i) => `RACE-${String(i).padStart(3, '0')}`)
    for (let i = 0; i < COUNT; i += 10) {
      await Promise.all(
        requestIds.slice(i, i + 10).map((requestId, j) =>
          transfer(
            'dev-switch',
            TransferRequest.parse({
              requestId,
              stan: '600000',
              processingCode: '400000',
              merchantId: MERCHANT,
              merchantReference: `${requestId}-ORDER`,
              accountNumber: `700000009${((i + j) % 2) + 1}`,
              amount: 10,
              currency: 'NGN',
              productCode: 'RACE',
            }),
          ),
        ),
      )
    }
    const ledger = (await Promise.all(
      requestIds.map((id) => getBankRequest('dev-switch', id)),
    )) as TransferRecord[]
    const records = ledger.map((r, i) => streamRecord(r, i + 1))

    // One invocation with them all in order, one with them in reverse (another shard's view), and one
    // with every other record: all three at once, each must end without a failed record.
    const batches: DynamoDBStreamEvent[] = [
      { Records: records },
      { Records: [...records].reverse() },
      { Records: records.filter((_, i) => i % 2 === 0) },
    ]
    const replies = await Promise.all(batches.map((event) => historyIndexer(event)))
    expect(replies).toEqual([{ batchItemFailures: [] }, { batchItemFailures: [] }, { batchItemFailures: [] }])
    // And once more, late: nothing changes twice.
    expect(await historyIndexer({ Records: records })).toEqual({ batchItemFailures: [] })

    const history = await storedHistory(MERCHANT)

    const paid = ledger.filter((r) => r.status === 'SUCCESSFUL')
    expect(paid).toHaveLength(100)
    expect(ascending(history.map((h) => h.seqAll))).toEqual(range(COUNT))
    expect(ascending(history.filter((h) => h.seqOk !== undefined).map((h) => h.seqOk))).toEqual(range(100))
    expect(ascending(history.filter((h) => h.seqFailed !== undefined).map((h) => h.seqFailed))).toEqual(
      range(30),
    )
    expect(history.map((h) => h.requestId).sort()).toEqual([...requestIds].sort())
    // Invocations that saw different records number them in the order they commit, not the ledger's;
    // the time index still sorts as the numbering does (date ranges are key ranges of the numbers),
    // and never puts a transfer before its createdAt.
    const byNumber = ascending(history.map((h) => h.seqAll)).map((n) => history.find((h) => h.seqAll === n)!)
    expect(byNumber.every((h, i) => i === 0 || h.gsi2sk > byNumber[i - 1]!.gsi2sk)).toBe(true)
    expect(history.every((h) => h.gsi2sk.slice(0, 23) >= h.createdAt)).toBe(true)

    const get = async (key: { pk: string; sk: string }) =>
      (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item!
    const head = await get(keys.historyHead(MERCHANT))
    expect({ all: head.all, ok: head.ok, failed: head.failed }).toEqual({ all: COUNT, ok: 100, failed: 30 })
    // The day totals were added once per transfer, however many invocations saw it.
    const days = [...new Set(ledger.map((r) => r.createdAt.slice(0, 10)))]
    const totals = await Promise.all(days.map((day) => get(keys.historyDay(MERCHANT, day))))
    const sum = (name: string) => totals.reduce((s, t) => s + (t[name] ?? 0), 0)
    expect({
      successfulCount: sum('successfulCount'),
      successfulKobo: sum('successfulKobo'),
      failedCount: sum('failedCount'),
    }).toEqual({ successfulCount: 100, successfulKobo: 100_000, failedCount: 30 })

    // The statement (CONTRACT 20): one credit entry per paid transfer, numbered 1..100 without a gap
    // or a repeat, each balance the one before plus its amount, booking time never going backwards.
    const entries = (
      await db().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': keys.statementPartition(MERCHANT) },
          ConsistentRead: true,
        }),
      )
    ).Items as StatementEntry[]
    expect(entries.map((e) => e.seq)).toEqual(range(100))
    expect(entries.map((e) => e.providerReference).sort()).toEqual(
      paid.map((r) => r.providerReference).sort(),
    )
    expect(
      entries.every(
        (e, i) => e.balanceAfterKobo === (i === 0 ? 0 : entries[i - 1]!.balanceAfterKobo) + e.amountKobo,
      ),
    ).toBe(true)
    expect(entries.every((e, i) => i === 0 || e.bookedAt >= entries[i - 1]!.bookedAt)).toBe(true)
    expect({ entries: head.entries, balanceKobo: head.balanceKobo }).toEqual({
      entries: 100,
      balanceKobo: 100_000,
    })
  })
})
