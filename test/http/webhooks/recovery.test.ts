import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { transact } from '#lib/platform/db/transact.ts'
import { inMode } from '#lib/platform/mode.ts'
import { getOutboxItem } from '#lib/notifications/outbox.ts'
import { claimRecoveryItem, recoveryHoldItem } from '#lib/webhooks/subscriptions.ts'
import { buildInvoice } from '../../fixtures/invoices/build.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import {
  DEV,
  type DevClients,
  devClients,
  type TestModeClients,
  testModeClients,
} from '../../support/clients.ts'
import {
  type EventReceiver,
  eventually,
  startEventReceiver,
} from '../../support/standard-webhook-receiver.ts'

/**
 * CONTRACT 21: bulk recovery of the events a subscription missed, with their original webhook-id and
 * nothing twice; endpoint health (disabled after failing for the window, told once, enabled again).
 */
// Three attempts a delivery, a second apart: a failure is final within seconds.
process.env.WEBHOOK_RETRY_SCHEDULE = '1s,1s'

let api: TestApi
let live: DevClients
let test: TestModeClients
const receivers: EventReceiver[] = []
beforeAll(async () => {
  api = await startApi({ workers: true })
  live = devClients(api.url)
  test = testModeClients(api.url)
})
afterAll(async () => {
  await api?.close()
  await Promise.all(receivers.map((r) => r.close()))
})

async function subscribe(client: DevClients['admin'], events: string[]) {
  const receiver = await startEventReceiver()
  receivers.push(receiver)
  const reply = await client.post<any>('/api/v1/webhooks', { url: receiver.url, events })
  expect(reply.status).toBe(201)
  receiver.secret = reply.body.data.secret
  return { receiver, id: reply.body.data.id as string }
}

const sign = async (client: DevClients['app']) => {
  const invoice = buildInvoice()
  expect((await client.post('/api/v1/app/invoice/sign', invoice)).status).toBe(200)
  return invoice.irn
}

const deliveries = async (client: DevClients['admin'], id: string, status = '') =>
  (await client.get<any>(`/api/v1/webhooks/${id}/deliveries?size=200${status ? `&status=${status}` : ''}`))
    .body.data.content as any[]

const subscriptionOf = async (client: DevClients['admin'], id: string) =>
  (await client.get<any>('/api/v1/webhooks')).body.data.find((s: { id: string }) => s.id === id)

async function recovered(client: DevClients['admin'], id: string, body: object) {
  const started = await client.post<any>(`/api/v1/webhooks/${id}/recover`, body)
  expect(started.status, JSON.stringify(started.body)).toBe(202)
  expect(started.body.data).toMatchObject({ state: 'RUNNING', subscription_id: id })
  const task = started.body.data.id as string
  return eventually(async () => {
    const reply = await client.get<any>(`/api/v1/webhooks/${id}/recover/${task}`)
    expect(reply.status).toBe(200)
    expect(reply.body.data.state).toBe('COMPLETED')
    return reply.body.data
  })
}

/** The accepted deliveries per webhook-id: a deduplicating receiver's view, and how often each came. */
const acceptedCounts = (r: EventReceiver) => {
  const counts = new Map<string, number>()
  for (const e of r.received) if (e.answered < 300) counts.set(e.id, (counts.get(e.id) ?? 0) + 1)
  return counts
}

describe('POST /api/v1/webhooks/{id}/recover', () => {
  it('redelivers exactly the missed events of the window, with their original ids, nothing twice', async () => {
    const since = new Date(Date.now() - 1000).toISOString()
    const { receiver, id } = await subscribe(live.admin, ['invoice.signed'])
    const delivered = await sign(live.app)
    await eventually(() => expect(receiver.unique().map((e) => e.event.data.irn)).toEqual([delivered]))
    receiver.answer = () => 500
    const missed = [await sign(live.app), await sign(live.app)]
    await eventually(async () => expect(await deliveries(live.admin, id, 'failed')).toHaveLength(2), 30_000)
    const failedIds = new Set(receiver.received.filter((e) => e.answered === 500).map((e) => e.id))
    expect(failedIds.size).toBe(2)

    receiver.answer = () => 200
    const task = await recovered(live.admin, id, { since })
    expect(task).toMatchObject({ queued: 2, already_delivered: 1, already_pending: 0, since })
    expect(task.events_scanned).toBeGreaterThanOrEqual(3)
    await eventually(() => expect(receiver.unique()).toHaveLength(3))
    await api.workers!.drained()
    const counts = acceptedCounts(receiver)
    expect([...counts.values()]).toEqual([1, 1, 1])
    for (const failedId of failedIds) expect(counts.get(failedId)).toBe(1)
    expect(
      receiver
        .unique()
        .map((e) => e.event.data.irn)
        .sort(),
    ).toEqual([delivered, ...missed].sort())
    expect(receiver.unique().every((e) => e.verified)).toBe(true)

    // A second recovery of the same window finds everything delivered: nothing is sent again.
    const again = await recovered(live.admin, id, { since })
    expect(again).toMatchObject({ queued: 0, already_delivered: 3 })
    await api.workers!.drained()
    expect(receiver.unique()).toHaveLength(3)
    expect([...acceptedCounts(receiver).values()]).toEqual([1, 1, 1])
  }, 90_000)

  it('runs one recovery at a time per subscription (409 while one holds it)', async () => {
    const { id } = await subscribe(live.admin, ['invoice.transmitted'])
    const holder = `rcv_${'0'.repeat(32)}`
    const s = { businessId: DEV.supplier.businessId, id }
    expect((await transact({ slot: claimRecoveryItem(s, holder, Date.now(), Date.now() + 60_000) })).ok).toBe(
      true,
    )
    const refused = await live.admin.post<any>(`/api/v1/webhooks/${id}/recover`, {
      since: '2026-01-01T00:00:00Z',
    })
    expect(refused.status).toBe(409)
    expect(refused.body.message).toContain(holder)
    expect((await transact({ slot: recoveryHoldItem(s, holder) })).ok).toBe(true)
    await recovered(live.admin, id, { since: '2026-01-01T00:00:00Z' })
  })

  it('refuses a bad window (400) and an unknown subscription (404)', async () => {
    const { id } = await subscribe(live.admin, ['invoice.validated'])
    for (const body of [
      {},
      { since: 'friday' },
      { since: '2026-11-02T00:00:00Z', until: '2026-11-01T00:00:00Z' },
    ]) {
      const reply = await live.admin.post<any>(`/api/v1/webhooks/${id}/recover`, body)
      expect(reply.status, JSON.stringify(body)).toBe(400)
    }
    const unknown = `wh_${'a'.repeat(32)}`
    expect(
      (await live.admin.post(`/api/v1/webhooks/${unknown}/recover`, { since: '2026-11-01T00:00:00Z' }))
        .status,
    ).toBe(404)
    // Another mode's subscription is not the caller's.
    expect(
      (await test.admin.post(`/api/v1/webhooks/${id}/recover`, { since: '2026-11-01T00:00:00Z' })).status,
    ).toBe(404)
  })
})

describe('GET /api/v1/webhooks/{id}/recover/{task}', () => {
  it("answers 404 for an unknown task or another mode's subscription", async () => {
    const { id } = await subscribe(live.admin, ['invoice.credited'])
    const task = await recovered(live.admin, id, { since: '2026-11-01T00:00:00Z' })
    expect((await live.admin.get(`/api/v1/webhooks/${id}/recover/rcv_${'f'.repeat(32)}`)).status).toBe(404)
    expect((await test.admin.get(`/api/v1/webhooks/${id}/recover/${task.id}`)).status).toBe(404)
    expect((await live.admin.get(`/api/v1/webhooks/${id}/recover/nope`)).status).toBe(400)
  })
})

describe('POST /api/v1/webhooks/{id}/enable', () => {
  it('disables a subscription failing for 5 days of test time, tells the admin list once, and enables it for a recovery', async () => {
    const since = new Date(Date.now() - 1000).toISOString()
    const { receiver, id } = await subscribe(test.admin, ['invoice.signed'])
    receiver.answer = () => 503
    const first = await sign(test.app)
    await eventually(async () => expect(await deliveries(test.admin, id, 'failed')).toHaveLength(1), 30_000)
    const failing = await subscriptionOf(test.admin, id)
    expect(failing).toMatchObject({ status: 'FAILED', failing_since: expect.any(String) })

    // Five days and an hour later in test time, the next failed attempt disables it.
    expect(
      (await test.admin.post('/api/v1/test/clock/advance', { seconds: 5 * 24 * 3600 + 3600 })).status,
    ).toBe(200)
    const second = await sign(test.app)
    const disabled = await eventually(async () => {
      const s = await subscriptionOf(test.admin, id)
      expect(s.status).toBe('DISABLED')
      return s
    }, 30_000)
    const notice = await inMode('test', () => getOutboxItem(`WEBHOOK-DISABLED-${id}-${disabled.disabled_at}`))
    expect(notice?.subject).toContain(id)
    expect(await deliveries(test.admin, id, 'failed')).toHaveLength(2)
    const attemptsSoFar = receiver.received.length

    // Disabled: a new event makes no delivery, nothing is sent.
    const third = await sign(test.app)
    await api.workers!.drained()
    expect(receiver.received).toHaveLength(attemptsSoFar)
    expect(await deliveries(test.admin, id)).toHaveLength(2)
    // And a recovery waits for it to be enabled.
    expect((await test.admin.post(`/api/v1/webhooks/${id}/recover`, { since })).status).toBe(409)

    receiver.answer = () => 200
    const enabled = await test.admin.post<any>(`/api/v1/webhooks/${id}/enable`, {})
    expect(enabled.status).toBe(200)
    expect(enabled.body.data).toMatchObject({ id, status: 'ACTIVE' })
    expect(enabled.body.data.failing_since).toBeUndefined()
    const again = await test.admin.post<any>(`/api/v1/webhooks/${id}/enable`, {})
    expect(again.status).toBe(200)
    expect(again.body.data.status).toBe('ACTIVE')

    const task = await recovered(test.admin, id, { since })
    expect(task.queued).toBe(3)
    await eventually(() =>
      expect(
        receiver
          .unique()
          .map((e) => e.event.data.irn)
          .sort(),
      ).toEqual([first, second, third].sort()),
    )
    // The notice was written once: the live list has no such item.
    expect(await getOutboxItem(`WEBHOOK-DISABLED-${id}-${disabled.disabled_at}`)).toBeUndefined()
    expect((await live.admin.post(`/api/v1/webhooks/${id}/enable`, {})).status).toBe(404)
  }, 90_000)
})
