import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb'
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { keys } from '#lib/platform/db/keys.ts'
import { localDynamoConfig } from '#lib/platform/db/local.ts'
import { invoiceOfUnits } from '../../support-invoices/notes.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { type DevClients, devClients } from '../../support/clients.ts'
import { PRE43, pre43Table } from '../../support/pre-43-table.ts'

/**
 * docs/operations.md, "Upgrading a table that holds data", on a table that holds invoices exactly as
 * the code before issue 43 stored them (test/fixtures/pre-issue-43): index keys on the invoice
 * records, plain invoice bodies, the list items, counters, audit items and events of then. Today's
 * code, started on it, reads, lists, searches, updates and exports them, and lists new ones beside.
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
    },
  })
  clients = devClients(api.url)
})
afterAll(async () => {
  await api?.close()
  dynamo?.destroy()
})

const search = (query = '', headers?: Record<string, string>) =>
  clients.si.get<any>(`/api/v1/invoices${query ? `?${query}` : ''}`, headers)
const irnsOf = (reply: { body: any }) => reply.body.data.content.map((s: { irn: string }) => s.irn)

/** Each filter's result, newest first, and its total. */
async function expectListed(query: string, irns: string[]) {
  const reply = await search(query)
  expect(reply.status, query).toBe(200)
  expect(irnsOf(reply), query).toEqual(irns)
  expect(reply.body.data.page.totalElements, query).toBe(irns.length)
}

/** What the old invoices show. */
async function expectOldInvoicesServed(paidC: boolean) {
  for (const irn of [A, B, C, D]) {
    const pulled = await clients.si.get<any>(`/api/v1/si/get-invoice/${irn}`)
    expect(pulled.status, irn).toBe(200)
    expect(pulled.body.data.irn).toBe(irn)
  }
  const b = await clients.si.get<any>(`/api/v1/si/get-invoice/${B}`)
  expect(b.body.data).toMatchObject({ document_currency_code: 'USD', payment_status: 'PENDING' })
  expect(b.body.data.accounting_customer_party.tin).toBe(buyerX.tin)

  await expectListed('', [D, C, B, A])
  await expectListed(`buyer_tin=${buyerX.tin}`, [D, B, A])
  await expectListed('invoice_type_code=380', [D])
  await expectListed('invoice_type_code=381', [C, B, A])
  await expectListed('currency=USD', [B])
  await expectListed('currency=NGN', [D, C, A])
  await expectListed('payment_status=PAID', paidC ? [C] : [])
  await expectListed('payment_status=CANCELLED', [A])
  await expectListed(`irn=${C}`, [C])
  // A's summary: the credit note D was filed under it (the note item of then).
  const a = await search(`irn=${A}`)
  expect(a.body.data.content[0]).toMatchObject({
    buyer_tin: buyerX.tin,
    buyer_name: buyerX.name,
    payable_amount: 107.5,
    payment_status: 'CANCELLED',
    adjustments: { credited: 107.5, remaining: 0, notes: [{ irn: D, invoice_type_code: '380' }] },
  })
}

describe("invoices stored before issue 43, served by today's code (docs/operations.md)", () => {
  it('reads, lists and searches the invoices signed before', async () => {
    await expectOldInvoicesServed(false)
  })

  it('updates one and exports them', async () => {
    const paid = await clients.app.request<any>('PATCH', `/api/v1/app/invoice/update/${C}`, {
      payment_status: 'PAID',
    })
    expect(paid.status).toBe(200)
    const c = await clients.si.get<any>(`/api/v1/si/get-invoice/${C}`)
    expect(c.body.data.payment_status).toBe('PAID')
    expect((await clients.app.get<any>(`/api/v1/app/invoice/confirm/${C}`)).status).toBe(200)
    await expectListed('payment_status=PAID', [C])
    // The record keeps the layout it was found in (docs/operations.md: a payment update leaves its
    // index keys, which only a validate or sign drops, and its plain body).
    const { Item } = await dynamo.send(
      new GetItemCommand({ TableName: api.tableName, Key: marshall(keys.invoice(C)), ConsistentRead: true }),
    )
    const record = unmarshall(Item!)
    expect(record).toMatchObject({ paymentStatus: 'PAID', gsi1pk: expect.any(String), invoice: { irn: C } })
    expect(record.invoiceGzip).toBeUndefined()

    const csv = await search('size=1000', { accept: 'text/csv' })
    expect(csv.status).toBe(200)
    expect(csv.headers.get('x-total-count')).toBe('4')
    for (const irn of [A, B, C, D]) expect(csv.text).toContain(irn)
    const xml = await clients.si.get<string>(`/api/v1/si/get-invoice/${B}`, { accept: 'application/xml' })
    expect(xml.status).toBe(200)
    // The UBL document is made from the stored body (a plain map in these records).
    expect(String(xml.body)).toContain(B)
    expect(String(xml.body)).toContain('<cbc:DocumentCurrencyCode>USD</cbc:DocumentCurrencyCode>')
    expect(String(xml.body)).toContain(buyerX.name)
    expect(String(xml.body)).toContain('Building material number 1')
    const pdf = await clients.si.get<string>(`/api/v1/invoices/${A}/pdf`, { accept: 'application/pdf' })
    expect(pdf.status).toBe(200)
    expect(pdf.headers.get('content-type')).toMatch(/^application\/pdf/)
  })

  it('lists a new invoice beside the old, in every filter space', async () => {
    await expectOldInvoicesServed(true)

    const E: Record<string, any> = { ...invoiceOfUnits(4, undefined, buyerX), issue_date: '2026-11-22' }
    const signed = await clients.app.post<any>('/api/v1/app/invoice/sign', E)
    expect(signed.status, JSON.stringify(signed.body)).toBe(200)
    await expectListed('', [E.irn, D, C, B, A])
    await expectListed(`buyer_tin=${buyerX.tin}`, [E.irn, D, B, A])
    await expectListed('invoice_type_code=381', [E.irn, C, B, A])
    await expectListed('currency=NGN', [E.irn, D, C, A])
  })
})
