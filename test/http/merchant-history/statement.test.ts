import { PutCommand } from '@aws-sdk/lib-dynamodb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { type DevClients, devClients } from '../../support/clients.ts'

const PATH = '/api/v1/merchant/statement'
let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(() => api?.close())

describe('GET /api/v1/merchant/statement', () => {
  it('answers a day without transactions with zeros, in the Area C envelope', async () => {
    const reply = await clients.merchant.get(`${PATH}?date=2020-02-29`)
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({
      responseStatus: 'SUCCESS',
      responseCode: '00',
      data: {
        merchantId: 'MRC0001',
        date: '2020-02-29',
        count: 0,
        successful: { count: 0, amount: 0 },
        failed: { count: 0, amount: 0 },
        reversed: { count: 0, amount: 0 },
        net: 0,
      },
    })
  })

  it("reads the day's totals item: counts summed, amounts in naira, net = successful minus the day's reversals", async () => {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.historyDay('MRC0002', '2021-03-04'),
          successfulCount: 3,
          successfulKobo: 123_456,
          failedCount: 2,
          failedKobo: 1_000,
          reversedCount: 1,
          reversedKobo: 99,
        },
      }),
    )
    const reply = await clients.merchant2.get<{ data: unknown }>(`${PATH}?date=2021-03-04`)
    expect(reply.status).toBe(200)
    expect(reply.body.data).toEqual({
      merchantId: 'MRC0002',
      date: '2021-03-04',
      count: 6,
      successful: { count: 3, amount: 1234.56 },
      failed: { count: 2, amount: 10 },
      reversed: { count: 1, amount: 0.99 },
      net: 1233.57,
    })
    // Another merchant's day is not this merchant's.
    const other = await clients.merchant.get<{ data: { count: number } }>(`${PATH}?date=2021-03-04`)
    expect(other.body.data.count).toBe(0)
  })

  it.each([
    ['no date', ''],
    ['a date-time', '?date=2026-01-15T00:00:00'],
    ['a day that does not exist', '?date=2026-02-30'],
    ['another format', '?date=15/01/2026'],
  ])('answers 400 naming the date parameter for %s', async (_, search) => {
    const reply = await clients.merchant.get<{ responseCode: string; errors: { path: string }[] }>(
      `${PATH}${search}`,
    )
    expect(reply.status).toBe(400)
    expect(reply.body.responseCode).toBe('30')
    expect(reply.body.errors[0]?.path).toBe('query/date')
  })

  it('answers 401 without the merchant token', async () => {
    const reply = await clients.anonymous.get(`${PATH}?date=2026-01-15`)
    expect(reply.status).toBe(401)
  })
})
