import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApi, type TestApi } from '../../support/api.ts'
import { type TestModeClients, testModeClients } from '../../support/clients.ts'
import { chainMismatches, countResults, type FaultPlan, planFaultDay } from '../../support/receipt-faults.ts'
import { registerTill, type Till } from '../../support/receipts.ts'

/**
 * Issue 44's test-clock run: a test-mode day of 100 tills, 10,000 receipts (RECEIPTS sets another
 * size) in reports of 100, with gaps, forks, duplicates and late receipts put in by a seeded plan
 * (test/support/receipt-faults.ts). Every fault must be found and counted, in the replies, in every
 * device's chain, after the test clock passes 24 h in the overdue gaps and their events, and in the
 * compliance report; and no receipt becomes two invoices.
 */

const RECEIPTS = Number(process.env.RECEIPTS ?? 10_000)
const DEVICES = 100
// Reports of 50 (a store server's minute or two of 100 tills): the count is the fault plan's, not a
// limit's. A report is decided in one local function beside CI's other 200 files on 2 cores: one of
// 100 took past the local server's 29 s in two of four clean-clone CI runs (2026-12-03), and a report
// cut there would be resent whole, which counts its receipts again as duplicates.
const BATCH = 50
const HOUR = 3600 * 1000
const lagosDay = (ms: number) => new Date(ms + HOUR).toISOString().slice(0, 10)

let api: TestApi
let test: TestModeClients
let tills: Till[]
let plan: FaultPlan
let now: number
const results: { status: string; late?: boolean }[] = []

beforeAll(async () => {
  api = await startApi({ workers: ['receipt-events', 'receipt-chain-watch'] })
  test = testModeClients(api.url)
  tills = []
  // Side by side, a few at a time: registration is not what this test measures.
  for (let i = 0; i < DEVICES; i += 10)
    tills.push(
      ...(
        await Promise.all(
          Array.from({ length: 10 }, (_, j) =>
            registerTill(test.admin, j % 2 ? 'P-256' : 'Ed25519', `Till ${i + j}`),
          ),
        )
      ).map((t) => t.till),
    )
  // The business's test clock has not moved: its now is the machine's.
  now = Date.now()
  plan = planFaultDay(tills, { perDevice: RECEIPTS / DEVICES, batchSize: BATCH, now, seed: 44 })
  // Two reports at a time, as two store servers would send them; each report's results in its order.
  const queue = plan.batches.map((batch, i) => ({ batch, i }))
  const replies: { status: string; late?: boolean }[][] = []
  const send = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const reply = await test.si.post<any>('/api/v1/receipts', { receipts: next.batch })
      if (reply.status !== 200)
        throw new Error(`batch ${next.i}: ${reply.status} ${reply.text.slice(0, 300)}`)
      replies[next.i] = reply.body.data
    }
  }
  await Promise.all([send(), send()])
  results.push(...replies.flat())
}, 900_000)
afterAll(async () => {
  await api?.close()
})

const chainOf = async (deviceId: string) => {
  const reply = await test.admin.get<any>(`/api/v1/devices/${deviceId}/chain`)
  expect(reply.status).toBe(200)
  return reply.body.data
}

const complianceTotal = async () => {
  const from = lagosDay(now - 27 * HOUR)
  const to = lagosDay(now + 26 * HOUR)
  const reply = await test.admin.get<any>(`/api/v1/compliance/report?from=${from}&to=${to}`)
  expect(reply.status, reply.text.slice(0, 300)).toBe(200)
  return reply.body.data.total
}

describe(`a test-mode day of ${RECEIPTS} receipts from ${DEVICES} tills`, () => {
  it('answers every receipt as the plan says: reported, late, duplicate, fork, none rejected', () => {
    expect(plan.totals.gaps).toBeGreaterThan(0)
    expect(plan.totals.forks).toBeGreaterThan(0)
    expect(plan.totals.duplicates).toBeGreaterThan(0)
    expect(plan.totals.late).toBeGreaterThan(0)
    expect(results).toHaveLength(plan.totals.sent)
    expect(countResults(results)).toEqual({
      REPORTED: plan.totals.reported,
      DUPLICATE: plan.totals.duplicates,
      FORK: plan.totals.forks,
      REJECTED: 0,
      late: plan.totals.late,
    })
  })

  it("has every device's chain as the plan made it: last counter, gaps, forks, late count, verified through", async () => {
    const found: string[] = []
    for (const expected of plan.devices)
      found.push(
        ...chainMismatches(expected, await chainOf(expected.deviceId)).map(
          (m) => `${expected.deviceId}: ${m}`,
        ),
      )
    expect(found).toEqual([])
  })

  it('makes each reported receipt one invoice: the search total is the reported count', async () => {
    const reply = await test.si.get<any>('/api/v1/invoices?size=1')
    expect(reply.status).toBe(200)
    expect(reply.body.data.page.totalElements).toBe(plan.totals.reported)
  })

  it('counts them in the compliance report, then finds every gap overdue once the test clock passes 24 h', async () => {
    const before = await complianceTotal()
    expect(before).toMatchObject({
      reported: plan.totals.reported,
      late: plan.totals.late,
      on_time: plan.totals.reported - plan.totals.late,
      duplicates: plan.totals.duplicates,
      forks: plan.totals.forks,
      rejected: 0,
      gaps_open: plan.totals.gaps,
    })
    const overdueNow = plan.devices.reduce((n, d) => n + d.gaps.filter((g) => g.overdue).length, 0)
    expect(before.gaps_overdue).toBe(overdueNow)

    expect((await test.admin.post<any>('/api/v1/test/clock/advance', { seconds: 25 * 3600 })).status).toBe(
      200,
    )
    const run = (await api.workers.invoke('receipt-chain-watch')) as { gapsOverdue: number }
    expect(run.gapsOverdue).toBe(plan.totals.gaps)
    await api.settled()
    const after = await complianceTotal()
    expect(after).toMatchObject({
      reported: plan.totals.reported,
      gaps_open: plan.totals.gaps,
      gaps_overdue: plan.totals.gaps,
    })
    // One chain.gap_overdue event a gap, for exactly the devices the plan gave gaps.
    const events: any[] = []
    for (let page = 0; ; page++) {
      const reply = await test.admin.get<any>(`/api/v1/events?type=chain.gap_overdue&size=100&page=${page}`)
      expect(reply.status).toBe(200)
      events.push(...reply.body.data.content)
      if (reply.body.data.content.length < 100) break
    }
    const withGaps = plan.devices
      .filter((d) => d.gaps.length)
      .map((d) => d.deviceId)
      .sort()
    expect(events).toHaveLength(plan.totals.gaps)
    expect([...new Set(events.map((e) => e.data.device_id))].sort()).toEqual(withGaps)
  })
})
