import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiClient } from '#client/api-client.ts'
import { signAreaA } from '#client/signing.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { cliOutput, runCli } from '../../support/cli.ts'
import { DEV } from '../../support/clients.ts'

// The CLI revokes from another process, so this server sees it within its credential cache bound
// (lib/platform/cache/records.ts); a short bound keeps the test quick.
const CACHE_SECONDS = 1
process.env.CREDENTIAL_CACHE_SECONDS = String(CACHE_SECONDS)

let api: TestApi
beforeAll(async () => {
  api = await startApi()
})
afterAll(() => api?.close())

/** Runs `npm run cli -- ...` as a person would, against this file's table in DynamoDB Local. */
const cli = (...args: string[]) => cliOutput(api, ...args)
const json = (out: string) => JSON.parse(out.slice(out.indexOf('{'), out.lastIndexOf('}') + 1))

describe('credentials CLI', () => {
  it('registers a business and issues a key whose signed requests the API accepts', async () => {
    const business = json(await cli('business', 'create', '--name', 'CLI Test Ltd', '--tin', '55555555-0001'))
    expect(business).toEqual({
      business_id: expect.any(String),
      service_id: expect.stringMatching(/^[A-Z0-9]{8}$/),
      tin: '55555555-0001',
      certificate: expect.any(String),
    })
    const issued = json(await cli('client', 'issue', '--business', business.business_id, '--roles', 'SI,APP'))
    const client = new ApiClient(api.url, {
      area: 'A',
      credentials: { apiKey: issued.api_key, secret: issued.api_secret },
    })
    expect((await client.get('/api/v1/resource/states')).status).toBe(200)

    const listing = await cli('credentials', 'list', '--kind', 'api-client')
    expect(listing).not.toContain(issued.api_secret)
    expect(listing).not.toContain(issued.api_key)
    expect(listing).toContain(issued.api_key.slice(0, 4))

    await cli('client', 'revoke', '--key', issued.api_key)
    await new Promise((resolve) => setTimeout(resolve, CACHE_SECONDS * 1000 + 100))
    expect((await client.get('/api/v1/resource/states')).status).toBe(401)
  }, 60_000)

  it('issues test-mode credentials with --mode test, which the API answers in test mode, and lists modes', async () => {
    const client = json(
      await cli('client', 'issue', '--business', DEV.supplier.businessId, '--roles', 'SI', '--mode', 'test'),
    )
    expect(client).toMatchObject({ api_key: expect.stringMatching(/^ak_test_/), mode: 'test' })
    const areaA = new ApiClient(api.url, {
      area: 'A',
      credentials: { apiKey: client.api_key, secret: client.api_secret },
    })
    const states = await areaA.get('/api/v1/resource/states')
    expect([states.status, states.headers.get('x-environment')]).toEqual([200, 'test'])

    const sw = json(await cli('switch', 'issue', '--name', 'CLI test switch', '--mode', 'test'))
    expect(sw).toMatchObject({ bearer_token: expect.stringMatching(/^swt_test_/), mode: 'test' })
    const areaB = new ApiClient(api.url, {
      area: 'B',
      credentials: { token: sw.bearer_token, secret: sw.hmac_secret },
    })
    const balance = await areaB.post('/api/v1/transactions/balance-enquiry', {
      requestId: `CLI-MODE-${Date.now()}`,
      stan: '000001',
      processingCode: '310000',
      accountNumber: '0123456789',
    })
    expect(balance.status).not.toBe(401)
    expect(balance.headers.get('x-environment')).toBe('test')

    // A merchant is added before its token is issued (merchant issue refuses an unknown one).
    await cli('merchant', 'add', '--id', 'MRC0003', '--name', 'Corner Shop')
    const merchant = json(await cli('merchant', 'issue', '--merchant', 'MRC0003', '--mode', 'test'))
    expect(merchant).toMatchObject({ bearer_token: expect.stringMatching(/^mt_test_/), mode: 'test' })
    const areaC = new ApiClient(api.url, {
      area: 'bearer',
      token: merchant.bearer_token,
      headers: { 'x-merchant-id': 'MRC0003' },
    })
    const history = await areaC.get('/api/v1/merchant/transactions?page=1&size=5')
    expect([history.status, history.headers.get('x-environment')]).toEqual([200, 'test'])

    // Without --mode a credential is live, as before the sandbox.
    const live = json(await cli('client', 'issue', '--business', DEV.supplier.businessId, '--roles', 'APP'))
    expect(live.mode).toBe('live')

    const rows = (await cli('credentials', 'list', '--kind', 'api-client'))
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line))
    // The development keys' test twins (test-si-key...) and the live ones (dev-si-key...), as
    // fingerprints: never the key, yet each one apart.
    const twins = rows.filter((r) => r.apiKey.startsWith('key:test:'))
    expect(twins.map((r) => r.mode)).toEqual(['test', 'test', 'test'])
    expect(new Set(twins.map((r) => r.apiKey)).size).toBe(3)
    expect(new Set(rows.filter((r) => r.apiKey.startsWith('key:dev-:')).map((r) => r.mode))).toEqual(
      new Set(['live']),
    )
    expect(rows.map((r) => r.apiKey).join()).not.toContain('dev-si-key')
    expect(rows.every((r) => r.mode === 'live' || r.mode === 'test')).toBe(true)
    const switches = await cli('credentials', 'list', '--kind', 'switch')
    expect(switches).toContain('"mode":"test"')
    expect(switches).toContain('"mode":"live"')
  }, 90_000)

  it('refuses a --mode that is neither live nor test, saying so', async () => {
    const out = await runCli(api, 'merchant', 'issue', '--merchant', 'MRC0003', '--mode', 'sandbox')
    expect(out.code).toBe(2)
    expect(out.stderr).toContain('--mode takes live or test (got sandbox)')
  }, 30_000)

  it('registers a business under a 13-digit Tax ID, and refuses a TIN of no accepted form, naming the forms', async () => {
    const business = json(await cli('business', 'create', '--name', 'Tax ID Ltd', '--tin', '2026051300001'))
    expect(business.tin).toBe('2026051300001')
    for (const tin of ['123456789012', '12345678901234']) {
      const out = await runCli(api, 'business', 'create', '--name', 'No Form Ltd', '--tin', tin)
      expect(out.code).toBe(2)
      expect(out.stderr).toContain(
        `--tin must be a TIN of the form NNNNNNNN-NNNN (e.g. 12345678-0001), the 13-digit Tax ID (e.g. 1234567890123) or TIN- and digits (e.g. TIN-0099990001) (got ${tin})`,
      )
    }
  }, 60_000)

  it('refuses a second business with the same TIN, saying why', async () => {
    await expect(cli('business', 'create', '--name', 'Dup', '--tin', '12345678-0001')).rejects.toMatchObject({
      stderr: expect.stringContaining('TIN is already registered'),
    })
  }, 30_000)

  /** `sign --area A` for GET /api/v1/resource/states, its printed curl -H arguments as headers. */
  async function signedHeaders(key: string, secret: string) {
    const out = await cli(
      'sign',
      '--area',
      'A',
      '--path',
      '/api/v1/resource/states',
      '--key',
      key,
      '--secret',
      secret,
    )
    return Object.fromEntries([...out.matchAll(/-H '([^:]+): ([^']+)'/g)].map((m) => [m[1]!, m[2]!]))
  }

  it('prints curl headers that the API accepts', async () => {
    const headers = await signedHeaders('dev-si-key', 'dev-si-secret')
    expect(Object.keys(headers).sort()).toEqual(['x-api-key', 'x-api-signature', 'x-api-timestamp'])
    const res = await fetch(`${api.url}/api/v1/resource/states`, { headers })
    expect(res.status).toBe(200)
  }, 30_000)

  it('takes a secret that starts with "-" as the value of --secret (one generated secret in 64 does)', async () => {
    const secret = '-Xb3_generated-secret'
    const headers = await signedHeaders('k', secret)
    const expected = signAreaA(
      { apiKey: 'k', secret },
      { method: 'GET', target: '/api/v1/resource/states', timestamp: headers['x-api-timestamp']! },
    )
    expect(headers['x-api-signature']).toBe(expected['x-api-signature'])
  }, 30_000)

  it('documents every command with --help', async () => {
    const list = await cli('help')
    for (const name of [
      'business create',
      'client issue',
      'client rotate',
      'switch issue',
      'merchant issue',
      'notify-admin issue',
      'credentials list',
      'reference load',
      'sign',
    ]) {
      expect(list).toContain(name)
      expect(await cli(...name.split(' '), '--help')).toContain(`${name}:`)
    }
  }, 60_000)
})
