import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { areaBCanonical, hmac } from '#lib/platform/auth/canonical.ts'
import { newNonce, signAreaB } from '#client/signing.ts'
import { send, startApi, type TestApi } from '../../support/api.ts'
import { DEV } from '../../support/clients.ts'
import { iso20022Of } from '#lib/platform/iso20022.ts'

const PATH = '/api/v1/transactions/balance-enquiry'
const BODY = JSON.stringify({
  requestId: 'REQ-AUTH-0001',
  stan: '000001',
  processingCode: '310000',
  accountNumber: '0123456789',
})
const credentials = { token: DEV.switch.token, secret: DEV.switch.secret }

let api: TestApi
beforeAll(async () => {
  api = await startApi()
})
afterAll(() => api?.close())

const isoSeconds = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`

/** Sends the balance enquiry with properly signed headers, then applies the test's changes. */
function post(
  overrides: Record<string, string | undefined> = {},
  options: { body?: string; timestamp?: string; nonce?: string } = {},
) {
  const headers: Record<string, string | undefined> = {
    ...signAreaB(credentials, {
      method: 'POST',
      target: PATH,
      body: BODY,
      timestamp: options.timestamp,
      nonce: options.nonce,
    }),
    ...overrides,
  }
  const clean = Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)) as Record<
    string,
    string
  >
  return send(`${api.url}${PATH}`, { method: 'POST', headers: clean, body: options.body ?? BODY })
}

function expectRefusal(reply: Awaited<ReturnType<typeof post>>, code: string) {
  expect(reply.status).toBe(401)
  expect(reply.body).toEqual({
    responseCode: code,
    responseMessage: expect.any(String),
    responseStatus: 'FAILED',
    traceId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    timestamp: expect.any(String),
    // Each signature refusal's ISO 20022 pair (CONTRACT 24): 91 and 94 DS0B, 92 DT02, 93 AM05, 95 FF01.
    iso20022: iso20022Of(code),
  })
}

const accepted = (reply: Awaited<ReturnType<typeof post>>) => {
  expect(reply.status).not.toBe(401)
  expect(['91', '92', '93', '94', '95']).not.toContain(reply.body?.responseCode)
}

describe('Area B request signatures over HTTP', () => {
  it('accepts a correctly signed request', async () => {
    accepted(await post())
  })

  it.each(['x-signature', 'x-timestamp', 'x-nonce'])('refuses with 94 when %s is missing', async (header) => {
    expectRefusal(await post({ [header]: undefined }), '94')
  })

  it.each(['x-signature', 'x-timestamp', 'x-nonce'])('refuses with 94 when %s is empty', async (header) => {
    expectRefusal(await post({ [header]: '' }), '94')
  })

  it.each([
    ['not Base64 at all', 'not-base64-!!'],
    ['31 bytes', Buffer.alloc(31, 7).toString('base64')],
    ['33 bytes', Buffer.alloc(33, 7).toString('base64')],
    ['url-safe alphabet', Buffer.alloc(32, 0xfb).toString('base64url') + '='],
    ['unpadded', Buffer.alloc(32, 7).toString('base64').replace(/=+$/, '')],
    [
      'whitespace inside',
      Buffer.alloc(32, 7)
        .toString('base64')
        .replace(/^(.{20})/, '$1 '),
    ],
  ])('refuses with 95 for a malformed signature (%s)', async (_, signature) => {
    expectRefusal(await post({ 'x-signature': signature }), '95')
  })

  it.each([
    ['too short', 'abc123'],
    ['bad characters', 'nonce with spaces!!'],
    ['too long', 'a'.repeat(65)],
  ])('refuses with 95 for a malformed nonce (%s)', async (_, nonce) => {
    expectRefusal(await post({}, { nonce }), '95')
  })

  it('refuses with 91 when the body was tampered with after signing', async () => {
    expectRefusal(await post({}, { body: BODY.replace('0123456789', '0987654321') }), '91')
  })

  it('refuses with 91 when the signature was made over a lower-case method', async () => {
    const timestamp = isoSeconds(Date.now())
    const nonce = newNonce()
    const canonical = areaBCanonical({ method: 'post', target: PATH, timestamp, nonce, body: BODY })
    const signature = hmac(DEV.switch.secret, canonical).toString('base64')
    expectRefusal(await post({ 'x-signature': signature }, { timestamp, nonce }), '91')
  })

  it('refuses with 91 when the timestamp is reformatted after signing', async () => {
    const timestamp = isoSeconds(Date.now())
    const signed = signAreaB(credentials, { method: 'POST', target: PATH, body: BODY, timestamp })
    expectRefusal(await post({ ...signed, 'x-timestamp': timestamp.replace('Z', '.000Z') }), '91')
  })

  it('refuses with 91 when signed with another secret', async () => {
    const headers = signAreaB(
      { ...credentials, secret: 'not-the-secret' },
      { method: 'POST', target: PATH, body: BODY },
    )
    expectRefusal(await post(headers), '91')
  })

  it.each([
    ['301 s old', -301_000],
    // Half a second of margin: an ahead timestamp gets closer to the server clock while in transit.
    ['301 s ahead', 301_500],
  ])('refuses with 92 when the timestamp is %s', async (_, offset) => {
    expectRefusal(await post({}, { timestamp: new Date(Date.now() + offset).toISOString() }), '92')
  })

  // The exact boundary (300.000 s accepted, 300.001 s refused) needs a stopped clock: test/http/platform/time-window.test.ts.

  it.each([
    ['zone-less', new Date().toISOString().slice(0, 19)],
    ['an offset instead of Z', `${new Date(Date.now() + 3_600_000).toISOString().slice(0, 19)}+01:00`],
    ['an impossible date', '2026-02-30T10:00:00Z'],
    ['not a date', 'yesterday'],
  ])('refuses with 92 for a %s timestamp', async (_, timestamp) => {
    expectRefusal(await post({}, { timestamp }), '92')
  })

  it('refuses a replayed request with 93', async () => {
    const nonce = newNonce()
    const timestamp = isoSeconds(Date.now())
    accepted(await post({}, { nonce, timestamp }))
    expectRefusal(await post({}, { nonce, timestamp }), '93')
  })

  it('does not spend a nonce on a request whose signature fails', async () => {
    const nonce = newNonce()
    expectRefusal(await post({}, { nonce, body: `${BODY} ` }), '91')
    accepted(await post({}, { nonce }))
  })

  it('accepts one of 20 parallel requests carrying the same nonce and refuses nineteen with 93', async () => {
    const nonce = newNonce()
    const timestamp = isoSeconds(Date.now())
    const replies = await Promise.all(Array.from({ length: 20 }, () => post({}, { nonce, timestamp })))
    const refused = replies.filter((r) => r.status === 401)
    expect(refused).toHaveLength(19)
    for (const r of refused) expect(r.body.responseCode).toBe('93')
  })

  it('refuses an unknown bearer token with 401 even when the signature headers are well formed', async () => {
    const reply = await post({ authorization: 'Bearer not-a-token' })
    expect(reply.status).toBe(401)
    expect(reply.body.responseCode).toBe('63')
  })

  it('refuses a merchant token used as a switch token', async () => {
    const headers = signAreaB(
      { token: DEV.merchants[0].token, secret: DEV.switch.secret },
      { method: 'POST', target: PATH, body: BODY },
    )
    expect((await post(headers)).status).toBe(401)
  })
})
