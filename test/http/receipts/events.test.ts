import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApi, type TestApi } from '../../support/api.ts'
import { type DevClients, devClients, type TestModeClients, testModeClients } from '../../support/clients.ts'
import { b2cInvoice, hashOf, registerTill } from '../../support/receipts.ts'

/**
 * CONTRACT 23 events: receipt.late and chain.fork from the receipt stream consumer, chain.gap_overdue
 * and device.silent from the scheduled chain watch on the business's test clock; each once.
 */

let api: TestApi
let live: DevClients
let test: TestModeClients
beforeAll(async () => {
  api = await startApi({ workers: ['receipt-events', 'receipt-chain-watch'] })
  live = devClients(api.url)
  test = testModeClients(api.url)
}, 120_000)
afterAll(async () => {
  await api?.close()
})

const HOUR = 3600 * 1000
const report = async (receipts: unknown[], client = live.si) => {
  const reply = await client.post<any>('/api/v1/receipts', { receipts })
  expect(reply.status).toBe(200)
  return reply.body.data as any[]
}
const eventsOf = async (type: string, deviceId: string, admin = live.admin) => {
  await api.settled()
  const reply = await admin.get<any>(`/api/v1/events?type=${type}&size=100`)
  expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  return (reply.body.data.content as any[]).filter((e) => e.data.device_id === deviceId)
}

describe('GET /api/v1/events', () => {
  it('has receipt.late once for a late receipt, however often it is resent, naming device, irn and hash', async () => {
    const { till } = await registerTill(live.admin)
    const late = till.next({ issuedAt: new Date(Date.now() - 25 * HOUR).toISOString() })
    expect((await report([late]))[0]).toMatchObject({ status: 'REPORTED', late: true })
    expect((await report([late]))[0].status).toBe('DUPLICATE')
    const events = await eventsOf('receipt.late', till.deviceId)
    expect(events).toHaveLength(1)
    expect(events[0].data).toMatchObject({
      device_id: till.deviceId,
      irn: late.irn,
      hash: hashOf(late),
      counter: 1,
    })
  })

  it('has chain.fork for a second receipt at a counter', async () => {
    const { till } = await registerTill(live.admin)
    const first = till.next()
    const other = till.next({
      invoice: b2cInvoice(),
      device: { counter: 1, prev_hash: first.device.prev_hash },
      advance: false,
    })
    await report([first])
    expect((await report([other]))[0].status).toBe('FORK')
    const events = await eventsOf('chain.fork', till.deviceId)
    expect(events).toHaveLength(1)
    expect(events[0].data).toMatchObject({
      device_id: till.deviceId,
      irn: other.irn,
      hash: hashOf(other),
      fork_of: hashOf(first),
    })
    expect(await eventsOf('receipt.late', till.deviceId)).toEqual([])
  })

  it('has chain.gap_overdue and device.silent from the chain watch once the test clock passes 24 h, each once', async () => {
    const { till } = await registerTill(test.admin)
    const one = till.next()
    till.next() // counter 2: never reported
    const three = till.next()
    await report([one, three], test.si)
    await api.settled()
    await api.workers.invoke('receipt-chain-watch')
    expect(await eventsOf('chain.gap_overdue', till.deviceId, test.admin)).toEqual([])
    expect((await test.admin.post<any>('/api/v1/test/clock/advance', { seconds: 25 * 3600 })).status).toBe(
      200,
    )
    const run = (await api.workers.invoke('receipt-chain-watch')) as { gapsOverdue: number }
    expect(run.gapsOverdue).toBeGreaterThanOrEqual(1)
    await api.workers.invoke('receipt-chain-watch')
    const gaps = await eventsOf('chain.gap_overdue', till.deviceId, test.admin)
    expect(gaps).toHaveLength(1)
    expect(gaps[0]).toMatchObject({ mode: 'test', data: { device_id: till.deviceId, from: 2, to: 2 } })
    const silent = await eventsOf('device.silent', till.deviceId, test.admin)
    expect(silent).toHaveLength(1)
    // Live mode sees none of it.
    expect(await eventsOf('chain.gap_overdue', till.deviceId)).toEqual([])
  })
})
