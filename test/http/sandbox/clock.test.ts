import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readRecord } from '#lib/platform/db/items.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { inMode } from '#lib/platform/mode.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import {
  DEV,
  DEV_TEST,
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
import { transferBody } from '../../support/transfers.ts'
import { putSignedInvoice } from '../../support-invoices/invoices.ts'

/**
 * The test clock (CONTRACT section 15, docs/sandbox.md) through HTTP, with the test twins of the
 * development credentials and the local queue and stream workers (the same consumers AWS runs). The
 * tests share the development business's test clock, so they run in order and each counts from the
 * clock as the one before left it.
 */
// A 24-hour schedule (23 h 36 min) whose first retry waits a minute: only the advance's sweep, not
// the retry's own delayed message, can make it run out within seconds after one advance of 25 hours.
process.env.WEBHOOK_RETRY_SCHEDULE = '1m,5m,30m,2h,5h,8h,8h'
const ATTEMPTS = 8

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

const ADVANCE = '/api/v1/test/clock/advance'
const CLOCK = '/api/v1/test/clock'
const HOUR = 3600

async function subscribe(client: TestModeClients['admin'], events: string[], answer = 204) {
  const receiver = await startEventReceiver()
  receivers.push(receiver)
  receiver.answer = () => answer
  const reply: any = await client.post('/api/v1/webhooks', { url: receiver.url, events })
  expect(reply.status).toBe(201)
  receiver.secret = reply.body.data.secret
  return { receiver, id: reply.body.data.id as string }
}

/** A test-mode invoice to the magic buyer that is up, transmitted: invoice.transmitted and invoice.received. */
async function transmitted() {
  const { irn } = await inMode('test', () =>
    putSignedInvoice({ buyer: { ...DEV.buyer, tin: '00000000-0101' } }),
  )
  expect((await test.app.post('/api/v1/app/invoice/transmit', { irn })).status).toBe(200)
  return irn
}

describe('POST /api/v1/test/clock/advance and GET /api/v1/test/clock', () => {
  it('refuse live keys with 403, even an ADMIN one, and move nothing', async () => {
    for (const reply of [
      await live.admin.post<any>(ADVANCE, { seconds: 60 }),
      await live.admin.get<any>(CLOCK),
    ]) {
      expect(reply.status).toBe(403)
      expect(reply.body.message).toMatch(/test mode only, and this credential is a live one/)
    }
    const clock: any = await test.admin.get(CLOCK)
    expect(clock.body.data.offset_seconds).toBe(0)
  })

  it('refuse test keys without ADMIN, and seconds that are not a whole number from 1 to 30 days', async () => {
    expect((await test.app.post(ADVANCE, { seconds: 60 })).status).toBe(403)
    for (const seconds of [0, -5, 1.5, 30 * 24 * HOUR + 1, '60']) {
      expect((await test.admin.post(ADVANCE, { seconds })).status, String(seconds)).toBe(400)
    }
  })

  it('move the business test time forward and answer it', async () => {
    const before = Date.now()
    const reply: any = await test.admin.post(ADVANCE, { seconds: 90 })
    expect(reply.status).toBe(200)
    expect(reply.headers.get('x-environment')).toBe('test')
    expect(reply.body.data).toEqual({
      test_time: expect.any(String),
      offset_seconds: 90,
      due_deliveries_queued: 0,
    })
    expect(Date.parse(reply.body.data.test_time) - before).toBeGreaterThanOrEqual(90_000)
    const clock: any = await test.admin.get(CLOCK)
    expect(clock.body.data.offset_seconds).toBe(90)
  })
})

describe('webhooks in test mode', () => {
  it("deliver invoice.received for the magic buyer 00000000-0101 to the business's own test subscription, never to a live one", async () => {
    const own = await subscribe(test.admin, ['invoice.received'])
    const liveSub = await subscribe(live.admin, ['invoice.received', 'invoice.transmitted'])
    const irn = await transmitted()
    await eventually(() =>
      expect(own.receiver.unique().map((e) => [e.event.type, e.event.data.irn, e.event.business_id])).toEqual(
        [['invoice.received', irn, DEV.supplier.businessId]],
      ),
    )
    expect(own.receiver.received[0]!.verified).toBe(true)
    await api.workers.drained()
    expect(liveSub.receiver.received).toEqual([])
  })

  it('run a 24-hour retry schedule out after one clock advance of 25 h, within seconds, ending FAILED', async () => {
    const failing = await subscribe(test.admin, ['invoice.transmitted'], 500)
    const irn = await transmitted()
    const deliveries = async () =>
      (await test.admin.get<any>(`/api/v1/webhooks/${failing.id}/deliveries`)).body.data
    // The first attempt fails; the next is a minute away in test time.
    const [first] = await eventually(async () => {
      const list = await deliveries()
      expect(list.content).toEqual([expect.objectContaining({ status: 'PENDING', attempts: 1 })])
      return list.content
    })
    expect(Date.parse(first.next_attempt_at) - Date.parse(first.last_attempt_at)).toBe(60_000)

    const advanced: any = await test.admin.post(ADVANCE, { seconds: 25 * HOUR })
    expect(advanced.status).toBe(200)
    const done = await eventually(async () => {
      const [d] = (await deliveries()).content
      expect(d).toMatchObject({ status: 'FAILED', attempts: ATTEMPTS })
      return d
      // Well under the first retry's real minute: only the advance's sweep can have run it out.
    }, 30_000)
    // Every attempt reached the receiver once: none was made twice by the sweep's message and the
    // retry's own delayed one (still queued: the delivery's attempt count and status make it stale).
    const attempts = failing.receiver.received.filter((e) => e.event.data.irn === irn)
    expect(attempts).toHaveLength(ATTEMPTS)
    expect(done.log.map((e: { status: number }) => e.status)).toEqual(Array(ATTEMPTS).fill(500))
    const subscription = (await test.admin.get<any>('/api/v1/webhooks')).body.data.find(
      (s: { id: string }) => s.id === failing.id,
    )
    expect(subscription.status).toBe('FAILED')
  })
})

describe('Idempotency-Key in test mode', () => {
  it('is held for 24 h of real time: a clock advance neither frees it nor keeps its record longer', async () => {
    const PATH = '/api/v1/si/generate-invoice-number'
    const header = `sandbox-expiry-${Date.now()}`
    const key = { 'idempotency-key': header }
    const first = await test.si.post<any>(PATH, { code: 'SBX', serial_number: 1 }, key)
    expect(first.status).toBe(200)
    const retry = await test.si.post<any>(PATH, { code: 'SBX', serial_number: 1 }, key)
    expect(retry.headers.get('idempotent-replayed')).toBe('true')
    expect((await test.si.post<any>(PATH, { code: 'SBX', serial_number: 2 }, key)).status).toBe(409)

    // A day of test time later (which freed it when retention ran on the test clock), the key is
    // still held: a retry is replayed, another body refused.
    expect((await test.admin.post(ADVANCE, { seconds: 24 * HOUR })).status).toBe(200)
    const later = await test.si.post<any>(PATH, { code: 'SBX', serial_number: 1 }, key)
    expect(later.status, JSON.stringify(later.body)).toBe(200)
    expect(later.headers.get('idempotent-replayed')).toBe('true')
    expect((await test.si.post<any>(PATH, { code: 'SBX', serial_number: 2 }, key)).status).toBe(409)

    // Its record (and the TTL the table sweeps it by) expires 24 hours of real time after the request.
    const sha = (text: string) => createHash('sha256').update(text).digest('hex')
    const record = await readRecord<{ expiresAt: number }>(
      keys.idempotency(`A#${DEV_TEST.clients.si.apiKey}`, `POST ${PATH}#${sha(PATH)}`, header),
    )
    const realExpiry = Date.now() / 1000 + 24 * HOUR
    expect(record!.expiresAt).toBeGreaterThan(realExpiry - 120)
    expect(record!.expiresAt).toBeLessThanOrEqual(realExpiry)
  })
})

describe("POST /api/v1/transactions/test/clock/advance: the sandbox bank's test clock (Areas B and C)", () => {
  const BANK_ADVANCE = '/api/v1/transactions/test/clock/advance'
  const statement = async (date: string) =>
    (await test.merchant.get<any>(`/api/v1/merchant/statement?date=${date}`)).body.data
  const pay = async () => {
    const reply: any = await test.switch.post(
      '/api/v1/transactions/transfer',
      transferBody({ accountNumber: '1000000000', amount: 10 }),
    )
    expect(reply.body.responseCode).toBe('00')
    return reply.body.completedAt.slice(0, 10) as string
  }

  it('is refused to a live switch credential (403) and moves the test statement day of later transfers', async () => {
    const refused: any = await live.switch.post(BANK_ADVANCE, { seconds: 60 })
    expect(refused.status).toBe(403)
    expect(refused.body.responseMessage).toMatch(/test mode only/)

    const today = await pay()
    const advanced: any = await test.switch.post(BANK_ADVANCE, { seconds: 24 * HOUR })
    expect(advanced.status).toBe(200)
    expect(advanced.body).toMatchObject({ responseCode: '00', offset_seconds: 24 * HOUR })
    const tomorrow = await pay()
    expect(Date.parse(tomorrow) - Date.parse(today)).toBe(24 * HOUR * 1000)
    await api.settled()
    expect((await statement(tomorrow)).successful).toEqual({ count: 1, amount: 10 })
    expect((await statement(today)).successful).toEqual({ count: 1, amount: 10 })
    // The business's clock is another: it did not move.
    expect((await test.admin.get<any>(CLOCK)).body.data.offset_seconds).toBe(90 + 25 * HOUR + 24 * HOUR)
  })
})
