import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createBatch } from '#lib/batches/repository.ts'
import { buildInvoice } from '../../fixtures/invoices/build.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { DEV, type DevClients, devClients } from '../../support/clients.ts'
import { eventually } from '../../support/standard-webhook-receiver.ts'
import { otherBusinessInvoice } from '../../support-invoices/notes.ts'

/**
 * CONTRACT 18: nothing stalls a batch. A result too large for its item, and a fault that is no answer
 * about the invoice, each fail their item with its reason and the batch completes; and another
 * business's batch submitted after a poison one does not wait for it. Before, the oversized result
 * was thrown back to the table's stream, retried 2,000 times, and held every batch behind it in its
 * shard at ACCEPTED.
 */

let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi({ workers: ['batch-dispatch', 'batch-worker'] })
  clients = devClients(api.url)
})
afterAll(() => api?.close())

const BATCH = '/api/v1/app/invoice/batch'

/** A valid invoice whose sign reply is over 400 KB: 2,500 unknown keys of 200 characters, each a warning. */
function oversizedReply(): Record<string, unknown> {
  const invoice: Record<string, unknown> = buildInvoice()
  for (let i = 0; i < 2_500; i++) invoice[`x${String(i).padStart(4, '0')}${'k'.repeat(195)}`] = 1
  return invoice
}

/** A valid invoice with a 420 KB buyer name: its search list item is over DynamoDB's 400 KB. */
function unstorableListing(): Record<string, any> {
  const invoice = buildInvoice()
  invoice.accounting_customer_party.party_name = 'B'.repeat(420 * 1024)
  return invoice
}

async function completed(client: 'app' | 'other', batchId: string, timeoutMs = 90_000) {
  return eventually(async () => {
    const reply = await clients[client].get<any>(`${BATCH}/${batchId}`)
    expect(reply.body.status).toBe('COMPLETED')
    return reply.body
  }, timeoutMs)
}

describe('POST /api/{v}/app/invoice/batch: a batch that cannot stall', () => {
  it("fails an oversized result and a lasting fault item by item, completes the batch, and never holds another business's batch", {
    timeout: 240_000,
  }, async () => {
    const tooLarge = oversizedReply()
    const fault = unstorableListing()
    const fine = buildInvoice()
    // Stored as a batch accepted before every field had its bound (CONTRACT 18): the request's own
    // bounds now refuse such invoices at the door, so the poison is written as it would have been.
    const poison = await createBatch(
      {
        businessId: DEV.supplier.businessId,
        apiKeyId: DEV.clients.app.apiKey,
        roles: ['APP'],
        version: 'v1',
        action: 'sign',
      },
      [tooLarge, fault, fine],
    )
    const other = await clients.other.post<any>(BATCH, {
      action: 'sign',
      invoices: [otherBusinessInvoice(1)],
    })
    expect(other.status).toBe(202)

    // The other business's batch, submitted after the poison one, completes.
    expect(await completed('other', other.body.batch_id)).toMatchObject({ total: 1, succeeded: 1, failed: 0 })

    const batch = await completed('app', poison.batchId)
    expect(batch.total).toBe(3)
    const [first, second, third] = batch.items
    // Too large to keep before replies were bounded; now its warnings stop at 100 and it signs, or
    // it fails with its reason: either way nothing is half-written and the batch goes on.
    if (first.status === 'FAILED') {
      expect(first).toMatchObject({
        http_status: 413,
        errors: [expect.objectContaining({ code: 'BATCH_RESULT_TOO_LARGE' })],
      })
      expect((await clients.si.get<any>(`/api/v1/si/get-invoice/${tooLarge.irn}`)).status).toBe(404)
    } else expect(first).toMatchObject({ status: 'SUCCEEDED', http_status: 200 })
    // A fault on every attempt before every stored field had its bound; now refused with a 400
    // naming the field: failed with its reason all the same, nothing written.
    expect(second.status).toBe('FAILED')
    if (second.http_status === 503)
      expect(second.errors).toEqual([expect.objectContaining({ code: 'BATCH_ITEM_RETRIES_EXHAUSTED' })])
    else expect(second.http_status).toBe(400)
    expect((await clients.si.get<any>(`/api/v1/si/get-invoice/${fault.irn}`)).status).toBe(404)
    expect(third).toMatchObject({ status: 'SUCCEEDED', http_status: 200, irn: fine.irn })
  })
})
