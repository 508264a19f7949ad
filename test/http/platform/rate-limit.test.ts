import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { ApiClient } from '#client/api-client.ts'
import {
  issueApiClient,
  issueMerchantToken,
  issueNotifyAdminKey,
  issueSwitchClient,
  revokeApiClient,
} from '#lib/platform/auth/credentials.ts'
import { DEFAULT_RATE_LIMIT } from '#lib/platform/auth/rate-limit.ts'
import { db } from '#lib/platform/db/client.ts'
import { commands } from '../../../scripts/cli/rate-limits.ts'
import { type HttpReply, startApi, type TestApi } from '../../support/api.ts'
import { cliOutput } from '../../support/cli.ts'
import { DEV, type DevClients, devClients } from '../../support/clients.ts'
import { checkReply } from '../../support/contract.ts'

/**
 * Per-client rate limits (CONTRACT section 14): every authenticated reply says where its client
 * stands (RateLimit-Policy, RateLimit); over the quota is 429 with Retry-After in the area's record;
 * a limit is set per client with the CLI; another client is not affected; a throttled dependency is
 * a 503 with Retry-After. The server runs in this process, so tests that count a window pin the clock
 * (Date only) to a window's start: a window boundary cannot fall inside them.
 */
let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(() => api?.close())
afterEach(() => {
  vi.useRealTimers()
})

const WINDOW = 3600
/** Pins Date to one second into the next window of WINDOW seconds. */
function atWindowStart() {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(Math.ceil(Date.now() / (WINDOW * 1000)) * WINDOW * 1000 + 1000)
}

const STATES = '/api/v1/resource/states'
const BALANCE = '/api/v1/transactions/balance-enquiry'
const HISTORY = '/api/v1/merchant/transactions?page=1&size=1'
const EMAILS = '/notification/email'
const balanceBody = () => ({
  requestId: `RL-${Math.random().toString(36).slice(2)}`,
  stan: '000001',
  processingCode: '310000',
  accountNumber: '0987654321',
})

type Reply = Pick<HttpReply, 'status' | 'headers' | 'body'>
/** The project's client, every reply held to the published document as the dev clients' are. */
class Checked extends ApiClient {
  override async request<T = unknown>(
    method: string,
    target: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ) {
    const reply = await super.request<T>(method, target, body, extraHeaders)
    checkReply(method, new URL(target, this.baseUrl).href, reply)
    return reply
  }
}

/** One client per scheme, each with a fresh credential whose limit the test sets. */
async function freshClients() {
  const a = await issueApiClient({ businessId: DEV.supplier.businessId, roles: ['SI'] })
  const b = await issueSwitchClient({ name: 'rate limit test' })
  const c = await issueMerchantToken({ merchantId: 'MRC0001' })
  const d = await issueNotifyAdminKey()
  return {
    credentials: { a, b, c, d },
    send: {
      // A distinct target each time: with the clock pinned, the same request would be a replay.
      A: () => {
        const client = new Checked(api.url, { area: 'A', credentials: a })
        let n = 0
        return () => client.get(`${STATES}?n=${n++}`)
      },
      B: () => {
        const client = new Checked(api.url, { area: 'B', credentials: { token: b.token, secret: b.secret } })
        return () => client.post(BALANCE, balanceBody())
      },
      C: () => {
        const headers = { 'x-merchant-id': 'MRC0001' }
        const client = new Checked(api.url, { area: 'bearer', token: c.token, headers })
        return () => client.get(HISTORY)
      },
      D: () => {
        const client = new Checked(api.url, { area: 'bearer', token: d.token })
        return () => client.get(EMAILS)
      },
    },
  }
}

const setLimit = (values: Record<string, string>) =>
  commands.find((c) => c.name === 'rate-limit set')!.run(values)

function rateOf(reply: Reply) {
  const policy = reply.headers.get('ratelimit-policy')
  const state = /^"default";r=(\d+);t=(\d+)$/.exec(reply.headers.get('ratelimit') ?? '')
  return { policy, remaining: Number(state?.[1]), reset: Number(state?.[2]) }
}

describe('per-client rate limits', () => {
  it('says on every authenticated reply of each area where the client stands in its window', async () => {
    const policy = `"default";q=${DEFAULT_RATE_LIMIT.quota};w=${DEFAULT_RATE_LIMIT.windowSeconds}`
    const pairs: [string, () => Promise<Reply>][] = [
      ['A', () => clients.si.get(STATES)],
      ['B', () => clients.switch.post(BALANCE, balanceBody())],
      ['C', () => clients.merchant.get(HISTORY)],
      ['D', () => clients.notify.get(EMAILS)],
    ]
    for (const [area, call] of pairs) {
      const first = await call()
      const second = await call()
      expect([first.status, second.status], area).toEqual([200, 200])
      for (const reply of [first, second]) {
        expect(rateOf(reply).policy, area).toBe(policy)
        expect(rateOf(reply).reset, area).toBeGreaterThan(0)
        expect(rateOf(reply).reset, area).toBeLessThanOrEqual(DEFAULT_RATE_LIMIT.windowSeconds)
      }
      // Unless the window turned between the two, the second has one request fewer left.
      if (rateOf(second).remaining < DEFAULT_RATE_LIMIT.quota - 1)
        expect(rateOf(second).remaining, area).toBe(rateOf(first).remaining - 1)
    }
    // An error reply after authentication says it too; a reply to a caller not authenticated does not.
    const invalid = await clients.si.post('/api/v1/si/generate-invoice-number', { code: '' })
    expect(invalid.status).toBe(400)
    expect(rateOf(invalid).policy).toBe(policy)
    const anonymous = await clients.anonymous.get(STATES)
    expect(anonymous.status).toBe(401)
    expect(anonymous.headers.get('ratelimit')).toBeNull()
  })

  it("admits the quota set with the CLI, then answers 429 with Retry-After in each area's record", async () => {
    const fresh = await freshClients()
    const { a, b, c, d } = fresh.credentials
    // The API key's limit through the CLI as a person runs it; the others through its module.
    const printed = await cliOutput(
      api,
      'rate-limit',
      'set',
      '--key',
      a.apiKey,
      '--quota',
      '3',
      '--window',
      `${WINDOW}`,
    )
    expect(printed).toMatch(/set to 3 requests every 3600 s/)
    await setLimit({ switch: b.clientId, quota: '3', window: `${WINDOW}` })
    await setLimit({ token: c.token, quota: '3', window: `${WINDOW}` })
    await setLimit({ token: d.token, quota: '3', window: `${WINDOW}` })
    atWindowStart()

    for (const area of ['A', 'B', 'C', 'D'] as const) {
      const call = fresh.send[area]()
      const replies: Reply[] = []
      for (let i = 0; i < 5; i++) replies.push(await call())
      expect(
        replies.map((r) => r.status),
        area,
      ).toEqual([200, 200, 200, 429, 429])
      expect(
        replies.map((r) => rateOf(r).remaining),
        area,
      ).toEqual([2, 1, 0, 0, 0])
      const refused = replies[4]!
      expect(rateOf(refused).policy).toBe(`"default";q=3;w=${WINDOW}`)
      // Pinned one second into the window: the rest of it.
      expect(refused.headers.get('retry-after'), area).toBe(String(WINDOW - 1))
      expect(rateOf(refused).reset, area).toBe(WINDOW - 1)
      const message = expect.stringMatching(
        /^Rate limit exceeded: this client may send 3 requests every 3600 s/,
      )
      const body = refused.body as Record<string, unknown>
      if (area === 'A')
        expect(body).toMatchObject({
          status: 'FAILED',
          message,
          error: { status: '429 TOO_MANY_REQUESTS', errors: [{ path: '', code: 'RATE_LIMITED', message }] },
        })
      if (area === 'B' || area === 'C')
        expect(body).toMatchObject({ responseStatus: 'FAILED', responseCode: '65', responseMessage: message })
      if (area === 'D')
        expect(body).toEqual({ status: 429, message, errors: [{ path: '', code: 'RATE_LIMITED', message }] })
    }

    // Another client of the same business is admitted meanwhile.
    expect((await clients.si.get(STATES)).status).toBe(200)
  })

  it('admits exactly the quota out of 64 concurrent requests on one token', async () => {
    const fresh = await freshClients()
    await setLimit({ token: fresh.credentials.c.token, quota: '10', window: `${WINDOW}` })
    atWindowStart()
    const call = fresh.send.C()
    const replies = await Promise.all(Array.from({ length: 64 }, () => call()))
    const statuses = replies.map((r) => r.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(10)
    expect(statuses.filter((s) => s === 429)).toHaveLength(54)
  })

  it("writes for its rate limits only when its container leases a share of the key's and the business's windows", async () => {
    const fresh = await freshClients()
    const call = fresh.send.A()
    let windowWrites = 0
    const counter = 'countRateWindowWrites'
    db().middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as { Key?: { pk?: string } }
        if (context.commandName === 'UpdateItemCommand' && input.Key?.pk?.startsWith('RATE#')) windowWrites++
        return next(args)
      },
      { step: 'initialize', name: counter },
    )
    try {
      for (let i = 0; i < 20; i++) expect((await call()).status).toBe(200)
    } finally {
      db().middlewareStack.remove(counter)
    }
    // One write per request and window was 40; leases of 1, 2, 4, 8, ... take far fewer.
    expect(windowWrites).toBeLessThanOrEqual(12)
  })

  it('refuses a revoked key at once, though its container holds a lease of its window', async () => {
    const fresh = await freshClients()
    const { a } = fresh.credentials
    await setLimit({ key: a.apiKey, quota: '1000', window: `${WINDOW}` })
    atWindowStart()
    const call = fresh.send.A()
    // Leases of 1, 2 and 4: 7 units taken, 3 still held here.
    for (let i = 0; i < 4; i++) expect((await call()).status).toBe(200)
    await revokeApiClient(a.apiKey)
    const refused = await call()
    expect(refused.status).toBe(401)
    expect(refused.body).toMatchObject({ message: 'This API key has been revoked: ask for a new one' })
    expect(refused.headers.get('ratelimit')).toBeNull()
  })

  it('holds a re-limited key to its new limit from its next request in this container', async () => {
    const fresh = await freshClients()
    const { a } = fresh.credentials
    await setLimit({ key: a.apiKey, quota: '1000', window: `${WINDOW}` })
    atWindowStart()
    const call = fresh.send.A()
    // 4 requests admitted; the container holds 3 units more of its leases (1, 2 and 4).
    for (let i = 0; i < 4; i++) expect((await call()).status).toBe(200)
    await setLimit({ key: a.apiKey, quota: '6', window: `${WINDOW}` })
    const lowered = [await call(), await call(), await call()]
    for (const reply of lowered) expect(rateOf(reply).policy).toBe(`"default";q=6;w=${WINDOW}`)
    // The units the container held are dropped, not spent: 7 of 6 are leased, so none is left.
    expect(lowered.map((r) => r.status)).toEqual([429, 429, 429])
    // Raised again, it is admitted at once, against the units leased so far (7, and 1 asked in vain).
    await setLimit({ key: a.apiKey, quota: '20', window: `${WINDOW}` })
    const raised = await call()
    expect(raised.status).toBe(200)
    expect(rateOf(raised)).toMatchObject({ policy: `"default";q=20;w=${WINDOW}` })
  })
})
