import { GetCommand } from '@aws-sdk/lib-dynamodb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys, SEARCH_COUNTER_PREFIX } from '#lib/platform/db/keys.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { DEV, type DevClients, devClients } from '../../support/clients.ts'
import { b2cInvoice, registerTill } from '../../support/receipts.ts'

/**
 * A report's search numbers (lib/receipts/search-numbers.ts): the counter writes are counted by
 * middleware on this process's DynamoDB client, so this file runs the handlers in-process only (the
 * CI's bundles pass leaves it out, as it does the other files that watch the client).
 */

let api: TestApi
let live: DevClients
beforeAll(async () => {
  api = await startApi()
  live = devClients(api.url)
})
afterAll(async () => {
  await api?.close()
})

const HOUR = 3600 * 1000
const resultsOf = async (receipts: unknown[]) => {
  const reply = await live.si.post<any>('/api/v1/receipts', { receipts })
  expect(reply.status).toBe(200)
  return reply.body.data as any[]
}

describe('POST /api/v1/receipts', () => {
  it("numbers a report's receipts for search in one ADD per space, in request order, and voids the numbers of those refused", async () => {
    const business = DEV.supplier.businessId
    const read = async (key: { pk: string; sk: string }) =>
      (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item
    const counter = async () => (await read(keys.searchCounter(business, 'ALL'))) ?? { n: 0, voids: 0 }
    const { till } = await registerTill(live.admin)
    const { legal_monetary_total: _total, ...broken } = b2cInvoice()
    const receipts = [
      till.next(),
      till.next({ invoice: broken }),
      till.next(),
      till.next({ issuedAt: new Date(Date.now() + HOUR).toISOString() }),
      till.next(),
    ]
    const before = await counter()
    // The counter writes of the report: one ADD per space (ALL, TYPE#, CUR#: the receipts have no buyer).
    const adds: string[] = []
    const name = 'count-search-adds'
    db().middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as { Key?: { pk?: string }; UpdateExpression?: string }
        if (
          /^Update(Item)?Command$/.test(context.commandName ?? '') &&
          input.Key?.pk?.startsWith(SEARCH_COUNTER_PREFIX)
        )
          adds.push(`${input.Key.pk} ${input.UpdateExpression}`)
        return next(args)
      },
      { step: 'initialize', name },
    )
    let results: any[]
    try {
      results = await resultsOf(receipts)
    } finally {
      db().middlewareStack.remove(name)
    }
    expect(results.map((r) => r.status)).toEqual(['REPORTED', 'REJECTED', 'REPORTED', 'REJECTED', 'REPORTED'])
    expect(adds.filter((a) => a.includes('ADD n '))).toHaveLength(3)
    // Five numbers, the two refused receipts' voided: the total counts the three reported.
    const after = await counter()
    expect(after.n - before.n).toBe(5)
    expect((after.voids ?? 0) - (before.voids ?? 0)).toBe(2)
    const listed = await Promise.all(
      [1, 2, 3, 4, 5].map((i) => read(keys.searchList(business, before.n + i))),
    )
    expect(listed.map((item) => item?.irn ?? item?.entity)).toEqual([
      receipts[0]!.irn,
      'INVOICE_LIST_VOID',
      receipts[2]!.irn,
      'INVOICE_LIST_VOID',
      receipts[4]!.irn,
    ])
  })
})
