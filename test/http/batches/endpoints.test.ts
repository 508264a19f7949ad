import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signAreaA } from '#client/signing.ts'
import { batchesOf } from '#lib/batches/repository.ts'
import { eventsOfBusiness } from '#lib/events/event.ts'
import { buildInvoice } from '../../fixtures/invoices/build.ts'
import { send, startApi, type TestApi } from '../../support/api.ts'
import { DEV, type DevClients, devClients } from '../../support/clients.ts'
import { eventually } from '../../support/standard-webhook-receiver.ts'

let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi({ workers: true })
  clients = devClients(api.url)
})
afterAll(() => api?.close())

const BATCH = '/api/v1/app/invoice/batch'

/** 100 invoices, every tenth one wrong in its own way (as a real batch would be). */
function mixedInvoices(): unknown[] {
  return Array.from({ length: 100 }, (_, i) => {
    const invoice: Record<string, unknown> = buildInvoice()
    switch (i % 10 === 3 ? Math.floor(i / 10) % 4 : -1) {
      case 0:
        return { ...invoice, invoice_type_code: 'nope' }
      case 1:
        return { ...invoice, business_id: DEV.other.businessId }
      case 2: {
        const { accounting_supplier_party: _, ...rest } = invoice
        return rest
      }
      case 3:
        return 'not an invoice'
      default:
        return invoice
    }
  })
}

async function completed(batchId: string, timeoutMs = 120_000) {
  return eventually(async () => {
    const reply = await clients.app.get<any>(`${BATCH}/${batchId}`)
    expect(reply.body.status).toBe('COMPLETED')
    return reply.body
  }, timeoutMs)
}

describe('POST /api/{v}/app/invoice/batch', () => {
  it('accepts 100 invoices with 202 and gives each item exactly the single endpoint reply', {
    timeout: 240_000,
  }, async () => {
    const invoices = mixedInvoices()
    const accepted = await clients.app.post<any>(BATCH, { action: 'sign', invoices })
    expect(accepted.status).toBe(202)
    expect(accepted.body).toEqual({
      batch_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: 'ACCEPTED',
      total: 100,
      created_at: expect.any(String),
    })
    expect(accepted.headers.get('location')).toBe(`${BATCH}/${accepted.body.batch_id}`)
    const batch = await completed(accepted.body.batch_id)
    expect(batch).toMatchObject({ total: 100, succeeded: 90, failed: 10 })
    expect(batch.items.map((i: { index: number }) => i.index)).toEqual([...Array(100).keys()])

    // The single endpoint, given each invoice now, answers what the batch recorded: signing the same
    // content again replays the first reply (same signed_at), and an invalid invoice gets the same errors.
    for (const [index, invoice] of invoices.entries()) {
      const item = batch.items[index]
      const single = await clients.app.post<any>('/api/v1/app/invoice/sign', JSON.stringify(invoice))
      expect(item.http_status, `item ${index}`).toBe(single.status)
      if (single.status === 200) expect(item).toMatchObject({ status: 'SUCCEEDED', reply: single.body })
      else
        expect(item).toMatchObject({
          status: 'FAILED',
          message: single.body.message,
          errors: single.body.errors,
        })
    }
    // One batch.completed event with the summary.
    const events = (await eventsOfBusiness(DEV.supplier.businessId)).filter(
      (e) => e.type === 'batch.completed' && e.data.batch_id === accepted.body.batch_id,
    )
    expect(events.map((e) => e.data)).toEqual([
      {
        batch_id: accepted.body.batch_id,
        action: 'sign',
        status: 'COMPLETED',
        total: 100,
        succeeded: 90,
        failed: 10,
      },
    ])
  })

  it('refuses an empty batch, more than 100 invoices, an unknown action (400), and SI keys (403)', async () => {
    const invoice = buildInvoice()
    expect((await clients.app.post(BATCH, { action: 'sign', invoices: [] })).status).toBe(400)
    const many = Array.from({ length: 101 }, () => invoice)
    const tooMany = await clients.app.post<any>(BATCH, { action: 'sign', invoices: many })
    expect(tooMany.status).toBe(400)
    expect(JSON.stringify(tooMany.body)).toMatch(/at most 100/)
    expect((await clients.app.post(BATCH, { action: 'transmit', invoices: [invoice] })).status).toBe(400)
    expect((await clients.si.post(BATCH, { action: 'sign', invoices: [invoice] })).status).toBe(403)
  })

  it('refuses with 400 an invoice nested thousands deep, which JSON.parse reads and JSON.stringify cannot write', async () => {
    const text = JSON.stringify({
      action: 'validate',
      invoices: [{ ...buildInvoice(), note: 'DEEP' }],
    }).replace('"DEEP"', `${'['.repeat(20_000)}1${']'.repeat(20_000)}`)
    const reply = await clients.app.post<any>(BATCH, text)
    expect(reply.status).toBe(400)
    expect(reply.body.errors).toEqual([
      expect.objectContaining({
        path: 'invoices/0',
        message: expect.stringMatching(/at most 32 levels deep/),
      }),
    ])
  })

  describe('GET /api/{v}/app/invoice/batch/{batch_id}', () => {
    it("answers 404 for another business's batch id", async () => {
      const accepted = await clients.app.post<any>(BATCH, { action: 'validate', invoices: [buildInvoice()] })
      expect(accepted.status).toBe(202)
      expect((await clients.buyer.get(`${BATCH}/${accepted.body.batch_id}`)).status).toBe(404)
      await completed(accepted.body.batch_id)
    })
  })

  it('makes one batch of 20 parallel posts with one Idempotency-Key', async () => {
    const since = new Date().toISOString()
    const body = JSON.stringify({ action: 'sign', invoices: [buildInvoice(), buildInvoice()] })
    const key = `batch-${Date.now()}`
    let last = 0
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => {
        // Each request its own timestamp (the replay guard refuses an identical signature).
        last = Math.max(Date.now(), last + 1)
        const headers = signAreaA(DEV.clients.app, {
          method: 'POST',
          target: BATCH,
          body,
          timestamp: new Date(last).toISOString(),
        })
        return send<any>(`${api.url}${BATCH}`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': key },
          body,
        })
      }),
    )
    const accepted = replies.filter((r) => r.status === 202)
    const busy = replies.filter((r) => r.status === 409)
    expect(accepted.length + busy.length).toBe(20)
    expect(accepted.length).toBeGreaterThanOrEqual(1)
    expect(new Set(accepted.map((r) => r.body.batch_id)).size).toBe(1)
    for (const r of busy) expect(r.body.message).toMatch(/still in progress/)
    // After it: the key replays the same batch.
    last = Math.max(Date.now(), last + 1)
    const again = await send<any>(`${api.url}${BATCH}`, {
      method: 'POST',
      headers: {
        ...signAreaA(DEV.clients.app, {
          method: 'POST',
          target: BATCH,
          body,
          timestamp: new Date(last).toISOString(),
        }),
        'content-type': 'application/json',
        'idempotency-key': key,
      },
      body,
    })
    expect(again.status).toBe(202)
    expect(again.body.batch_id).toBe(accepted[0]!.body.batch_id)
    const created = (await batchesOf(DEV.supplier.businessId)).filter((b) => b.createdAt >= since)
    expect(created.map((b) => b.batchId)).toEqual([accepted[0]!.body.batch_id])
    await completed(accepted[0]!.body.batch_id)
  })
})
