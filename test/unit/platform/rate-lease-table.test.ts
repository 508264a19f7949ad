import { randomUUID } from 'node:crypto'
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest'
import { leaseCap, QuotaLeases } from '#lib/platform/auth/rate-lease.ts'
import { admitRequest, RateLimited } from '#lib/platform/auth/rate-limit.ts'
import { db } from '#lib/platform/db/client.ts'
import { dropTable, ensureTable } from '../../../scripts/local/table.ts'

/**
 * The rate limit leases of lib/platform/auth/rate-lease.ts against DynamoDB Local, with the bounds
 * its comment states: N QuotaLeases are N containers sharing one business's window. Every container
 * runs on its own clock, one window of an hour pinned, that moves 10 ms a request (a container's
 * rate then means something to its lease's size). The pure decision is in rate-lease.test.ts.
 */
const endpoint = inject('dynamoEndpoint')
const table = `lease-${randomUUID()}`
const WINDOW = 3600
const windowStartMs = (Math.ceil(Date.now() / (WINDOW * 1000)) + 1) * WINDOW * 1000

/** Lease writes (UpdateItem under RATE#) since the file started. */
let leaseWrites = 0
beforeAll(async () => {
  process.env.TABLE_NAME = table
  process.env.DYNAMODB_ENDPOINT = endpoint
  process.env.STAGE = 'local'
  process.env.AWS_REGION = 'eu-west-1'
  await ensureTable(endpoint, table)
  db().middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { Key?: { pk?: string } }
      if (context.commandName === 'UpdateItemCommand' && input.Key?.pk?.startsWith('RATE#')) leaseWrites++
      return next(args)
    },
    { step: 'initialize', name: 'countLeaseWrites' },
  )
})
afterAll(() => dropTable(endpoint, table))
afterEach(() => {
  vi.useRealTimers()
})

/** A container: its own leases and its own clock, 10 ms a request. */
function container() {
  let now = windowStartMs + 1000
  return new QuotaLeases(() => (now += 10))
}
const business = () => `BUSINESS#${randomUUID()}#live`

/** Sends requests one at a time through `holder` until it is refused; the number admitted. */
async function untilRefused(
  holder: QuotaLeases,
  subject: string,
  limit: { quota: number; windowSeconds: number },
) {
  let admitted = 0
  while ((await holder.take(subject, limit)).admitted) admitted++
  return admitted
}

describe('rate limit leases: N containers, one business', () => {
  const limit = { quota: 400, windowSeconds: WINDOW } // a lease is at most 20

  it('admits exactly the quota when traffic keeps reaching every container, in far fewer writes', async () => {
    const subject = business()
    const containers = Array.from({ length: 8 }, container)
    const before = leaseWrites
    const admitted = await Promise.all(containers.map((c) => untilRefused(c, subject, limit)))
    expect(admitted.reduce((a, b) => a + b, 0)).toBe(limit.quota)
    // Each container leases 1, 2, 4, 8, 16, then 20 at a time, and once more to find the window spent.
    expect(leaseWrites - before).toBeLessThan(limit.quota / 4)
  })

  it('never admits more than the quota, however many containers lease at once', async () => {
    const subject = business()
    const containers = Array.from({ length: 16 }, container)
    // 16 containers x 50 requests in flight each (the local server's case: one process, many requests).
    const decisions = await Promise.all(
      containers.flatMap((c) => Array.from({ length: 50 }, () => c.take(subject, limit))),
    )
    const admitted = decisions.filter((d) => d.admitted).length
    expect(admitted).toBeLessThanOrEqual(limit.quota)
    // A container's last lease may hold more than its last waiting requests took: stranded, at most a cap each.
    expect(admitted).toBeGreaterThanOrEqual(limit.quota - 16 * leaseCap(limit.quota))
  })

  it('admits at least the quota less what the idle containers hold, when traffic moves to one', async () => {
    const subject = business()
    const containers = Array.from({ length: 8 }, container)
    // Every container warms up (its lease grows to 16 or 20), then only the first receives traffic.
    let admitted = 0
    for (const c of containers)
      for (let i = 0; i < 40; i++) if ((await c.take(subject, limit)).admitted) admitted++
    admitted += await untilRefused(containers[0]!, subject, limit)
    expect(admitted).toBeLessThanOrEqual(limit.quota)
    expect(admitted).toBeGreaterThanOrEqual(limit.quota - 7 * leaseCap(limit.quota))
    // And the units stranded are real: the idle containers still hold some.
    expect(admitted).toBeLessThan(limit.quota)
    expect((await containers[1]!.take(subject, limit)).admitted).toBe(true)
  })
})

describe('rate limit leases: a changed limit', () => {
  it('holds a lowered quota at the next request of a container given it, its unspent lease dropped', async () => {
    const subject = `A#${randomUUID()}`
    const [a, b] = [container(), container()]
    const old = { quota: 400, windowSeconds: WINDOW }
    for (let i = 0; i < 20; i++) await a.take(subject, old)
    for (let i = 0; i < 20; i++) await b.take(subject, old)
    // Both now hold unspent units leased under 400 (leases of 1, 2, 4, 8, 16: 31 each, 20 spent).
    const lowered = { quota: 30, windowSeconds: WINDOW }
    const refused = await a.take(subject, lowered)
    expect(refused.admitted).toBe(false)
    expect(refused.rate).toMatchObject({ quota: 30, remaining: 0 })
    // A container not yet given the new limit (its credential cache, at most 5 s) spends what it holds.
    expect((await b.take(subject, old)).admitted).toBe(true)
    // Given it, it drops its lease too.
    expect((await b.take(subject, lowered)).admitted).toBe(false)
  })

  it('admits again at once under a raised quota, counted from the units leased so far', async () => {
    const subject = `A#${randomUUID()}`
    const a = container()
    const three = { quota: 3, windowSeconds: WINDOW }
    expect(await untilRefused(a, subject, three)).toBe(3)
    // Raised to 5: the count holds the 3 granted and the 1 the fourth request asked for in vain (the
    // lease that found the window spent), so 5 - 4 = 1 is left. A raised quota adds its difference,
    // less the units asked in vain under the old one (at most one lease per container).
    expect(await untilRefused(a, subject, { quota: 5, windowSeconds: WINDOW })).toBe(1)
  })

  it('counts a new window length from 0 (a new item)', async () => {
    const subject = `A#${randomUUID()}`
    const a = container()
    expect(await untilRefused(a, subject, { quota: 3, windowSeconds: WINDOW })).toBe(3)
    expect(await untilRefused(a, subject, { quota: 3, windowSeconds: WINDOW / 2 })).toBe(3)
  })
})

describe('rate limit leases: a slow write', () => {
  it('decides a request in the window it arrived in, with one write, when the window ends during its lease', async () => {
    const subject = `A#${randomUUID()}`
    // The request arrives a moment before the window's end; its lease's write returns after it.
    const times = [windowStartMs + WINDOW * 1000 - 1]
    const holder = new QuotaLeases(() => times.shift() ?? windowStartMs + WINDOW * 1000 + 5)
    const before = leaseWrites
    const taken = await holder.take(subject, { quota: 10, windowSeconds: WINDOW })
    expect(taken.admitted).toBe(true)
    expect(taken.rate.windowStart * 1000).toBe(windowStartMs)
    expect(leaseWrites - before).toBe(1)
  })
})

describe('admitRequest: a key and its business', () => {
  it('gives a request refused by its business its key unit back, and names the business', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(windowStartMs + 1000)
    const key = { subject: `A#${randomUUID()}`, limit: { quota: 100, windowSeconds: WINDOW } }
    const holder = "this business's live API keys together"
    const biz = { subject: business(), limit: { quota: 2, windowSeconds: WINDOW }, holder }
    expect((await admitRequest(key, biz)).remaining).toBe(1)
    expect((await admitRequest(key, biz)).remaining).toBe(0)
    const refused = await admitRequest(key, biz).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(RateLimited)
    expect((refused as RateLimited).message).toMatch(
      /^Rate limit exceeded: this business's live API keys together may send 2 requests every 3600 s/,
    )
    // The key alone: 2 of its units spent, not 3 (leases 1 then 2: 3 leased, 1 held).
    expect((await admitRequest(key)).remaining).toBe(97)
  })
})
