import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildInvoice } from '../../fixtures/invoices/build.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { type DevClients, devClients, type TestModeClients, testModeClients } from '../../support/clients.ts'
import {
  type EventReceiver,
  eventually,
  startEventReceiver,
} from '../../support/standard-webhook-receiver.ts'

/**
 * An integrator's first afternoon in the sandbox (issue 23), as one HTTP test against the local server
 * with its queue and stream workers: validate, sign, transmit to the magic buyer whose system is up,
 * `invoice.received` on the business's own subscription, confirm, update to PAID, and a subscription
 * whose endpoint always fails running out the whole default retry schedule (27 h 35 min) through one
 * advance of the test clock. Nothing of it is visible to the business's live credentials. The test
 * prints how long the lifecycle took (a figure for BENCHMARKS.md, not an assertion).
 */

const UP_BUYER = '00000000-0101'
/** The default schedule (lib/webhooks/schedule.ts): the first attempt and seven retries. */
const ATTEMPTS = 8
const HOUR = 3600

let api: TestApi
let test: TestModeClients
let live: DevClients
const receivers: EventReceiver[] = []

beforeAll(async () => {
  api = await startApi({ workers: true })
  test = testModeClients(api.url)
  live = devClients(api.url)
})
afterAll(async () => {
  await api?.close()
  await Promise.all(receivers.map((r) => r.close()))
})

async function subscribe(events: string[], answer: number) {
  const receiver = await startEventReceiver()
  receivers.push(receiver)
  receiver.answer = () => answer
  const reply = await test.admin.post<any>('/api/v1/webhooks', { url: receiver.url, events })
  expect(reply.status).toBe(201)
  expect(reply.headers.get('x-environment')).toBe('test')
  receiver.secret = reply.body.data.secret
  return { receiver, id: reply.body.data.id as string }
}

describe('the whole invoice lifecycle in test mode', () => {
  it('runs from validate to PAID, and a failing webhook runs out its schedule on the test clock', async () => {
    const started = performance.now()
    const own = await subscribe(['invoice.received', 'invoice.signed'], 204)
    const failing = await subscribe(['invoice.signed'], 500)

    const base = buildInvoice()
    const invoice: Record<string, any> = {
      ...base,
      accounting_customer_party: { ...base.accounting_customer_party, tin: UP_BUYER },
    }
    const validated = await test.app.post<any>('/api/v1/app/invoice/validate', invoice)
    expect(validated.status, JSON.stringify(validated.body)).toBe(200)
    const signed = await test.app.post<any>('/api/v1/app/invoice/sign', invoice)
    expect(signed.status, JSON.stringify(signed.body)).toBe(200)
    const { irn } = invoice

    const transmitted = await test.app.post<any>('/api/v1/app/invoice/transmit', { irn })
    expect(transmitted.status, JSON.stringify(transmitted.body)).toBe(200)
    expect(transmitted.headers.get('x-environment')).toBe('test')
    await eventually(() =>
      expect(
        own.receiver
          .unique()
          .map((e) => e.event.type)
          .sort(),
      ).toEqual(['invoice.received', 'invoice.signed']),
    )
    expect(own.receiver.unique().every((e) => e.verified && e.event.data.irn === irn)).toBe(true)

    const confirmed = await test.app.get<any>(`/api/v1/app/invoice/confirm/${irn}`)
    expect(confirmed.status).toBe(200)
    expect(confirmed.body.data).toMatchObject({ irn, status: 'TRANSMITTED' })
    const paid = await test.app.request<any>('PATCH', `/api/v1/app/invoice/update/${irn}`, {
      payment_status: 'PAID',
    })
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    expect((await test.si.get<any>(`/api/v1/si/get-invoice/${irn}`)).body.data.payment_status).toBe('PAID')

    // The failing endpoint got the first attempt; the rest of a day and more passes in one call.
    const deliveries = async () =>
      (await test.admin.get<any>(`/api/v1/webhooks/${failing.id}/deliveries`)).body.data.content
    await eventually(async () =>
      expect(await deliveries()).toEqual([expect.objectContaining({ attempts: 1 })]),
    )
    const advanced = await test.admin.post<any>('/api/v1/test/clock/advance', { seconds: 28 * HOUR })
    expect(advanced.status, JSON.stringify(advanced.body)).toBe(200)
    await eventually(async () =>
      expect(await deliveries()).toEqual([expect.objectContaining({ status: 'FAILED', attempts: ATTEMPTS })]),
    )
    expect(failing.receiver.received).toHaveLength(ATTEMPTS)
    const subscriptions = (await test.admin.get<any>('/api/v1/webhooks')).body.data
    expect(subscriptions.find((s: { id: string }) => s.id === failing.id).status).toBe('FAILED')
    const elapsed = performance.now() - started

    // None of it exists for the business's live credentials.
    expect((await live.si.get(`/api/v1/si/get-invoice/${irn}`)).status).toBe(404)
    const liveSubscriptions = (await live.admin.get<any>('/api/v1/webhooks')).body.data
    expect(liveSubscriptions.map((s: { id: string }) => s.id)).not.toContain(failing.id)
    console.info(
      `sandbox lifecycle: ${Math.round(elapsed)} ms on the local server (issue 23 asks for under 10 s)`,
    )
  })
})
