import { PutCommand } from '@aws-sdk/lib-dynamodb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '#client/api-client.ts'
import { issueApiClient } from '#lib/platform/auth/credentials.ts'
import { createBusiness } from '#lib/registry/businesses.ts'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { getOutboxItem } from '#lib/notifications/outbox.ts'
import { FAN_OUT_PAGE } from '#lib/webhooks/delivery-worker.ts'
import { subscriptionPage } from '#lib/webhooks/subscriptions.ts'
import { buildInvoice } from '../../fixtures/invoices/build.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { DEV, type DevClients, devClients } from '../../support/clients.ts'
import { receiverPool, subscribe } from '../../support/webhook-subscriptions.ts'
import { deadWebhookUrl } from '../../support-invoices/webhook-receiver.ts'
import { eventually } from '../../support/standard-webhook-receiver.ts'

/**
 * CONTRACT section 14, what bounds one tenant's webhooks: 16 subscriptions, one per URL and event,
 * 10 redeliveries of an event a day, and one failure notice per business per day. (Fan-out pages,
 * deliveries per host and the log's pages: fan-out.test.ts.)
 */
process.env.WEBHOOK_RETRY_SCHEDULE = '500ms'

let api: TestApi
let clients: DevClients & { buyerAdmin: ApiClient; otherAdmin: ApiClient }
const { receiver, closeAll: closeReceivers } = receiverPool()
beforeAll(async () => {
  api = await startApi({ workers: ['webhook-fan-out', 'webhook-deliver', 'outbox-sender'] })
  const admin = async (businessId: string, apiKey: string) => {
    await issueApiClient({ apiKey, secret: `${apiKey}-secret`, businessId, roles: ['ADMIN'] })
    return new ApiClient(api.url, { area: 'A', credentials: { apiKey, secret: `${apiKey}-secret` } })
  }
  clients = {
    ...devClients(api.url),
    buyerAdmin: await admin(DEV.buyer.businessId, 'bounds-buyer-admin'),
    otherAdmin: await admin(DEV.other.businessId, 'bounds-other-admin'),
  }
})
afterAll(async () => {
  await closeReceivers()
  await api?.close()
})

describe('subscriptions per business', () => {
  it('takes at most 16, even when 20 are asked for at once (409 naming the limit); a delete frees one', async () => {
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        clients.otherAdmin.post<any>('/api/v1/webhooks', {
          url: `http://127.0.0.1:9/hooks/${i}`,
          events: ['batch.completed'],
        }),
      ),
    )
    const made = replies.filter((r) => r.status === 201)
    const refused = replies.filter((r) => r.status === 409)
    expect([made.length, refused.length]).toEqual([16, 4])
    expect(refused[0]!.body.message).toMatch(/16 webhook subscriptions, the most it may have/)
    expect((await clients.otherAdmin.get<any>('/api/v1/webhooks')).body.data).toHaveLength(16)

    const id = made[0]!.body.data.id
    expect((await clients.otherAdmin.request('DELETE', `/api/v1/webhooks/${id}`)).status).toBe(204)
    const again = { url: 'http://127.0.0.1:9/hooks/again', events: ['batch.completed'] }
    expect((await clients.otherAdmin.post('/api/v1/webhooks', again)).status).toBe(201)
    expect(
      (await clients.otherAdmin.post('/api/v1/webhooks', { ...again, url: `${again.url}/2` })).status,
    ).toBe(409)
  })

  it('leaves nothing of a deleted subscription where the fan-out and the due sweep read (CONTRACT 18)', async () => {
    const { businessId } = await createBusiness({ name: 'Churning Webhooks Ltd', tin: '55667788-0002' })
    await issueApiClient({
      apiKey: 'bounds-churn-admin',
      secret: 'churn-secret',
      businessId,
      roles: ['ADMIN'],
    })
    const churn = new ApiClient(api.url, {
      area: 'A',
      credentials: { apiKey: 'bounds-churn-admin', secret: 'churn-secret' },
    })
    // 24 made and deleted (more than a fan-out page of 10), then one kept.
    for (let i = 0; i < 24; i++) {
      const made = await subscribe(churn, `http://127.0.0.1:9/churn/${i}`, ['batch.completed'])
      expect((await churn.request('DELETE', `/api/v1/webhooks/${made.id}`)).status).toBe(204)
      expect((await churn.get(`/api/v1/webhooks/${made.id}/deliveries`)).status).toBe(404)
    }
    const kept = await subscribe(churn, 'http://127.0.0.1:9/churn/kept', ['batch.completed'])
    const page = await subscriptionPage(businessId, FAN_OUT_PAGE)
    expect(page.subscriptions.map((s) => s.id)).toEqual([kept.id])
    expect(page.next).toBeUndefined()
    expect((await churn.get<any>('/api/v1/webhooks')).body.data.map((s: any) => s.id)).toEqual([kept.id])
  })

  it('counts the subscriptions a business made before the count existed (a 17th is still refused)', async () => {
    const { businessId } = await createBusiness({ name: 'Earlier Webhooks Ltd', tin: '55667788-0001' })
    await issueApiClient({
      apiKey: 'bounds-earlier-admin',
      secret: 'earlier-secret',
      businessId,
      roles: ['ADMIN'],
    })
    const earlierAdmin = new ApiClient(api.url, {
      area: 'A',
      credentials: { apiKey: 'bounds-earlier-admin', secret: 'earlier-secret' },
    })
    // As subscriptions were stored before CONTRACT section 14: no count item, no guards, no `counted`.
    // 15 live ones and 3 deleted ones (which do not count).
    const earlierId = (i: number) => `wh_${String(i).padStart(32, 'e')}`
    const earlier = Array.from({ length: 18 }, (_, i) => ({
      ...keys.webhookSubscription(businessId, earlierId(i)),
      entity: 'WEBHOOK_SUBSCRIPTION',
      id: earlierId(i),
      businessId,
      url: `http://127.0.0.1:9/earlier/${i}`,
      events: ['batch.completed'],
      status: i < 15 ? 'ACTIVE' : 'DELETED',
      secret: 'enc:v1:not-used-here',
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
    }))
    for (const Item of earlier) await db().send(new PutCommand({ TableName: tableName(), Item }))
    const create = (n: number) =>
      earlierAdmin.post<any>('/api/v1/webhooks', {
        url: `http://127.0.0.1:9/later/${n}`,
        events: ['batch.completed'],
      })
    expect((await create(1)).status).toBe(201)
    const refused = await create(2)
    expect(refused.status).toBe(409)
    expect(refused.body.message).toMatch(/16 webhook subscriptions, the most it may have/)
    // Deleting an earlier one frees its place, and only that one.
    expect((await earlierAdmin.request('DELETE', `/api/v1/webhooks/${earlierId(3)}`)).status).toBe(204)
    expect((await create(3)).status).toBe(201)
    expect((await create(4)).status).toBe(409)
    expect((await earlierAdmin.get<any>('/api/v1/webhooks')).body.data).toHaveLength(16)
  })

  it('refuses a second subscription of one URL to an event it already receives (409 naming it)', async () => {
    const url = 'http://127.0.0.1:9/dup'
    const first = await subscribe(clients.buyerAdmin, url, ['invoice.signed', 'invoice.received'])
    const dup = await clients.buyerAdmin.post<any>('/api/v1/webhooks', { url, events: ['invoice.received'] })
    expect(dup.status).toBe(409)
    expect(dup.body.message).toContain(first.id)
    expect(dup.body.message).toContain('invoice.received')
    // Another event to the same URL is another subscription; once deleted, the URL is free again.
    const other = await subscribe(clients.buyerAdmin, url, ['batch.completed'])
    expect((await clients.buyerAdmin.request('DELETE', `/api/v1/webhooks/${first.id}`)).status).toBe(204)
    const retaken = await subscribe(clients.buyerAdmin, url, ['invoice.received'])
    for (const id of [other.id, retaken.id])
      expect((await clients.buyerAdmin.request('DELETE', `/api/v1/webhooks/${id}`)).status).toBe(204)
  })
})

describe('delivery', () => {
  it('redelivers one event at most 10 times a day (409 saying so)', async () => {
    const r = await receiver()
    const { id, secret } = await subscribe(clients.admin, r.url, ['invoice.payment_status_changed'])
    r.secret = secret
    const invoice = buildInvoice()
    expect((await clients.app.post('/api/v1/app/invoice/sign', invoice)).status).toBe(200)
    expect(
      (
        await clients.app.request('PATCH', `/api/v1/app/invoice/update/${invoice.irn}`, {
          payment_status: 'PAID',
        })
      ).status,
    ).toBe(200)
    await eventually(() => expect(r.received).toHaveLength(1))
    const eventId = r.received[0]!.id
    const redeliver = () =>
      clients.admin.post<any>(`/api/v1/webhooks/${id}/deliveries/${eventId}/redeliver`, {})
    for (let n = 2; n <= 11; n++) {
      expect((await redeliver()).status).toBe(202)
      await eventually(() => expect(r.received).toHaveLength(n))
      await eventually(async () => {
        const log = await clients.admin.get<any>(`/api/v1/webhooks/${id}/deliveries`)
        expect(log.body.data.content[0].status).toBe('DELIVERED')
      })
    }
    const over = await redeliver()
    expect(over.status).toBe(409)
    expect(over.body.message).toMatch(/already sent again 10 times today/)
    await api.workers.drained()
    expect(r.received).toHaveLength(11)
  })

  it('tells the operator once per business and day, whatever the count of failing subscriptions, the URL as data', async () => {
    const urls = [await deadWebhookUrl(), await deadWebhookUrl()]
    const subs = [
      await subscribe(clients.buyerAdmin, urls[0]!, ['invoice.received']),
      await subscribe(clients.buyerAdmin, urls[1]!, ['invoice.received']),
    ]
    const invoice = buildInvoice()
    expect((await clients.app.post('/api/v1/app/invoice/sign', invoice)).status).toBe(200)
    expect((await clients.app.post('/api/v1/app/invoice/transmit', { irn: invoice.irn })).status).toBe(200)
    const day = new Date().toISOString().slice(0, 10)
    await eventually(async () => {
      for (const sub of subs) {
        const listed = await clients.buyerAdmin.get<any>('/api/v1/webhooks')
        expect(listed.body.data.find((s: { id: string }) => s.id === sub.id).status).toBe('FAILED')
      }
    })
    await api.workers.drained()
    const notice = (await getOutboxItem(`WEBHOOKS-FAILED-${DEV.buyer.businessId}-${day}`)) as any
    expect(notice).toBeDefined()
    expect([...notice.subscriptionIds].sort()).toEqual(subs.map((s) => s.id).sort())
    // The notice names one subscription; the URL is not a link a mail client would open.
    expect(notice.body).toMatch(/hxxp\[:\/\/\]127\[\.\]0\[\.\]0\[\.\]1/)
    expect(notice.body).not.toMatch(/https?:\/\/127/)
  })
})
