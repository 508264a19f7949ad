import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { marshall } from '@aws-sdk/util-dynamodb'
import { type QueueTransport, useLocalQueues } from '#lib/platform/async/queue.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { newEvent } from '#lib/events/event.ts'
import { readDelivery } from '#lib/webhooks/delivery-records.ts'
import { handler as deliverHandler } from '../../../functions/webhooks/webhook-deliver.ts'
import { handler as fanOutHandler } from '../../../functions/webhooks/webhook-fan-out.ts'
import { handler as sweepHandler } from '../../../functions/webhooks/webhook-overdue-sweep.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { DEV, devClients } from '../../support/clients.ts'
import { receiverPool, subscribe } from '../../support/webhook-subscriptions.ts'

/**
 * Webhook delivery under the faults of issue 33 (CONTRACT sections 11 and 19), each driven by hand:
 * the queue is replaced by one that hands a message to the delivery worker the moment it is sent,
 * so a retry can arrive before the attempt that queued it is recorded.
 */
// Due at once: the retry's message is handled as soon as it is queued, not after a wait.
process.env.WEBHOOK_RETRY_SCHEDULE = '10ms,10ms'

let api: TestApi
const { receiver, closeAll } = receiverPool()
beforeAll(async () => {
  api = await startApi()
})
afterAll(async () => {
  await closeAll()
  await api?.close()
})

const slot = Symbol.for('einvoicing.localQueues')
const holder = globalThis as Record<symbol, QueueTransport | undefined>

/** Runs `fn` with a queue that delivers each message to the worker at once, inside the send. */
async function withEagerQueue<T>(fn: (sent: Record<string, unknown>[]) => Promise<T>): Promise<T> {
  const before = holder[slot]
  const sent: Record<string, unknown>[] = []
  useLocalQueues({
    send: async (_queue, body) => {
      sent.push(JSON.parse(body))
      const reply = await deliverHandler({ Records: [{ messageId: `m${sent.length}`, body }] } as never)
      expect(reply).toEqual({ batchItemFailures: [] })
    },
  })
  try {
    return await fn(sent)
  } finally {
    useLocalQueues(before)
  }
}

/** Runs `fn` with a queue that loses every message sent to it (a worker killed holding it). */
async function withLosingQueue<T>(fn: (lost: Record<string, unknown>[]) => Promise<T>): Promise<T> {
  const before = holder[slot]
  const lost: Record<string, unknown>[] = []
  useLocalQueues({ send: async (_queue, body) => void lost.push(JSON.parse(body)) })
  try {
    return await fn(lost)
  } finally {
    useLocalQueues(before)
  }
}

/** One invoice.signed event of the supplier through the fan-out, as its stream record would bring it. */
async function streamEvent(irn: string) {
  const event = newEvent(
    'invoice.signed',
    DEV.supplier.businessId,
    { irn, status: 'SIGNED', payment_status: 'PENDING' } as never,
    new Date().toISOString(),
  )
  const item = { ...keys.event(event.id), entity: 'EVENT', ...event }
  const streamed = {
    Records: [{ eventName: 'INSERT', dynamodb: { NewImage: marshall(item), SequenceNumber: '1' } }],
  }
  expect(await fanOutHandler(streamed as never)).toEqual({ batchItemFailures: [] })
  return event
}

describe('webhook delivery under faults', () => {
  it('makes a retry that arrives before its previous attempt is recorded, not drops it as stale', async () => {
    const r = await receiver()
    const { id, secret } = await subscribe(devClients(api.url).admin, r.url, ['invoice.signed'])
    r.secret = secret
    // The first attempt is answered 500, the retry 204.
    r.answer = (n) => (n === 0 ? 500 : 204)
    const event = await withEagerQueue(() => streamEvent('RACE001-94ND90NR-20261125'))
    expect(r.received.map((x) => x.answered)).toEqual([500, 204])
    const d = await readDelivery(id, event.id)
    expect(d).toMatchObject({ status: 'DELIVERED', attempts: 2 })
  })

  it('has the overdue sweep queue again a PENDING delivery whose message was lost, once past the bound', async () => {
    const r = await receiver()
    const { id, secret } = await subscribe(devClients(api.url).admin, r.url, ['invoice.signed'])
    r.secret = secret
    r.answer = (n) => (n === 0 ? 500 : 204)
    // The first attempt's message is lost: the delivery is PENDING, its attempt due now.
    const event = await withLosingQueue(async (lost) => {
      const e = await streamEvent('LOST001-94ND90NR-20261125')
      // (The first test's subscription gets its own delivery of it, lost too.)
      expect(lost.filter((m) => m.subscriptionId === id)).toHaveLength(1)
      return e
    })
    expect(await readDelivery(id, event.id)).toMatchObject({ status: 'PENDING', attempts: 0 })
    // Within the bound (5 minutes by default) the sweep leaves it: its message may still be on its way.
    await withEagerQueue(async (sent) => {
      expect(await sweepHandler()).toMatchObject({ requeued: 0 })
      expect(sent).toHaveLength(0)
    })
    // Past the bound: queued again, attempted (500), retried (204), DELIVERED.
    process.env.WEBHOOK_OVERDUE_SECONDS = '0'
    try {
      await new Promise((resolve) => setTimeout(resolve, 20))
      await withEagerQueue(async () => {
        expect((await sweepHandler()).requeued).toBeGreaterThanOrEqual(1)
      })
    } finally {
      delete process.env.WEBHOOK_OVERDUE_SECONDS
    }
    expect(r.received.map((x) => x.answered)).toEqual([500, 204])
    expect(await readDelivery(id, event.id)).toMatchObject({ status: 'DELIVERED', attempts: 2 })
    // Nothing PENDING is left for a later sweep.
    await withEagerQueue(async () => {
      process.env.WEBHOOK_OVERDUE_SECONDS = '0'
      try {
        expect(await sweepHandler()).toMatchObject({ requeued: 0 })
      } finally {
        delete process.env.WEBHOOK_OVERDUE_SECONDS
      }
    })
  })
})
