import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { issueApiClient } from '#lib/platform/auth/credentials.ts'
import { ApiClient } from '#client/api-client.ts'
import { getOutboxItem } from '#lib/notifications/outbox.ts'
import { buildInvoice } from '../../fixtures/invoices/build.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { DEV, type DevClients, devClients } from '../../support/clients.ts'
import { parallelClient } from '../../support-invoices/requests.ts'
import {
  type EventReceiver,
  eventually,
  startEventReceiver,
} from '../../support/standard-webhook-receiver.ts'

// A short schedule (CONTRACT section 11): 4 attempts in about 7 s instead of 27 hours.
process.env.WEBHOOK_RETRY_SCHEDULE = '1s,2s,4s'

let api: TestApi
let clients: DevClients & { buyerAdmin: ApiClient; otherAdmin: ApiClient }
const receivers: EventReceiver[] = []
beforeAll(async () => {
  api = await startApi({ workers: true })
  // ADMIN keys of the buyer and of a third business, beside the seeded supplier's.
  const admin = async (businessId: string, apiKey: string) => {
    await issueApiClient({ apiKey, secret: `${apiKey}-secret`, businessId, roles: ['ADMIN'] })
    return new ApiClient(api.url, { area: 'A', credentials: { apiKey, secret: `${apiKey}-secret` } })
  }
  clients = {
    ...devClients(api.url),
    buyerAdmin: await admin(DEV.buyer.businessId, 'test-buyer-admin'),
    otherAdmin: await admin(DEV.other.businessId, 'test-other-admin'),
  }
})
afterAll(async () => {
  await api?.close()
  await Promise.all(receivers.map((r) => r.close()))
})

const ADMIN_EVENTS = [
  'invoice.validated',
  'invoice.signed',
  'invoice.transmitted',
  'invoice.payment_status_changed',
  'batch.completed',
]

/** A receiver subscribed (through the API, as an ADMIN key) to `events` of the admin key's business. */
async function subscribed(events: string[], client = clients.admin) {
  const receiver = await startEventReceiver()
  receivers.push(receiver)
  const reply = await client.post<any>('/api/v1/webhooks', { url: receiver.url, events })
  expect(reply.status).toBe(201)
  receiver.secret = reply.body.data.secret
  return { receiver, id: reply.body.data.id as string }
}

const patch = (irn: string, payment_status: string) =>
  clients.app.request('PATCH', `/api/v1/app/invoice/update/${irn}`, { payment_status })

describe('POST /api/v1/webhooks, GET /api/v1/webhooks and DELETE /api/v1/webhooks/{id}', () => {
  it('creates a subscription with a whsec_ secret shown once, lists it without, deletes it', async () => {
    const created = await clients.admin.post<any>('/api/v1/webhooks', {
      url: 'http://127.0.0.1:9/hooks',
      events: ['invoice.signed'],
    })
    expect(created.status).toBe(201)
    const { id, secret } = created.body.data
    expect(created.body.data).toEqual({
      id: expect.stringMatching(/^wh_[0-9a-f]{32}$/),
      url: 'http://127.0.0.1:9/hooks',
      events: ['invoice.signed'],
      status: 'ACTIVE',
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      created_at: expect.any(String),
    })
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32)
    const listed = await clients.admin.get<any>('/api/v1/webhooks')
    expect(listed.status).toBe(200)
    const mine = listed.body.data.find((s: { id: string }) => s.id === id)
    expect(mine).toEqual({ ...created.body.data, secret: undefined })
    expect(JSON.stringify(listed.body)).not.toContain(secret)
    // Another business cannot see it, nor delete it, nor read its deliveries.
    const theirs = await clients.otherAdmin.get<any>('/api/v1/webhooks')
    expect(theirs.body.data.map((s: { id: string }) => s.id)).not.toContain(id)
    expect((await clients.otherAdmin.request('DELETE', `/api/v1/webhooks/${id}`)).status).toBe(404)
    expect((await clients.otherAdmin.get(`/api/v1/webhooks/${id}/deliveries`)).status).toBe(404)
    expect((await clients.admin.request('DELETE', `/api/v1/webhooks/${id}`)).status).toBe(204)
    expect((await clients.admin.request('DELETE', `/api/v1/webhooks/${id}`)).status).toBe(404)
  })

  it('refuses non-ADMIN keys (403), http:// to other hosts, and unknown event types (400)', async () => {
    const body = { url: 'http://127.0.0.1:9/x', events: ['invoice.signed'] }
    expect((await clients.app.post('/api/v1/webhooks', body)).status).toBe(403)
    const remote = await clients.admin.post<any>('/api/v1/webhooks', { ...body, url: 'http://example.com/x' })
    expect(remote.status).toBe(400)
    expect(remote.body.message).toMatch(/https/)
    const unknown = await clients.admin.post<any>('/api/v1/webhooks', { ...body, events: ['invoice.eaten'] })
    expect(unknown.status).toBe(400)
  })
})

describe('webhook delivery', () => {
  it('delivers each subscribed event type once, Standard-Webhooks signed, and nothing else', async () => {
    const all = await subscribed(ADMIN_EVENTS)
    const signedOnly = await subscribed(['invoice.signed'])
    const invoice = buildInvoice()
    const { irn } = invoice
    expect((await clients.si.post('/api/v1/si/validate', invoice)).status).toBe(200)
    expect((await clients.app.post('/api/v1/app/invoice/sign', invoice)).status).toBe(200)
    expect((await clients.app.post('/api/v1/app/invoice/transmit', { irn })).status).toBe(200)
    expect((await patch(irn, 'PAID')).status).toBe(200)

    const types = [
      'invoice.validated',
      'invoice.signed',
      'invoice.transmitted',
      'invoice.payment_status_changed',
    ]
    const forIrn = (r: EventReceiver) => r.received.filter((e) => e.event.data.irn === irn)
    await eventually(() =>
      expect(
        forIrn(all.receiver)
          .map((e) => e.event.type)
          .sort(),
      ).toEqual([...types].sort()),
    )
    await eventually(() =>
      expect(forIrn(signedOnly.receiver).map((e) => e.event.type)).toEqual(['invoice.signed']),
    )
    for (const e of [...forIrn(all.receiver), ...forIrn(signedOnly.receiver)]) {
      expect(e.verified).toBe(true)
      expect(e.asPublished).toBe(true)
      expect(e.id).toBe(e.event.id)
      expect(e.event.business_id).toBe(DEV.supplier.businessId)
      expect(Math.abs(Number(e.timestamp) - Date.now() / 1000)).toBeLessThan(60)
    }
    // The other subscription's secret does not verify this one's deliveries.
    expect(forIrn(signedOnly.receiver)[0]!.id).toBe(
      forIrn(all.receiver).find((e) => e.event.type === 'invoice.signed')!.id,
    )
  })

  it('sends batch.completed with the batch summary once every item has its result', async () => {
    const { receiver } = await subscribed(['batch.completed'])
    const broken = { ...buildInvoice(), invoice_type_code: 'nope' }
    const accepted = await clients.app.post<any>('/api/v1/app/invoice/batch', {
      action: 'sign',
      invoices: [buildInvoice(), broken, buildInvoice()],
    })
    expect(accepted.status).toBe(202)
    const batchId = accepted.body.batch_id
    const [delivered] = await eventually(() => {
      const mine = receiver.received.filter((e) => e.event.data.batch_id === batchId)
      expect(mine).toHaveLength(1)
      return mine
    }, 30_000)
    expect(delivered!.verified).toBe(true)
    expect(delivered!.asPublished).toBe(true)
    expect(delivered!.event).toMatchObject({
      type: 'batch.completed',
      business_id: DEV.supplier.businessId,
      data: { batch_id: batchId, action: 'sign', status: 'COMPLETED', total: 3, succeeded: 2, failed: 1 },
    })
    // The event follows the batch's own completion: its status already says so.
    const status = await clients.app.get<any>(`/api/v1/app/invoice/batch/${batchId}`)
    expect(status.body).toMatchObject({ status: 'COMPLETED', succeeded: 2, failed: 1 })
  })

  it("sends invoice.received to the buyer's subscription and never another business's events", async () => {
    const buyerAdmin = await subscribed(['invoice.received', 'invoice.signed'], clients.buyerAdmin)
    const supplier = await subscribed(['invoice.received'])
    const invoice = buildInvoice()
    expect((await clients.app.post('/api/v1/app/invoice/sign', invoice)).status).toBe(200)
    expect((await clients.app.post('/api/v1/app/invoice/transmit', { irn: invoice.irn })).status).toBe(200)
    await eventually(() =>
      expect(buyerAdmin.receiver.received.map((e) => [e.event.type, e.event.data.irn, e.verified])).toEqual([
        ['invoice.received', invoice.irn, true],
      ]),
    )
    await api.workers!.drained()
    expect(supplier.receiver.received).toEqual([])
    expect(buyerAdmin.receiver.received[0]!.event.business_id).toBe(DEV.buyer.businessId)
  })

  it("sends invoice.receipt_confirmed to the supplier's subscription once, however often the buyer confirms", async () => {
    const supplier = await subscribed(['invoice.receipt_confirmed'])
    const buyerAdmin = await subscribed(['invoice.receipt_confirmed'], clients.buyerAdmin)
    const invoice = buildInvoice()
    expect((await clients.app.post('/api/v1/app/invoice/sign', invoice)).status).toBe(200)
    expect((await clients.app.post('/api/v1/app/invoice/transmit', { irn: invoice.irn })).status).toBe(200)
    // Two at once, each signed with its own timestamp (identical signed requests are one replayed).
    const buyer = parallelClient(api.url, DEV.clients.buyer)
    const confirmations = [0, 1].map(() =>
      buyer.patch<any>(`/api/v1/invoice/transmit/${invoice.irn}`, undefined),
    )
    for (const reply of await Promise.all(confirmations)) expect(reply.status).toBe(200)
    expect(
      (await clients.buyer.request<any>('PATCH', `/api/v1/invoice/transmit/${invoice.irn}`)).status,
    ).toBe(200)
    await eventually(() =>
      expect(
        supplier.receiver.received.map((e) => [e.event.type, e.event.data.irn, e.verified, e.asPublished]),
      ).toEqual([['invoice.receipt_confirmed', invoice.irn, true, true]]),
    )
    await api.workers!.drained()
    expect(supplier.receiver.received).toHaveLength(1)
    expect(supplier.receiver.received[0]!.event.business_id).toBe(DEV.supplier.businessId)
    expect(buyerAdmin.receiver.received).toEqual([])
  })

  describe('GET /api/v1/webhooks/{id}/deliveries', () => {
    it('retries a receiver down for 3 attempts with the same webhook-id; the log shows 4 attempts', async () => {
      const { receiver, id } = await subscribed(['invoice.signed'])
      receiver.answer = (n) => (n < 3 ? 503 : 200)
      const invoice = buildInvoice()
      expect((await clients.app.post('/api/v1/app/invoice/sign', invoice)).status).toBe(200)
      await eventually(
        () => expect(receiver.received.map((r) => r.answered)).toEqual([503, 503, 503, 200]),
        30_000,
      )
      expect(new Set(receiver.received.map((r) => r.id)).size).toBe(1)
      expect(receiver.received.every((r) => r.verified)).toBe(true)
      // Waits grow: about 1 s, 2 s, 4 s (+-20 %).
      const times = receiver.received.map((r) => Number(r.timestamp))
      expect(times[3]! - times[0]!).toBeGreaterThanOrEqual(4)

      const log = await eventually(async () => {
        const reply = await clients.admin.get<any>(`/api/v1/webhooks/${id}/deliveries?status=delivered`)
        expect(reply.body.data.content).toHaveLength(1)
        return reply.body.data
      })
      expect(log.page).toEqual({ size: 50, next_cursor: null })
      expect(log.content[0]).toMatchObject({
        event_id: receiver.received[0]!.id,
        event_type: 'invoice.signed',
        status: 'DELIVERED',
        attempts: 4,
        last_http_status: 200,
        next_attempt_at: null,
      })
      expect(log.content[0].log.map((a: { status: number }) => a.status)).toEqual([503, 503, 503, 200])
    })
  })

  describe('POST /api/v1/webhooks/{id}/deliveries/{eventId}/redeliver', () => {
    it('marks the subscription FAILED after the schedule, tells the admin list, and redelivers on request', async () => {
      expect(
        (await clients.notify.post('/notification/email', { email: ['webhooks-ops@example.com'] })).status,
      ).toBe(201)
      const { receiver, id } = await subscribed(['invoice.signed'])
      receiver.answer = () => 500
      const invoice = buildInvoice()
      expect((await clients.app.post('/api/v1/app/invoice/sign', invoice)).status).toBe(200)
      const failed = await eventually(async () => {
        const reply = await clients.admin.get<any>(`/api/v1/webhooks/${id}/deliveries?status=failed`)
        expect(reply.body.data.content).toHaveLength(1)
        return reply.body.data.content[0]
      }, 30_000)
      expect(failed).toMatchObject({
        status: 'FAILED',
        attempts: 4,
        last_http_status: 500,
        last_error: 'HTTP 500',
      })
      expect(receiver.received).toHaveLength(4)
      const listed = await clients.admin.get<any>('/api/v1/webhooks')
      expect(listed.body.data.find((s: { id: string }) => s.id === id)).toMatchObject({ status: 'FAILED' })
      // One notice per business per day, whatever the count of failing subscriptions.
      const notice = await eventually(async () => {
        const day = failed.last_attempt_at.slice(0, 10)
        const item = await getOutboxItem(`WEBHOOKS-FAILED-${DEV.supplier.businessId}-${day}`)
        expect(item?.status).toBe('SENT')
        return item!
      })
      expect(notice.recipients).toContain('webhooks-ops@example.com')
      expect(notice.subject).toContain(DEV.supplier.businessId)
      expect(notice.body).toContain(id)

      // Back up: a redelivery sends the same event (same webhook-id) and the subscription is ACTIVE again.
      receiver.answer = () => 200
      const redeliver = await clients.admin.post<any>(
        `/api/v1/webhooks/${id}/deliveries/${failed.event_id}/redeliver`,
        {},
      )
      expect(redeliver.status).toBe(202)
      await eventually(() =>
        expect(receiver.received.map((r) => r.answered)).toEqual([500, 500, 500, 500, 200]),
      )
      expect(new Set(receiver.received.map((r) => r.id))).toEqual(new Set([failed.event_id]))
      await eventually(async () => {
        const reply = await clients.admin.get<any>('/api/v1/webhooks')
        expect(reply.body.data.find((s: { id: string }) => s.id === id)).toMatchObject({ status: 'ACTIVE' })
      })
    })
  })
})
