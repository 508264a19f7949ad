import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REFERENCE_LISTS } from '#lib/service/routes.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { type DevClients, devClients } from '../../support/clients.ts'

const manifest = JSON.parse(
  readFileSync(new URL('../../../data/reference/manifest.json', import.meta.url), 'utf8'),
)
const rowsOf = (list: string): unknown[] =>
  JSON.parse(readFileSync(new URL(`../../../data/reference/${manifest[list].file}`, import.meta.url), 'utf8'))

let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(() => api?.close())

// One block per list's route, each under /api/v1 and /api/v2.
describe.each(REFERENCE_LISTS)('GET /api/{v}/resource/%s', (list) => {
  it.each(['v1', 'v2'])(
    'returns the whole list in the Envelope, as the authority publishes it, under %s',
    async (version) => {
      const reply: any = await clients.si.get(`/api/${version}/resource/${list}`)
      expect(reply.status).toBe(200)
      expect(reply.headers.get('content-type')).toBe('application/json')
      expect(reply.body).toEqual({
        status: 'SUCCESS',
        message: expect.stringContaining(list),
        data: rowsOf(list),
        execTime: expect.stringMatching(/^\d+ms$/),
        error: null,
      })
      expect(reply.headers.get('etag')).toMatch(/^"[\w-]{27}"$/)
      expect(new Date(reply.headers.get('last-modified')!).toISOString().slice(0, 10)).toBe(
        manifest[list].sourceDate,
      )
    },
  )
})

describe.each(['v1', 'v2'])('GET /api/%s/resource/currencies', (version) => {
  it('returns 304 with no body when If-None-Match carries the current ETag', async () => {
    const first = await clients.app.get(`/api/${version}/resource/currencies`)
    const again = await clients.app.get(`/api/${version}/resource/currencies`, {
      'if-none-match': first.headers.get('etag')!,
    })
    expect(again.status).toBe(304)
    expect(again.body).toBeUndefined()
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'))
  })
})

describe.each(['v1', 'v2'])('GET /api/%s/si/invoice-types', (version) => {
  it('lists the invoice types under /si/invoice-types too', async () => {
    const reply: any = await clients.si.get(`/api/${version}/si/invoice-types`)
    expect(reply.status).toBe(200)
    expect(reply.body.data).toEqual(rowsOf('invoice-types'))
    expect(reply.body.data).toContainEqual({ code: '380', value: 'Credit Note' })
  })
})

describe('reference content', () => {
  it('serves the 37 states including the FCT', async () => {
    const reply: any = await clients.si.get('/api/v1/resource/states')
    expect(reply.body.data).toHaveLength(37)
    expect(reply.body.data).toContainEqual({ code: 'NG-FC', name: 'FCT' })
  })

  it('marks the LGA list as partial, since only four of 774 LGAs are published', async () => {
    const reply: any = await clients.app.get('/api/v1/resource/lgas')
    expect(reply.body.data).toHaveLength(4)
    expect(reply.body.message).toContain('partial list')
  })

  it('serves all 5,612 product codes from chunked storage in their original order', async () => {
    const reply: any = await clients.admin.get('/api/v2/resource/product-codes')
    expect(reply.body.data).toHaveLength(5612)
    expect(reply.body.data[0]).toEqual({
      hscode: '0101.21',
      description: 'Horses; live, pure-bred breeding animals',
    })
    expect(reply.body.data.at(-1).hscode).toBe('9706.90')
  })
})

describe('GET /api/v1/resource/public-keys', () => {
  // The seed publishes each mode's key: the JWKS lists it before anything is signed
  // (test/http/sandbox/test-artefacts.test.ts holds both modes to it).
  it('publishes the Ed25519 verification keys as a JWKS, without credentials', async () => {
    const reply = await clients.anonymous.get<any>('/api/v1/resource/public-keys')
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({
      keys: [
        {
          kty: 'OKP',
          crv: 'Ed25519',
          x: expect.stringMatching(/^[\w-]{43}$/),
          kid: expect.stringMatching(/^[\w-]{43}$/),
          use: 'sig',
          alg: 'EdDSA',
        },
      ],
    })
    // The kid is the RFC 7638 thumbprint: anyone can recompute it from the key.
    const [jwk] = reply.body.keys
    const thumbprint = createHash('sha256')
      .update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x }))
      .digest('base64url')
    expect(jwk.kid).toBe(thumbprint)
  })
})
