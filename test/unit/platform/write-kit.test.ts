import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { AGAIN, withRetries } from '#lib/platform/db/retry.ts'
import { cancelledBy, TransactionRefused, transact } from '#lib/platform/db/transact.ts'
import { writeIf } from '#lib/platform/db/write.ts'
import { dropTable, ensureTable } from '../../../scripts/local/table.ts'

/**
 * The write kit's own rules (lib/platform/db): a transaction's cancellation is reported by item name
 * (a group's failed members by position in the group), a conditional write's failed condition is a
 * value, and the one retry loop stops at its attempts or budget with the caller's answer. The writes
 * run against the run's DynamoDB Local, in a table of this file's own; the reading of cancellation
 * reasons that DynamoDB Local cannot be made to produce on demand (a conflict with another
 * transaction) is the pure `cancelledBy`.
 */
const endpoint = inject('dynamoEndpoint')
const table = `kit-${randomUUID()}`

beforeAll(async () => {
  process.env.TABLE_NAME = table
  process.env.DYNAMODB_ENDPOINT = endpoint
  process.env.STAGE = 'local'
  process.env.AWS_REGION = 'eu-west-1'
  process.env.DYNAMODB_LOCAL_DATABASE = `kit${randomUUID().replaceAll('-', '')}`
  await ensureTable(endpoint, table)
})
afterAll(() => dropTable(endpoint, table))

const fresh = () => `KIT#${randomUUID()}`
const put = (pk: string, sk = 'A') => ({
  Put: { TableName: table, Item: { pk, sk }, ConditionExpression: 'attribute_not_exists(pk)' },
})

describe('transact', () => {
  it('writes the named items, groups and all, and leaves out the absent ones', async () => {
    const [a, b, c] = [fresh(), fresh(), fresh()]
    expect(await transact({ a: put(a), none: undefined, group: [put(b), put(c)] })).toEqual({ ok: true })
    expect(
      await writeIf({ Put: { Item: { pk: b, sk: 'A' }, ConditionExpression: 'attribute_not_exists(pk)' } }),
    ).toEqual({
      written: false,
    })
  })

  it('names the items whose condition failed, and which members of a group', async () => {
    const [a, b, c, d] = [fresh(), fresh(), fresh(), fresh()]
    await transact({ taken: [put(c)] })
    const outcome = await transact({ a: put(a), group: [put(b), put(c)], last: put(d) })
    expect(outcome).toMatchObject({
      ok: false,
      failed: ['group'],
      positions: { group: [1] },
      conflict: false,
    })
    // Nothing of a cancelled transaction was written.
    expect(await transact({ a: put(a), last: put(d) })).toEqual({ ok: true })
    const both = await transact({ a: put(a), group: [put(b), put(c)] })
    expect(both).toMatchObject({ failed: ['a', 'group'], positions: { a: [0], group: [1] } })
  })

  it('throws what is not a failed condition or a conflict', async () => {
    const a = fresh()
    // An update DynamoDB cannot parse refuses the whole request (a ValidationException).
    const broken = { Update: { TableName: table, Key: { pk: a, sk: 'A' }, UpdateExpression: 'SET' } }
    await expect(transact({ a: put(a), broken })).rejects.toThrow()
    // A refusal a writer passes on keeps the names, so its caller can tell its own item.
    const refused = new TransactionRefused({
      ok: false,
      failed: ['guard'],
      positions: {},
      conflict: false,
      error: new Error('x'),
    })
    expect([refused.failed, refused.message]).toEqual([
      ['guard'],
      'Transaction cancelled (failed: guard; conflict: false)',
    ])
  })
})

describe('cancelledBy (the reasons DynamoDB gives, one per action, read by name)', () => {
  const owners = [
    { name: 'a', index: 0 },
    { name: 'group', index: 0 },
    { name: 'group', index: 1 },
    { name: 'last', index: 0 },
  ] as const
  it('names a failed item once, with the members of a group that failed', () => {
    expect(
      cancelledBy(owners, [
        'ConditionalCheckFailed',
        'ConditionalCheckFailed',
        'ConditionalCheckFailed',
        'None',
      ]),
    ).toEqual({
      ok: false,
      failed: ['a', 'group'],
      positions: { a: [0], group: [0, 1] },
      conflict: false,
    })
  })
  it('reports a conflict with no failed condition as a conflict', () => {
    expect(cancelledBy(owners, ['TransactionConflict', 'None', 'None', 'None'])).toMatchObject({
      failed: [],
      conflict: true,
    })
  })
  it('is no answer for a cancellation for any other reason', () => {
    expect(cancelledBy(owners, ['ValidationError', 'None', 'None', 'None'])).toBeUndefined()
  })
})

describe('writeIf', () => {
  it('answers a failed condition as not written, a write with its attributes, and throws anything else', async () => {
    const a = fresh()
    const first = { Put: { Item: { pk: a, sk: 'A' }, ConditionExpression: 'attribute_not_exists(pk)' } }
    expect(await writeIf(first)).toEqual({ written: true, attributes: undefined })
    expect(await writeIf(first)).toEqual({ written: false })
    expect(
      await writeIf({
        Update: {
          Key: { pk: a, sk: 'A' },
          UpdateExpression: 'ADD n :one',
          ExpressionAttributeValues: { ':one': 1 },
          ReturnValues: 'ALL_NEW',
        },
      }),
    ).toEqual({ written: true, attributes: { pk: a, sk: 'A', n: 1 } })
    // An expression DynamoDB cannot parse is an error, not "not written".
    await expect(
      writeIf({ Delete: { Key: { pk: a, sk: 'A' }, ConditionExpression: 'nonsense(' } }),
    ).rejects.toThrow()
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
