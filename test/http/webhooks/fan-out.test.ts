import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { marshall } from '@aws-sdk/util-dynamodb'
import { type QueueTransport, useLocalQueues } from '#lib/platform/async/queue.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { newEvent } from '#lib/events/event.ts'
import { handler as deliverHandler } from '../../../functions/webhooks/webhook-deliver.ts'
import { handler as fanOutHandler } from '../../../functions/webhooks/webhook-fan-out.ts'
import { buildInvoice } from '../../fixtures/invoices/build.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { DEV, type DevClients, devClients } from '../../support/clients.ts'
import { receiverPool, subscribe } from '../../support/webhook-subscriptions.ts'
import { eventually } from '../../support/standard-webhook-receiver.ts'

/**
 * CONTRACT section 14, delivery work in bounded units: an event's fan-out in pages of subscriptions,
 * at most 10 deliveries in flight per destination host, the delivery log read a page at a time.
 * (Bounds on subscriptions, redeliveries and notices: bounds.test.ts.)
 */
process.env.WEBHOOK_RETRY_SCHEDULE = '1s'

let api: TestApi
let clients: DevClients
const closers: (() => Promise<unknown>)[] = []
const { receiver, closeAll: closeReceivers } = receiverPool()
beforeAll(async () => {
  api = await startApi({ workers: ['webhook-fan-out', 'webhook-deliver'] })
  clients = devClients(api.url)
})
afterAll(async () => {
  for (const close of closers) await close()
  await closeReceivers()
  await api?.close()
})

describe('delivery', () => {
  it('fans one event out to 12 subscriptions (two pages of work), each once', async () => {
    const receivers = await Promise.all(Array.from({ length: 12 }, () => receiver()))
    await Promise.all(
      receivers.map(async (r) => {
        r.secret = (await subscribe(clients.admin, r.url, ['invoice.signed'])).secret
      }),
    )
    const invoice = buildInvoice()
    expect((await clients.app.post('/api/v1/app/invoice/sign', invoice)).status).toBe(200)
    await eventually(() => {
      for (const r of receivers)
        expect(r.unique().filter((e) => e.event.data.irn === invoice.irn)).toHaveLength(1)
    })
    await api.workers.drained()
    for (const r of receivers) {
      expect(r.received).toHaveLength(1)
      expect(r.received[0]!.verified).toBe(true)
    }
  })

  it('does one page of 10 subscriptions per unit of work: the stream queues the next page as a message', async () => {
    // The 12 subscriptions above. The queue is replaced by a recorder for this test (the local
    // runner's transport is put back after), so each unit of work is seen on its own.
    const slot = Symbol.for('einvoicing.localQueues')
    const runner = (globalThis as Record<symbol, QueueTransport | undefined>)[slot]
    const sent: Record<string, unknown>[] = []
    useLocalQueues({ send: async (_queue, body) => void sent.push(JSON.parse(body)) })
    try {
      const event = newEvent(
        'invoice.signed',
        DEV.supplier.businessId,
        { irn: 'PAGE001-94ND90NR-20261121', status: 'SIGNED', payment_status: 'PENDING' } as never,
        new Date().toISOString(),
      )
      const item = { ...keys.event(event.id), entity: 'EVENT', ...event }
      const streamed = {
        Records: [{ eventName: 'INSERT', dynamodb: { NewImage: marshall(item), SequenceNumber: '1' } }],
      }
      expect(await fanOutHandler(streamed as never)).toEqual({ batchItemFailures: [] })
      const page = sent.filter((m) => m.kind === 'fan-out')
      expect(sent.filter((m) => m.kind === undefined)).toHaveLength(10)
      expect(page).toHaveLength(1)

      sent.length = 0
      const queued = { Records: [{ messageId: 'page-2', body: JSON.stringify(page[0]) }] }
      expect(await deliverHandler(queued as never)).toEqual({ batchItemFailures: [] })
      expect(sent).toHaveLength(2)
      expect(sent.every((m) => m.kind === undefined && m.eventId === event.id)).toBe(true)
    } finally {
      useLocalQueues(runner)
    }
  })

  it('has at most 10 deliveries in flight to one host, and delivers the rest after', async () => {
    let inFlight = 0
    let most = 0
    const ids = new Set<string>()
    const slow = createServer((req, res) => {
      inFlight++
      most = Math.max(most, inFlight)
      ids.add(String(req.headers['webhook-id']))
      req.resume()
      setTimeout(() => {
        inFlight--
        res.writeHead(204).end()
      }, 800)
    })
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve))
    closers.push(() => new Promise((resolve) => slow.close(resolve)))
    const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/slow`
    const { id } = await subscribe(clients.admin, url, ['invoice.validated'])
    const replies = await Promise.all(
      Array.from({ length: 16 }, () => clients.si.post('/api/v1/si/validate', buildInvoice())),
    )
    expect(replies.map((r) => r.status)).toEqual(Array(16).fill(200))
    await eventually(() => expect(ids.size).toBe(16), 25_000)
    await api.workers.drained()
    expect(most).toBeGreaterThan(1)
    expect(most).toBeLessThanOrEqual(10)

    // The log is read a page at a time, newest first, by cursor: every delivery once, no totals.
    const seen: string[] = []
    const created: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const query: string = `size=5&status=delivered${cursor ? `&cursor=${cursor}` : ''}`
      const reply = await clients.admin.get<any>(`/api/v1/webhooks/${id}/deliveries?${query}`)
      expect(reply.status).toBe(200)
      expect(reply.body.data.content.length).toBeLessThanOrEqual(5)
      for (const d of reply.body.data.content) {
        seen.push(d.event_id)
        created.push(d.created_at)
      }
      cursor = reply.body.data.page.next_cursor
      pages++
    } while (cursor && pages < 10)
    expect(pages).toBe(4)
    expect(new Set(seen)).toEqual(ids)
    expect(seen).toHaveLength(16)
    expect(created).toEqual([...created].sort().reverse())
    const bad = await clients.admin.get<any>(`/api/v1/webhooks/${id}/deliveries?cursor=bm90LWEtY3Vyc29y`)
    expect(bad.status).toBe(400)
    expect(bad.body.message).toMatch(/cursor/)
  })
})
