import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { areaACanonical, hmac } from '#lib/platform/auth/canonical.ts'
import { issueApiClient, revokeApiClient, rotateApiClientSecret } from '#lib/platform/auth/credentials.ts'
import { ApiClient } from '#client/api-client.ts'
import { signAreaA } from '#client/signing.ts'
import { send, startApi, type TestApi } from '../../support/api.ts'
import { DEV, type DevClients, devClients } from '../../support/clients.ts'

const PATH = '/api/v1/resource/states'

let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(() => api?.close())

function get(headers: Record<string, string>, target = PATH) {
  return send(`${api.url}${target}`, { headers })
}

/** A 401 in Area A's record, its reason in words and as its code (CONTRACT 20, docs/errors.md). */
function expectUnauthorized(reply: Awaited<ReturnType<typeof get>>, reason: RegExp, code: string) {
  expect(reply.status).toBe(401)
  expect(reply.body).toEqual({
    status: 'FAILED',
    message: expect.stringMatching(reason),
    data: null,
    execTime: expect.stringMatching(/ms$/),
    error: {
      timestamp: expect.any(String),
      message: expect.stringMatching(reason),
      details: expect.any(String),
      status: '401 UNAUTHORIZED',
      errors: [{ path: '', code, message: expect.stringMatching(reason) }],
    },
  })
}

describe('Area A request signatures', () => {
  it('accepts a correctly signed request', async () => {
    const reply = await get(signAreaA(DEV.clients.si, { method: 'GET', target: PATH }))
    expect(reply.status).toBe(200)
  })

  it.each(['x-api-key', 'x-api-signature', 'x-api-timestamp'])(
    'refuses a request without %s, naming it',
    async (header) => {
      const headers = signAreaA(DEV.clients.si, { method: 'GET', target: PATH })
      delete headers[header]
      expectUnauthorized(
        await get(headers),
        new RegExp(`Missing authentication header: ${header}`),
        'MISSING_CREDENTIALS',
      )
    },
  )

  it("tells a client of the authority's API, which sends x-api-secret, that secrets are never sent and how to sign", async () => {
    // What a client written for the authority's API sends: the key and the secret itself.
    const reply = await get({ 'x-api-key': DEV.clients.si.apiKey, 'x-api-secret': DEV.clients.si.secret })
    expect(reply.status).toBe(401)
    const said =
      /^Missing authentication headers: x-api-signature, x-api-timestamp\. The API secret is never sent to this service: remove x-api-secret and sign "METHOD\\nPATH\?QUERY\\nTIMESTAMP\\nhex\(SHA-256\(body\)\)" with HMAC-SHA256 and your API secret, then Base64, sent as x-api-signature/
    expect(reply.body.message).toMatch(said)
    expect(reply.body.error).toEqual({
      timestamp: expect.any(String),
      message: expect.stringMatching(said),
      details: expect.stringMatching(/^x-api-secret: The API secret is never sent/),
      status: '401 UNAUTHORIZED',
      errors: [
        { path: 'x-api-secret', code: 'API_SECRET_SENT', message: expect.stringMatching(/never sent/) },
      ],
    })
  })

  it('refuses an unknown API key', async () => {
    expectUnauthorized(
      await get(signAreaA({ apiKey: 'nobody', secret: 'x' }, { method: 'GET', target: PATH })),
      /Unknown API key/,
      'UNKNOWN_KEY',
    )
  })

  it('refuses a wrong signature', async () => {
    const headers = signAreaA(
      { apiKey: DEV.clients.si.apiKey, secret: 'wrong-secret' },
      { method: 'GET', target: PATH },
    )
    expectUnauthorized(await get(headers), /does not match/, 'SIGNATURE_MISMATCH')
  })

  it('refuses a signature made for another path or query', async () => {
    const headers = signAreaA(DEV.clients.si, { method: 'GET', target: PATH })
    expectUnauthorized(await get(headers, `${PATH}?page=2`), /does not match/, 'SIGNATURE_MISMATCH')
  })

  it('covers the raw query string in the signature', async () => {
    const target = `${PATH}?a=1&b=%20x`
    expect((await get(signAreaA(DEV.clients.si, { method: 'GET', target }), target)).status).toBe(200)
  })

  it.each([
    ['6 minutes old', -360_000],
    ['6 minutes ahead', 360_000],
  ])('refuses an expired timestamp (%s)', async (_, offset) => {
    const timestamp = new Date(Date.now() + offset).toISOString()
    expectUnauthorized(
      await get(signAreaA(DEV.clients.si, { method: 'GET', target: PATH, timestamp })),
      /more than 5 minutes/,
      'TIMESTAMP_OUT_OF_WINDOW',
    )
  })

  it('accepts a timestamp with an offset instead of Z', async () => {
    const timestamp = `${new Date(Date.now() + 3_600_000).toISOString().slice(0, 19)}+01:00`
    expect((await get(signAreaA(DEV.clients.si, { method: 'GET', target: PATH, timestamp }))).status).toBe(
      200,
    )
  })

  it('refuses a timestamp that is not ISO 8601 with a zone', async () => {
    const timestamp = new Date().toISOString().slice(0, 19)
    expectUnauthorized(
      await get(signAreaA(DEV.clients.si, { method: 'GET', target: PATH, timestamp })),
      /ISO 8601/,
      'MALFORMED_TIMESTAMP',
    )
  })

  it('refuses a replayed request', async () => {
    const headers = signAreaA(DEV.clients.si, { method: 'GET', target: PATH })
    expect((await get(headers)).status).toBe(200)
    expectUnauthorized(await get(headers), /replay/, 'REPLAY')
  })

  it('covers the exact body bytes', async () => {
    const target = '/api/v1/resource/verify-tin'
    const headers = signAreaA(DEV.clients.si, { method: 'POST', target, body: '{"tin":"12345678-0001"}' })
    const reply = await send(`${api.url}${target}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: '{"tin": "12345678-0001"}',
    })
    expect(reply.status).toBe(401)
  })

  it('refuses a signature over a lower-case method', async () => {
    const timestamp = new Date().toISOString()
    const signature = hmac(
      DEV.clients.si.secret,
      areaACanonical({ method: 'get', target: PATH, timestamp, body: '' }),
    ).toString('base64')
    const headers = {
      'x-api-key': DEV.clients.si.apiKey,
      'x-api-timestamp': timestamp,
      'x-api-signature': signature,
    }
    expectUnauthorized(await get(headers), /does not match/, 'SIGNATURE_MISMATCH')
  })
})

describe('Area A roles', () => {
  it('gives 403 FirsErrorDetails when an SI client calls an APP endpoint', async () => {
    const reply = await clients.si.get('/api/v1/app/invoice/confirm/INV001-94ND90NR-20261121')
    expect(reply.status).toBe(403)
    // It names the roles that may call the route, in words and as a field, and carries its code.
    const needs = /needs an API key with role APP or ADMIN; this key has SI/
    expect(reply.body).toMatchObject({
      status: 'FAILED',
      message: expect.stringMatching(needs),
      error: {
        status: '403 FORBIDDEN',
        message: expect.stringMatching(needs),
        required_roles: ['APP', 'ADMIN'],
        errors: [{ path: '', code: 'ROLE_FORBIDDEN', message: expect.stringMatching(needs) }],
      },
    })
  })

  it('gives 403 when an APP client calls an SI endpoint', async () => {
    const reply = await clients.app.post('/api/v2/si/generate-irn', { invoice_number: 'INV001' })
    expect(reply.status).toBe(403)
    expect(reply.body).toMatchObject({
      status: '403 FORBIDDEN',
      message: expect.stringMatching(/needs an API key with role SI or ADMIN; this key has APP/),
      required_roles: ['SI', 'ADMIN'],
      errors: [{ path: '', code: 'ROLE_FORBIDDEN', message: expect.any(String) }],
    })
  })

  it('lets both SI and APP clients read the reference lists', async () => {
    expect((await clients.si.get('/api/v2/resource/currencies')).status).toBe(200)
    expect((await clients.app.get('/api/v2/resource/currencies')).status).toBe(200)
  })
})

describe('Area A credential lifecycle', () => {
  it('refuses a revoked key', async () => {
    const issued = await issueApiClient({ businessId: DEV.supplier.businessId, roles: ['SI'] })
    const client = new ApiClient(api.url, {
      area: 'A',
      credentials: { apiKey: issued.apiKey, secret: issued.secret },
    })
    expect((await client.get(PATH)).status).toBe(200)
    await revokeApiClient(issued.apiKey)
    const reply = await client.get(PATH)
    expect(reply.status).toBe(401)
    expect((reply.body as { message: string }).message).toMatch(/revoked/)
  })

  it('accepts the old and the new secret after one rotation, and drops the oldest after two', async () => {
    const issued = await issueApiClient({ businessId: DEV.supplier.businessId, roles: ['APP'] })
    const withSecret = (secret: string) =>
      new ApiClient(api.url, { area: 'A', credentials: { apiKey: issued.apiKey, secret } })
    const second = await rotateApiClientSecret(issued.apiKey)
    expect((await withSecret(issued.secret).get(PATH)).status).toBe(200)
    expect((await withSecret(second).get(PATH)).status).toBe(200)
    const third = await rotateApiClientSecret(issued.apiKey)
    expect((await withSecret(issued.secret).get(PATH)).status).toBe(401)
    expect((await withSecret(second).get(PATH)).status).toBe(200)
    expect((await withSecret(third).get(PATH)).status).toBe(200)
  })
})

describe('Areas C and D bearer tokens', () => {
  it("refuses merchant MRC0001's token with MRC0002's id (403)", async () => {
    const client = new ApiClient(api.url, {
      area: 'bearer',
      token: DEV.merchants[0].token,
      headers: { 'x-merchant-id': 'MRC0002' },
    })
    const reply = await client.get('/api/v1/merchant/transactions')
    expect(reply.status).toBe(403)
    expect(reply.body).toMatchObject({ responseStatus: 'FAILED', responseCode: '63' })
  })

  it('refuses a merchant request without a token (401)', async () => {
    const reply = await send(`${api.url}/api/v1/merchant/transactions`, {
      headers: { 'x-merchant-id': 'MRC0001' },
    })
    expect(reply.status).toBe(401)
    expect(reply.body).toMatchObject({ responseStatus: 'FAILED', responseCode: '63' })
  })

  it('accepts the merchant token with its own merchant id', async () => {
    expect((await clients.merchant.get('/api/v1/merchant/transactions')).status).not.toBe(401)
  })

  it('refuses the notification endpoints without the admin key', async () => {
    const reply = await clients.merchant.get('/notification/email')
    expect(reply.status).toBe(401)
    expect(reply.body).toEqual({
      status: 401,
      message: expect.stringContaining('admin key'),
      errors: [{ path: '', code: 'UNKNOWN_KEY', message: expect.stringContaining('admin key') }],
    })
  })

  it('accepts the notification admin key', async () => {
    expect((await clients.notify.get('/notification/email')).status).not.toBe(401)
  })
})

describe('GET /api/v1/health-check', () => {
  it('answers an uptime probe without credentials with the status only', async () => {
    const reply = await clients.anonymous.get('/api/v1/health-check')
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({ healthy: true, status: 'UP', execTime: expect.stringMatching(/ms$/) })
  })

  it('still refuses a wrong signature', async () => {
    const headers = signAreaA(
      { apiKey: DEV.clients.si.apiKey, secret: 'wrong' },
      { method: 'GET', target: '/api/v1/health-check' },
    )
    expect((await get(headers, '/api/v1/health-check')).status).toBe(401)
  })
  // What each kind of caller sees of the components is tested in test/http/health/endpoints.test.ts.
})
