import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inMode, type Mode } from '#lib/platform/mode.ts'
import { type HostLease, MAX_PER_HOST, releaseHostSlot, takeHostSlot } from '#lib/webhooks/host-slots.ts'
import { buildInvoice } from '../../fixtures/invoices/build.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { type DevClients, devClients, type TestModeClients, testModeClients } from '../../support/clients.ts'
import {
  type EventReceiver,
  eventually,
  startEventReceiver,
} from '../../support/standard-webhook-receiver.ts'

/**
 * CONTRACT 18: test-mode deliveries have their own queue and concurrency share, so a sandbox burst
 * never delays live deliveries. The queues and their consumers are the declarations'
 * (lib/service/consumers.ts, test/infra/stacks.test.ts counts them); what an HTTP test can show is
 * the shared part, the destination host's slots: with every slot of one mode held (as a burst to the
 * host would hold them, for LEASE_MS), the other mode's delivery to the same host goes at once.
 */

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

/** Every slot of `mode` for the receivers' host, held as a burst of that mode's deliveries holds them. */
async function holdEverySlot(mode: Mode): Promise<HostLease[]> {
  const leases: HostLease[] = []
  for (let i = 0; i < MAX_PER_HOST; i++) {
    const lease = await inMode(mode, () => takeHostSlot('127.0.0.1'))
    expect(lease, `slot ${i} of ${mode}`).toBeDefined()
    leases.push(lease!)
  }
  expect(await inMode(mode, () => takeHostSlot('127.0.0.1'))).toBeUndefined()
  return leases
}

async function deliveredWhileHeld(held: Mode) {
  const other: Mode = held === 'live' ? 'test' : 'live'
  const clients = other === 'live' ? live : test
  const receiver = await startEventReceiver()
  receivers.push(receiver)
  const subscribed = await clients.admin.post<any>('/api/v1/webhooks', {
    url: receiver.url,
    events: ['invoice.signed'],
  })
  expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(201)
  receiver.secret = subscribed.body.data.secret
  const leases = await holdEverySlot(held)
  try {
    const invoice = buildInvoice()
    expect((await clients.app.post<any>('/api/v1/app/invoice/sign', invoice)).status).toBe(200)
    // Well within the 30 s the held leases last: the delivery did not wait for the other mode's slots.
    await eventually(
      () => expect(receiver.unique().map((e) => e.event.data.irn)).toContain(invoice.irn),
      10_000,
    )
  } finally {
    await inMode(held, () => Promise.all(leases.map(releaseHostSlot)))
  }
}

describe('POST /api/v1/webhooks: deliveries of each mode have host slots of their own', () => {
  it('delivers a live event at once while test mode holds every slot of the host', async () => {
    await deliveredWhileHeld('test')
  })

  it('delivers a test event at once while live mode holds every slot of the host', async () => {
    await deliveredWhileHeld('live')
  })
})
