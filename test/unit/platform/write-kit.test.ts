import { describe, expect, it, vi } from 'vitest'
import { AGAIN, withRetries } from '#lib/platform/db/retry.ts'
import { transact } from '#lib/platform/db/transact.ts'
import { writeIf } from '#lib/platform/db/write.ts'

/**
 * The write kit's own rules (lib/platform/db), with DynamoDB replaced by a stub that answers each
 * call as a test says: a transaction's cancellation is reported by item name (a group's failed
 * members by position in the group), a conditional write's failed condition is a value, and the one
 * retry loop stops at its attempts or budget with the caller's answer.
 */
const send = vi.hoisted(() => vi.fn())
vi.mock('#lib/platform/db/client.ts', () => ({ db: () => ({ send }), tableName: () => 'table' }))

const cancelled = (...codes: string[]) =>
  Object.assign(new Error('Transaction cancelled'), {
    name: 'TransactionCanceledException',
    CancellationReasons: codes.map((Code) => ({ Code })),
  })
const put = (pk: string) => ({ Put: { TableName: 'table', Item: { pk, sk: 'A' } } })

describe('transact', () => {
  it('sends the named items in the order written, groups flattened and absent ones left out', async () => {
    send.mockResolvedValueOnce({})
    expect(
      await transact({ a: put('1'), none: undefined, group: [put('2'), put('3')], last: put('4') }),
    ).toEqual({
      ok: true,
    })
    const sent = send.mock.lastCall![0].input.TransactItems
    expect(sent.map((i: { Put: { Item: { pk: string } } }) => i.Put.Item.pk)).toEqual(['1', '2', '3', '4'])
  })

  it('names the items whose condition failed once each, and which members of a group', async () => {
    send.mockRejectedValueOnce(cancelled('None', 'None', 'ConditionalCheckFailed', 'None'))
    const outcome = await transact({ a: put('1'), group: [put('2'), put('3')], last: put('4') })
    expect(outcome).toMatchObject({
      ok: false,
      failed: ['group'],
      positions: { group: [1] },
      conflict: false,
    })
    send.mockRejectedValueOnce(
      cancelled('ConditionalCheckFailed', 'ConditionalCheckFailed', 'ConditionalCheckFailed', 'None'),
    )
    const both = await transact({ a: put('1'), group: [put('2'), put('3')], last: put('4') })
    expect(both).toMatchObject({ failed: ['a', 'group'], positions: { a: [0], group: [0, 1] } })
  })

  it('reports a conflict with no failed condition as a conflict', async () => {
    send.mockRejectedValueOnce(cancelled('TransactionConflict', 'None'))
    expect(await transact({ a: put('1'), b: put('2') })).toMatchObject({
      ok: false,
      failed: [],
      conflict: true,
    })
  })

  it('throws any other error, and a cancellation for another reason', async () => {
    send.mockRejectedValueOnce(cancelled('ValidationError', 'None'))
    await expect(transact({ a: put('1'), b: put('2') })).rejects.toThrow('Transaction cancelled')
    send.mockRejectedValueOnce(new Error('socket hang up'))
    await expect(transact({ a: put('1') })).rejects.toThrow('socket hang up')
  })
})

describe('writeIf', () => {
  it('answers a failed condition as not written, and throws anything else', async () => {
    send.mockRejectedValueOnce(Object.assign(new Error('no'), { name: 'ConditionalCheckFailedException' }))
    expect(
      await writeIf({ Put: { Item: { pk: '1' }, ConditionExpression: 'attribute_not_exists(pk)' } }),
    ).toEqual({
      written: false,
    })
    send.mockResolvedValueOnce({ Attributes: { n: 2 } })
    expect(await writeIf({ Update: { Key: { pk: '1' }, UpdateExpression: 'ADD n :one' } })).toEqual({
      written: true,
      attributes: { n: 2 },
    })
    expect(send.mock.lastCall![0].input.TableName).toBe('table')
    send.mockRejectedValueOnce(new Error('ThrottlingException'))
    await expect(writeIf({ Delete: { Key: { pk: '1' } } })).rejects.toThrow('ThrottlingException')
  })
})

describe('withRetries', () => {
  it('tries again on AGAIN and returns the first answer', async () => {
    let calls = 0
    expect(await withRetries(async () => (++calls < 3 ? AGAIN : 'done'), { baseMs: 0 })).toBe('done')
    expect(calls).toBe(3)
  })

  it('gives the exhausted answer after the attempts allowed, not one attempt more', async () => {
    let calls = 0
    const answer = await withRetries(
      async () => {
        calls++
        return AGAIN
      },
      { attempts: 3, baseMs: 0, exhausted: () => 'gave up' },
    )
    expect([answer, calls]).toEqual(['gave up', 3])
  })

  it('is a 503 to retry by default once the budget is spent', async () => {
    await expect(withRetries(async () => AGAIN, { budgetMs: 0, baseMs: 0 })).rejects.toMatchObject({
      kind: 'unavailable',
    })
  })
})
