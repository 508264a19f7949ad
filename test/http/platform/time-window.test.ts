import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { signAreaA, signAreaB } from '#client/signing.ts'
import { send, startApi, type TestApi } from '../../support/api.ts'
import { DEV } from '../../support/clients.ts'

/**
 * CONTRACT section 9: the 5-minute window is exact to the millisecond, both areas, both directions.
 * The server runs in this process, so the test stops its clock (Date only; timers and I/O run on):
 * the server then sees exactly the offset the request was signed with, and a loaded machine's transit
 * time cannot move a case across the boundary.
 */
let api: TestApi
beforeAll(async () => {
  api = await startApi()
})
afterAll(() => api?.close())
afterEach(() => {
  vi.useRealTimers()
})

/** Stops the clock at a whole second, and returns the timestamp `offsetMs` away from it. */
function frozenAt(offsetMs: number): string {
  vi.useFakeTimers({ toFake: ['Date'] })
  const now = Math.floor(Date.now() / 1000) * 1000
  vi.setSystemTime(now)
  return new Date(now + offsetMs).toISOString()
}

const areaA = async (timestamp: string) => {
  const target = '/api/v1/resource/states'
  const headers = signAreaA(DEV.clients.si, { method: 'GET', target, timestamp })
  return send(`${api.url}${target}`, { headers })
}

let requestNumber = 0
const areaB = async (timestamp: string) => {
  const target = '/api/v1/transactions/balance-enquiry'
  const body = JSON.stringify({
    requestId: `WINDOW-${++requestNumber}`,
    stan: '000001',
    processingCode: '310000',
    accountNumber: '0123456789',
  })
  const headers = signAreaB(
    { token: DEV.switch.token, secret: DEV.switch.secret },
    { method: 'POST', target, body, timestamp },
  )
  return send(`${api.url}${target}`, { method: 'POST', headers, body })
}

const REFUSED = [
  ['300.5 s ahead', 300_500],
  ['300.5 s behind', -300_500],
  ['300.001 s ahead', 300_001],
  ['300.001 s behind', -300_001],
] as const
const ACCEPTED = [
  ['299.9 s ahead', 299_900],
  ['299.9 s behind', -299_900],
  ['exactly 300 s ahead', 300_000],
  ['exactly 300 s behind', -300_000],
] as const

describe('Area A timestamp window', () => {
  it.each(REFUSED)('refuses a timestamp %s with 401', async (_, offset) => {
    const reply = await areaA(frozenAt(offset))
    expect(reply.status).toBe(401)
    expect(reply.body.error.status).toBe('401 UNAUTHORIZED')
    expect(reply.body.message).toMatch(/more than 5 minutes/)
  })

  it.each(ACCEPTED)('accepts a timestamp %s', async (_, offset) => {
    const reply = await areaA(frozenAt(offset))
    expect(reply.status, reply.text).toBe(200)
    expect(reply.body.status).toBe('SUCCESS')
  })
})

describe('Area B timestamp window', () => {
  it.each(REFUSED)('refuses a timestamp %s with 92', async (_, offset) => {
    const reply = await areaB(frozenAt(offset))
    expect(reply.status).toBe(401)
    expect(reply.body.responseCode).toBe('92')
  })

  it.each(ACCEPTED)('accepts a timestamp %s', async (_, offset) => {
    const reply = await areaB(frozenAt(offset))
    expect(reply.status, reply.text).toBe(200)
    expect(reply.body.responseCode).toBe('00')
  })
})
