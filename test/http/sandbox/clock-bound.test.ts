import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_ADVANCE_SECONDS, MAX_TOTAL_OFFSET_SECONDS } from '#lib/platform/test-clock.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { type TestModeClients, testModeClients } from '../../support/clients.ts'

/**
 * CONTRACT 18: a test clock moves at most 10 years in all. Each clock is moved to its bound through
 * the endpoint, a month at a time, then one second more is refused with 400 TEST_CLOCK_LIMIT and
 * moves nothing. A file of its own: the clocks it leaves 10 years ahead are no other test's.
 */

let api: TestApi
let test: TestModeClients
beforeAll(async () => {
  api = await startApi()
  test = testModeClients(api.url)
})
afterAll(() => api?.close())

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
  })
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
  })
})
