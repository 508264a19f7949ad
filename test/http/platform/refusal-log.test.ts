import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REFUSAL_REASONS } from '#lib/platform/auth/refusal.ts'
import { newNonce, signAreaA, signAreaB } from '#client/signing.ts'
import { send, startApi, type TestApi } from '../../support/api.ts'
import { type CapturedOutput, captureOutput } from '../../support/output.ts'
import { DEV } from '../../support/clients.ts'

// This file turns logging on (the suite keeps it silent) and captures what the server writes.
process.env.LOG_LEVEL = 'INFO'
let output: CapturedOutput

let api: TestApi
beforeAll(async () => {
  output = captureOutput()
  api = await startApi()
})
afterAll(async () => {
  output?.restore()
  await api?.close()
})

/** The refusal lines logged while `run` ran. */
async function refusalsDuring(run: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const from = output.written.length
  await run()
  return output.written
    .slice(from)
    .join('')
    .split('\n')
    .filter((l) => l.includes('"request refused"'))
    .map((l) => JSON.parse(l))
}

const A_PATH = '/api/v1/resource/states'
const areaA = (headers: Record<string, string>) => send(`${api.url}${A_PATH}`, { headers })
const signedA = (credentials: { apiKey: string; secret: string } = DEV.clients.si, timestamp?: string) =>
  signAreaA(credentials, { method: 'GET', target: A_PATH, timestamp })

const B_PATH = '/api/v1/transactions/balance-enquiry'
const B_BODY = JSON.stringify({
  requestId: 'R1',
  stan: '000001',
  processingCode: '310000',
  accountNumber: '0123456789',
})
const areaB = (headers: Record<string, string>) =>
  send(`${api.url}${B_PATH}`, { method: 'POST', headers, body: B_BODY })
const signedB = (secret: string = DEV.switch.secret, extra: { timestamp?: string; nonce?: string } = {}) =>
  signAreaB({ token: DEV.switch.token, secret }, { method: 'POST', target: B_PATH, body: B_BODY, ...extra })

const stale = () => new Date(Date.now() - 400_000).toISOString()

describe('a refused request', () => {
  it.each([
    ['missing_credentials', 401, () => areaA({})],
    ['unknown_key', 401, () => areaA({ ...signedA(), 'x-api-key': 'no-such-key' })],
    ['malformed_timestamp', 401, () => areaA(signedA(DEV.clients.si, 'yesterday'))],
    ['timestamp_out_of_window', 401, () => areaA(signedA(DEV.clients.si, stale()))],
    ['malformed_signature', 401, () => areaA({ ...signedA(), 'x-api-signature': 'abc' })],
    ['signature_mismatch', 401, () => areaA(signedA({ ...DEV.clients.si, secret: 'wrong' }))],
    [
      'replay',
      401,
      async () => {
        const headers = signedA()
        await areaA(headers)
        return areaA(headers)
      },
    ],
    [
      'role_forbidden',
      403,
      () => {
        const target = '/api/v1/app/invoice/confirm/INV1-94ND90NR-20261121'
        return send(`${api.url}${target}`, { headers: signAreaA(DEV.clients.si, { method: 'GET', target }) })
      },
    ],
  ] as const)(
    'in Area A is logged with reason %s and the key as its fingerprint',
    async (reason, status, run) => {
      let reply: any
      const lines = await refusalsDuring(async () => {
        reply = await run()
      })
      expect(reply.status).toBe(status)
      expect(lines.at(-1)).toMatchObject({ level: 'WARN', reason, status })
      if (reason !== 'missing_credentials')
        expect(lines.at(-1)!.caller).toMatch(/^key:[^:]{0,4}:[0-9a-f]{12}$/)
      else expect(lines.at(-1)!.caller).toBe('anonymous')
    },
  )

  it.each([
    ['missing_credentials', () => areaB({ authorization: `Bearer ${DEV.switch.token}` })],
    ['malformed_signature', () => areaB({ ...signedB(), 'x-nonce': 'short' })],
    ['timestamp_out_of_window', () => areaB(signedB(DEV.switch.secret, { timestamp: stale() }))],
    ['unknown_key', () => areaB({ ...signedB(), authorization: 'Bearer nope' })],
    ['signature_mismatch', () => areaB(signedB('wrong'))],
    [
      'replay',
      async () => {
        const nonce = newNonce()
        await areaB(signedB(DEV.switch.secret, { nonce }))
        return areaB(signedB(DEV.switch.secret, { nonce }))
      },
    ],
  ] as const)('in Area B is logged with reason %s', async (reason, run) => {
    const lines = await refusalsDuring(run)
    expect(lines.at(-1)).toMatchObject({ reason, status: 401, scheme: 'switch-signature' })
  })

  it('in Areas C and D is logged with its reason and the merchant the token stands for', async () => {
    const mismatch = await refusalsDuring(() =>
      send(`${api.url}/api/v1/merchant/transactions`, {
        headers: { authorization: `Bearer ${DEV.merchants[0].token}`, 'x-merchant-id': 'MRC0002' },
      }),
    )
    expect(mismatch.at(-1)).toMatchObject({
      reason: 'merchant_mismatch',
      status: 403,
      caller: `merchant:${DEV.merchants[0].merchantId}`,
    })
    const unknown = await refusalsDuring(() =>
      send(`${api.url}/notification/email`, { headers: { authorization: 'Bearer not-a-key' } }),
    )
    expect(unknown.at(-1)).toMatchObject({ reason: 'unknown_key', status: 401, scheme: 'admin-bearer' })
  })

  it('is never logged with a secret, token, signature or full API key', () => {
    const log = output.written.join('')
    const sensitive = [
      ...Object.values(DEV.clients).flatMap((c) => [c.apiKey, c.secret]),
      DEV.switch.token,
      DEV.switch.secret,
      ...DEV.merchants.map((m) => m.token),
      DEV.notifyAdmin.token,
    ]
    for (const value of sensitive) expect(log).not.toContain(value)
    const reasons = log
      .split('\n')
      .filter((l) => l.includes('"request refused"'))
      .map((l) => JSON.parse(l).reason)
    expect(reasons.length).toBeGreaterThan(10)
    for (const reason of reasons) expect(REFUSAL_REASONS).toContain(reason)
  })
})

describe('the request line', () => {
  /** The request lines logged while `run` ran. */
  async function requestLines(run: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
    const from = output.written.length
    await run()
    return output.written
      .slice(from)
      .join('')
      .split('\n')
      .filter((l) => l.includes('"message":"request"'))
      .map((l) => JSON.parse(l))
  }

  it('names the caller of every area, with route, status, latency and mode; two dev keys apart', async () => {
    const si = await requestLines(() => areaA(signedA(DEV.clients.si)))
    const app = await requestLines(() => areaA(signedA(DEV.clients.app)))
    expect(si.at(-1)).toMatchObject({
      route: `GET ${A_PATH}`,
      status: 200,
      mode: 'live',
      durationMs: expect.any(Number),
      caller: expect.stringMatching(/^key:dev-:[0-9a-f]{12}$/),
    })
    // Both development keys start dev-: the fingerprint still tells them apart.
    expect(app.at(-1)!.caller).toMatch(/^key:dev-:[0-9a-f]{12}$/)
    expect(app.at(-1)!.caller).not.toBe(si.at(-1)!.caller)

    const b = await requestLines(() => areaB(signedB()))
    expect(b.at(-1)).toMatchObject({ route: `POST ${B_PATH}`, caller: `switch:${DEV.switch.clientId}` })
    const c = await requestLines(() =>
      send(`${api.url}/api/v1/merchant/transactions`, {
        headers: {
          authorization: `Bearer ${DEV.merchants[0].token}`,
          'x-merchant-id': DEV.merchants[0].merchantId,
        },
      }),
    )
    expect(c.at(-1)).toMatchObject({ status: 200, caller: `merchant:${DEV.merchants[0].merchantId}` })
    const d = await requestLines(() =>
      send(`${api.url}/notification/email`, {
        headers: { authorization: `Bearer ${DEV.notifyAdmin.token}` },
      }),
    )
    expect(d.at(-1)!.caller).toMatch(/^admin:dev-:[0-9a-f]{12}$/)
    // A refused request names what it presented.
    const refusedLine = await requestLines(() => areaA(signedA({ ...DEV.clients.si, secret: 'wrong' })))
    expect(refusedLine.at(-1)).toMatchObject({ status: 401, caller: si.at(-1)!.caller })
  })
})
