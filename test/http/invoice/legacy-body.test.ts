import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { invoiceOf } from '#lib/invoice/canonical.ts'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { buildInvoice } from '../../fixtures/invoices/build.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { type DevClients, devClients } from '../../support/clients.ts'

/**
 * Invoices signed before the body was stored gzipped hold it as a plain `invoice` map: such an item
 * (made here by signing one and writing its body back in the old layout) is still read, listed,
 * searched, updated, transmitted and exported, and what it gives is what the compressed form gives.
 */

let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(() => api?.close())

const rawItem = async (irn: string) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: keys.invoice(irn), ConsistentRead: true })))
    .Item!

/** Signs an invoice, then writes its body back as records written before the change hold it. */
async function signedInOldLayout() {
  const invoice: Record<string, any> = { ...buildInvoice(), note: 'Deliver to gate B' }
  expect((await clients.app.post('/api/v1/app/invoice/sign', invoice)).status).toBe(200)
  const item = await rawItem(invoice.irn)
  expect(item.invoiceGzip).toBeInstanceOf(Uint8Array)
  expect(item.invoice).toBeUndefined()
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.invoice(invoice.irn),
      UpdateExpression: 'SET invoice = :invoice REMOVE invoiceGzip',
      ExpressionAttributeValues: { ':invoice': invoiceOf(item) },
    }),
  )
  return invoice
}

describe('POST /api/{v}/app/invoice/sign', () => {
  it('stores the body compressed, and reads an item in the old layout as it read the new one', async () => {
    const invoice = await signedInOldLayout()
    const item = await rawItem(invoice.irn)
    expect(item.invoiceGzip).toBeUndefined()
    expect(item.invoice.irn).toBe(invoice.irn)

    // Read: get-invoice (JSON, and UBL as an export) gives the invoice with its note opened.
    const pulled = await clients.si.get<any>(`/api/v1/si/get-invoice/${invoice.irn}`)
    expect(pulled.status).toBe(200)
    expect(pulled.body.data).toMatchObject({ irn: invoice.irn, note: 'Deliver to gate B' })
    const xml = await clients.si.get<string>(`/api/v1/si/get-invoice/${invoice.irn}`, {
      accept: 'application/xml',
    })
    expect(xml.status).toBe(200)
    expect(String(xml.body)).toContain(invoice.irn)

    // Listed and searched.
    const listed = await clients.app.get<any>('/api/v1/invoices?size=50')
    expect(listed.body.data.content.map((s: { irn: string }) => s.irn)).toContain(invoice.irn)
    const found = await clients.app.get<any>(`/api/v1/invoices?irn=${invoice.irn}`)
    expect(found.body.data.content).toHaveLength(1)

    // Exported as a PDF.
    const pdf = await clients.si.get<string>(`/api/v1/invoices/${invoice.irn}/pdf`, {
      accept: 'application/pdf',
    })
    expect(pdf.status).toBe(200)

    // Updated and transmitted: the body stays in the layout it was found in.
    const paid = await clients.app.request<any>('PATCH', `/api/v1/app/invoice/update/${invoice.irn}`, {
      payment_status: 'PAID',
    })
    expect(paid.status).toBe(200)
    const transmitted = await clients.app.post<any>(`/api/v1/invoice/transmit/${invoice.irn}`, undefined)
    expect(transmitted.status).toBe(200)
    const after = await rawItem(invoice.irn)
    expect(after).toMatchObject({ paymentStatus: 'PAID', status: 'TRANSMITTED' })
    expect(invoiceOf(after)).toEqual(item.invoice)
    const confirmed = await clients.app.get<any>(`/api/v1/app/invoice/confirm/${invoice.irn}`)
    expect(confirmed.status).toBe(200)
  })
})
