import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_ADVANCE_SECONDS, MAX_TOTAL_OFFSET_SECONDS } from '#lib/platform/test-clock.ts'
import { type Area, type Route, routes } from '#lib/service/routes.ts'
import { buildInvoice } from '../../fixtures/invoices/build.ts'
import { type FuzzContext, SAMPLES, sampleTarget } from '../../fuzz/requests.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { devClients, type TestModeClients, testModeClients } from '../../support/clients.ts'

/**
 * CONTRACT 18: a test clock moves at most 10 years in all. Each clock is moved to its bound through
 * the endpoint, a month at a time, then one second more is refused with 400 TEST_CLOCK_LIMIT and
 * moves nothing; there, every route of the clock's areas answers a valid test-mode request without
 * a 5xx (a test transfer stamped past year 9999 once answered 500). A file of its own: the clocks it
 * leaves 10 years ahead are no other test's.
 */

let api: TestApi
let test: TestModeClients
beforeAll(async () => {
  api = await startApi()
  test = testModeClients(api.url)
})
afterAll(() => api?.close())

// Each test walks a clock through 122 advances, then calls every route of its areas.
/** The test-mode client that may call the route: the role it needs, or its area's credential. */
function clientFor(route: Route) {
  switch (route.auth) {
    case 'api-signature':
      return route.roles.includes('ADMIN') ? test.admin : route.roles.includes('APP') ? test.app : test.si
    case 'switch-signature':
      return test.switch
    case 'merchant-bearer':
      return test.merchant
    default:
      return devClients(api.url).anonymous
  }
}

/**
 * Calls every route of `areas` once with its fuzz sample (test/fuzz/requests.ts), in test mode:
 * answers the routes that answered 5xx, with their reply.
 */
async function fiveHundreds(areas: readonly Area[], ctx: FuzzContext): Promise<string[]> {
  const failed: string[] = []
  for (const route of routes.filter((r) => areas.includes(r.area) && r.auth !== 'admin-bearer')) {
    const sample = SAMPLES[route.functionId]!(ctx)
    const reply = await clientFor(route).request<any>(route.method, sampleTarget(route, sample), sample.body)
    if (reply.status >= 500)
      failed.push(`${route.method} ${route.path}: ${reply.status} ${JSON.stringify(reply.body)}`)
  }
  return failed
}

/** Advances by `client` until the clock is exactly at the bound; answers the last reply. */
async function toTheBound(advance: (seconds: number) => Promise<any>) {
  let moved = 0
  let reply: any
  while (moved < MAX_TOTAL_OFFSET_SECONDS) {
    const step = Math.min(MAX_ADVANCE_SECONDS, MAX_TOTAL_OFFSET_SECONDS - moved)
    reply = await advance(step)
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    moved += step
  }
  return reply
}

describe('POST /api/v1/test/clock/advance', () => {
  it('moves a business clock up to 10 years in all, then answers 400 TEST_CLOCK_LIMIT and moves nothing', async () => {
    const advance = (seconds: number) => test.admin.post<any>('/api/v1/test/clock/advance', { seconds })
    const last = await toTheBound(advance)
    expect(last.body.data.offset_seconds).toBe(MAX_TOTAL_OFFSET_SECONDS)
    const refused = await advance(1)
    expect(refused.status, JSON.stringify(refused.body)).toBe(400)
    // The envelope's problem list, with its stable code at the field.
    const problems = JSON.stringify(refused.body)
    expect(problems).toContain('"code":"TEST_CLOCK_LIMIT"')
    expect(problems).toContain('"path":"seconds"')
    expect(problems).toContain('it can move at most 0 s more')
    const clock = await test.admin.get<any>('/api/v1/test/clock')
    expect(clock.body.data.offset_seconds).toBe(MAX_TOTAL_OFFSET_SECONDS)
    // Every Area A route, at the bound: no 5xx.
    const invoice = buildInvoice()
    expect((await test.app.post<any>('/api/v1/app/invoice/sign', invoice)).status).toBeLessThan(500)
    const ctx = { signedIrn: invoice.irn, transferRequestId: 'none', templateId: 'none' }
    expect(await fiveHundreds(['A'], ctx)).toEqual([])
  }, 300_000)
})

describe('POST /api/v1/transactions/test/clock/advance', () => {
  it("moves the sandbox bank's clock up to 10 years in all, then answers 400 and moves nothing", async () => {
    const advance = (seconds: number) =>
      test.switch.post<any>('/api/v1/transactions/test/clock/advance', { seconds })
    await toTheBound(advance)
    const refused = await advance(MAX_ADVANCE_SECONDS)
    expect(refused.status).toBe(400)
    expect(JSON.stringify(refused.body)).toContain('TEST_CLOCK_LIMIT')
    // Still at the bound: a refused advance added nothing.
    const again = await advance(1)
    expect(again.status).toBe(400)
    expect(JSON.stringify(again.body)).toContain('is 315360000 s ahead')
    // Every Area B and C route, at the bound: a transfer stamped 10 years ahead, its reversal, the
    // merchant's history and statement of that day; no 5xx.
    // Test mode's magic account (docs/sandbox.md).
    const sample = SAMPLES['transactions-transfer']!({} as FuzzContext).body as { requestId: string }
    const transfer = { ...sample, accountNumber: '1000000000' }
    const paid = await test.switch.post<any>('/api/v1/transactions/transfer', transfer)
    expect(paid.status, JSON.stringify(paid.body)).toBe(200)
    const ctx = { signedIrn: 'none', transferRequestId: transfer.requestId, templateId: 'none' }
    expect(await fiveHundreds(['B', 'C'], ctx)).toEqual([])
  }, 300_000)
})
