import { CreateTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { localDynamoConfig } from '#lib/platform/db/local.ts'
import { createTableInput, indexInput, indexesFor, tableDefinition } from '#lib/platform/db/table.ts'
import { dropTable, ensureTable } from '../../../scripts/local/table.ts'
import { invoiceOfUnits } from '../../support-invoices/notes.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { type DevClients, devClients } from '../../support/clients.ts'
import { PRE43, pre43Table } from '../../support/pre-43-table.ts'

/**
 * `DATA_DIR=... npm start` on a table kept from before issue 43: ensureTable (scripts/local/table.ts),
 * which npm start runs first, builds the service's indexes beside the old ones and drops these, so the
 * invoices kept there are served as before.
 */

let api: TestApi
let clients: DevClients
let dynamo: DynamoDBClient
const { A, B, C, D, buyerX } = PRE43

beforeAll(async () => {
  api = await startApi({
    table: async ({ tableName, dynamoEndpoint }) => {
      dynamo = new DynamoDBClient(localDynamoConfig(dynamoEndpoint))
      await pre43Table(dynamo, tableName)
      await ensureTable(dynamoEndpoint, tableName)
    },
  })
  clients = devClients(api.url)
})
afterAll(async () => {
  await api?.close()
  dynamo?.destroy()
})

/** The table's indexes as CreateTable would declare them. */
async function indexesDeclared(tableName: string) {
  const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: tableName }))
  return (Table?.GlobalSecondaryIndexes ?? [])
    .map((i) => ({
      IndexName: i.IndexName,
      KeySchema: i.KeySchema,
      Projection: { ...i.Projection, NonKeyAttributes: i.Projection?.NonKeyAttributes?.toSorted() },
      IndexStatus: i.IndexStatus,
    }))
    .sort((a, b) => a.IndexName!.localeCompare(b.IndexName!))
}
const SERVICE_INDEXES = tableDefinition.globalSecondaryIndexes.map((i) => ({
  ...indexInput(i),
  IndexStatus: 'ACTIVE',
}))

const irnsOf = (reply: { body: any }) => reply.body.data.content.map((s: { irn: string }) => s.irn)

describe('ensureTable on a table kept from before issue 43', () => {
  it('leaves it with the service’s indexes only, built', async () => {
    expect(await indexesDeclared(api.tableName)).toEqual(SERVICE_INDEXES)
  })

  it('serves the invoices kept there, and new ones beside them', async () => {
    const pulled = await clients.si.get<any>(`/api/v1/si/get-invoice/${B}`)
    expect(pulled.status).toBe(200)
    expect(pulled.body.data).toMatchObject({ irn: B, document_currency_code: 'USD' })
    expect(irnsOf(await clients.si.get<any>('/api/v1/invoices'))).toEqual([D, C, B, A])
    expect(irnsOf(await clients.si.get<any>(`/api/v1/invoices?buyer_tin=${buyerX.tin}`))).toEqual([D, B, A])
    expect(irnsOf(await clients.si.get<any>('/api/v1/invoices?currency=USD'))).toEqual([B])

    const E: Record<string, any> = { ...invoiceOfUnits(2, undefined, buyerX), issue_date: '2026-11-22' }
    expect((await clients.app.post<any>('/api/v1/app/invoice/sign', E)).status).toBe(200)
    const listed = await clients.si.get<any>('/api/v1/invoices?invoice_type_code=381')
    expect(irnsOf(listed)).toEqual([E.irn, C, B, A])
    expect(listed.body.data.page.totalElements).toBe(4)
  })

  it('rebuilds a service index kept with another projection, and leaves a current table alone', async () => {
    const tableName = `${api.tableName}-older`
    // gsi1k as an older LISTED declared it: one attribute fewer.
    const [gsi1k, ...rest] = indexesFor()
    const older = {
      ...gsi1k!,
      projection: { type: 'INCLUDE' as const, attributes: ['entity', 'irn'] },
    }
    await dynamo.send(new CreateTableCommand(createTableInput(tableName, [older, ...rest])))
    try {
      await ensureTable(api.dynamoEndpoint, tableName)
      expect(await indexesDeclared(tableName)).toEqual(SERVICE_INDEXES)
      await ensureTable(api.dynamoEndpoint, tableName)
      expect(await indexesDeclared(tableName)).toEqual(SERVICE_INDEXES)
    } finally {
      await dropTable(api.dynamoEndpoint, tableName)
    }
  })
})
