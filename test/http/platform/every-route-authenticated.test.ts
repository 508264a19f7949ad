import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { routes } from '#lib/service/routes.ts'
import { send, startApi, type TestApi } from '../../support/api.ts'

let api: TestApi
beforeAll(async () => {
  api = await startApi()
})
afterAll(() => api?.close())

/** A concrete path for a route: path parameters get a plausible value. */
const concrete = (path: string) =>
  path.replace('{irn}', 'INV001-94ND90NR-20261121').replace('{templateId}', '1')

// Public by design, and only these: the JWKS, the OpenAPI document, the docs page rendered from it and
// (anonymous detail only) the health check.
const PUBLIC = [
  'GET /api/v1/resource/public-keys',
  'GET /api/openapi.json',
  'GET /api/docs',
  // The receipt's verification page, which a customer's phone opens from the printed QR (CONTRACT 23).
  'GET /verify/r/{device_id}/{counter}',
].sort()
// The health check, at the seed's path and the authority's probe (CONTRACT 17); the authority's
// self-health-check is its signed form.
const ANONYMOUS_ALLOWED = ['GET /api/v1/health-check', 'GET /api']

describe('every route in the route table', () => {
  it('names exactly the expected public routes', () => {
    expect(
      routes
        .filter((r) => r.auth === 'none')
        .map((r) => `${r.method} ${r.path}`)
        .sort(),
    ).toEqual(PUBLIC)
    expect(routes.filter((r) => r.allowAnonymous).map((r) => `${r.method} ${r.path}`)).toEqual(
      ANONYMOUS_ALLOWED,
    )
  })

  const guarded = routes.filter((r) => r.auth !== 'none' && !r.allowAnonymous)
  it.each(guarded.map((r) => [`${r.method} ${r.path}`, r] as const))(
    '%s refuses a request without credentials',
    async (_, route) => {
      const hasBody = route.method !== 'GET'
      const reply = await send(`${api.url}${concrete(route.path)}`, {
        method: route.method,
        headers: hasBody ? { 'content-type': 'application/json' } : {},
        body: hasBody ? '{}' : undefined,
      })
      expect(reply.status).toBe(401)
      // The refusal is in the area's own record.
      // The authority's paths refuse in its record (CONTRACT 17), the seed's in FirsErrorDetails.
      if (route.area === 'A' && route.profile === 'authority')
        expect(reply.body).toMatchObject({ code: 401, data: null })
      else if (route.area === 'A') expect(JSON.stringify(reply.body)).toContain('401 UNAUTHORIZED')
      if (route.area === 'B') expect(reply.body.responseCode).toBe('94')
      if (route.area === 'C') expect(reply.body.responseCode).toBe('63')
      if (route.area === 'D') expect(reply.body.status).toBe(401)
    },
  )
})
