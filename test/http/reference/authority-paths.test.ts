import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REFERENCE_LISTS } from '#lib/service/routes.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { type DevClients, devClients, type TestModeClients, testModeClients } from '../../support/clients.ts'

/**
 * The reference lists at the authority's paths (CONTRACT 17): /api/v1/invoice/resources/<name>, the
 * same lists as the seed's /resource/<name>, with the authority's names for two of them.
 */

let api: TestApi
let live: DevClients
let sandbox: TestModeClients
beforeAll(async () => {
  api = await startApi()
  live = devClients(api.url)
  sandbox = testModeClients(api.url)
})
afterAll(() => api?.close())

// The product codes answer under both the documentation's name and the one its clients use (CONTRACT 25).
const AUTHORITY_NAMES: Record<string, string[]> = {
  'service-codes': ['services-codes'],
  'product-codes': ['hs-codes', 'product-codes'],
}
const lists = REFERENCE_LISTS.flatMap((list) =>
  (AUTHORITY_NAMES[list] ?? [list]).map((name) => [name, list] as const),
)

describe.each(lists)('GET /api/v1/invoice/resources/%s', (name, list) => {
  it(`is the seed's ${list} list, with code 200, for live and test keys alike`, async () => {
    const seed = await live.si.get<any>(`/api/v1/resource/${list}`)
    const authority = await live.app.get<any>(`/api/v1/invoice/resources/${name}`)
    expect(authority.status).toBe(200)
    expect(authority.body.code).toBe(200)
    expect(authority.body.data).toEqual(seed.body.data)
    const test = await sandbox.app.get<any>(`/api/v1/invoice/resources/${name}`)
    expect(test.headers.get('x-environment')).toBe('test')
    expect(test.body.data).toEqual(seed.body.data)
  })
})

describe('GET /api/v1/invoice/resources: a list it does not have', () => {
  it('is 404 naming the nearest served path', async () => {
    const reply = await live.app.get<any>('/api/v1/invoice/resources/service-code')
    expect(reply.status).toBe(404)
    expect(reply.body.message).toMatch(/nearest served path is GET \/api\/v1\/invoice\/resources\//)
  })
})
