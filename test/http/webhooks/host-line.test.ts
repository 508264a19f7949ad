import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { putAll } from '#lib/platform/db/batch.ts'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { eventPut, newEvent } from '#lib/events/event.ts'
import { type HostLease, MAX_PER_HOST, releaseHostSlot, takeHostSlot } from '#lib/webhooks/host-slots.ts'
import { RECOVERY_PAGE } from '#lib/webhooks/recovery.ts'
import { buildInvoice } from '../../fixtures/invoices/build.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { DEV, type DevClients, devClients } from '../../support/clients.ts'
import {
  type EventReceiver,
  eventually,
  startEventReceiver,
} from '../../support/standard-webhook-receiver.ts'

/**
 * Issue 46: a host's backlog moves at the pace its slots free. An attempt that finds every slot of
 * its host held waits in the host's line and is handed the next slot released (not a fixed 2-4 s
 * later); a recovery puts about a page at a time into that line, so it queues no faster than the
 * slots drain, and every event still arrives once with its original webhook-id.
 */

let api: TestApi
let live: DevClients
const receivers: EventReceiver[] = []
let held: HostLease[] = []
beforeAll(async () => {
  api = await startApi({ workers: true })
  live = devClients(api.url)
})
afterAll(async () => {
  await Promise.all(held.map(releaseHostSlot))
  await api?.close()
  await Promise.all(receivers.map((r) => r.close()))
})

const HOST = '127.0.0.1'

/** Every slot of the receivers' host, held as a burst of deliveries would hold them (for LEASE_MS). */
async function holdEverySlot(): Promise<void> {
  for (let i = 0; i < MAX_PER_HOST; i++) {
    const lease = await takeHostSlot(HOST)
    expect(lease, `slot ${i}`).toBeDefined()
    held.push(lease!)
  }
}

async function releaseHeld(count = held.length): Promise<void> {
  const now = held.slice(0, count)
  held = held.slice(count)
  await Promise.all(now.map(releaseHostSlot))
}

/** The entries of the host's waiting line. */
async function line(): Promise<Record<string, any>[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :wait)',
      ExpressionAttributeValues: { ':pk': keys.webhookHostSlot(HOST, 0).pk, ':wait': 'WAIT#' },
      ConsistentRead: true,
    }),
  )
  return out.Items ?? []
}

async function subscribe(events: string[]) {
  const receiver = await startEventReceiver()
  receivers.push(receiver)
  const reply = await live.admin.post<any>('/api/v1/webhooks', { url: receiver.url, events })
  expect(reply.status).toBe(201)
  receiver.secret = reply.body.data.secret
  return { receiver, id: reply.body.data.id as string }
}

describe('webhook deliveries to a host whose slots are all held', () => {
  it('wait in the host line and go as soon as a slot is released', async () => {
    const { receiver } = await subscribe(['invoice.signed'])
    await holdEverySlot()
    const invoice = buildInvoice()
    expect((await live.app.post<any>('/api/v1/app/invoice/sign', invoice)).status).toBe(200)
    // The attempt found no slot: it waits as one entry of the line, not as a message coming back.
    const [entry] = await eventually(async () => {
      const entries = await line()
      expect(entries).toHaveLength(1)
      return entries
    }, 10_000)
    expect(entry?.fills).toBe(true)
    await new Promise((r) => setTimeout(r, 1000))
    expect(receiver.received).toHaveLength(0)

    // One release hands its slot to the waiting attempt at once (a fixed wait would take 2-4 s).
    const released = Date.now()
    await releaseHeld(1)
    await eventually(
      () => expect(receiver.unique().map((e) => e.event.data.irn)).toEqual([invoice.irn]),
      1500,
    )
    expect(Date.now() - released).toBeLessThan(1500)
    expect(await line()).toHaveLength(0)
    await releaseHeld()
  }, 30_000)
})

describe('POST /api/v1/webhooks/{id}/recover, paced by the receiver', () => {
  it('queues about a page ahead of the slots, then delivers every event once with its original id', async () => {
    const EVENTS = 3 * RECOVERY_PAGE
    const { receiver, id } = await subscribe(['invoice.signed'])
    const businessId = DEV.supplier.businessId
    // Missed while DISABLED (the fan-out skips it), as bench/recover.ts does at 10,000.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.webhookSubscription(businessId, id),
        UpdateExpression: 'SET #status = :status, failingSince = :since',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':status': 'DISABLED', ':since': new Date().toISOString() },
      }),
    )
    const since = new Date(Date.now() + 1000).toISOString()
    const start = Date.parse(since)
    const events = Array.from({ length: EVENTS }, (_, i) => {
      const at = new Date(start + i).toISOString()
      const data = { irn: `LINE${i}-94ND90NR-20261125`, status: 'SIGNED', payment_status: 'PENDING' }
      return newEvent('invoice.signed', businessId, { ...data, sequence: 2, signed_at: at } as any, at)
    })
    await putAll(events.map((e) => eventPut(e).Put.Item))
    await api.workers.drained()
    expect((await live.admin.post<any>(`/api/v1/webhooks/${id}/enable`, {})).status).toBe(200)

    await holdEverySlot()
    const started = await live.admin.post<any>(`/api/v1/webhooks/${id}/recover`, { since })
    expect(started.status).toBe(202)
    const task = started.body.data.id as string
    const status = async () => (await live.admin.get<any>(`/api/v1/webhooks/${id}/recover/${task}`)).body.data
    // With no slot free nothing drains: the first page waits in the line and the next is not read.
    await eventually(async () => expect((await line()).length).toBeGreaterThan(RECOVERY_PAGE), 20_000)
    await new Promise((r) => setTimeout(r, 2000))
    const paused = await status()
    expect(paused).toMatchObject({ state: 'RUNNING', events_scanned: RECOVERY_PAGE, queued: RECOVERY_PAGE })
    expect((await line()).length).toBe(RECOVERY_PAGE + 1)
    expect(receiver.received).toHaveLength(0)

    await releaseHeld()
    await eventually(async () => expect((await status()).state).toBe('COMPLETED'), 30_000)
    await eventually(() => expect(receiver.unique()).toHaveLength(EVENTS), 30_000)
    await api.workers.drained()
    // Each once, each with its event's own id (the webhook-id a receiver deduplicates by).
    expect(receiver.received.filter((e) => e.answered < 300)).toHaveLength(EVENTS)
    expect(new Set(receiver.unique().map((e) => e.id))).toEqual(new Set(events.map((e) => e.id)))
    expect(await line()).toHaveLength(0)
  }, 90_000)
})
