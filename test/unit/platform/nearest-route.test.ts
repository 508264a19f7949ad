import { describe, expect, it } from 'vitest'
import { nearestRoute, quotedPath } from '#lib/platform/http/nearest-route.ts'

const ROUTES: { method: 'GET' | 'POST'; path: string }[] = [
  { method: 'POST', path: '/api/v1/si/validate' },
  { method: 'POST', path: '/api/v1/app/invoice/sign' },
  { method: 'GET', path: '/api/v1/app/invoice/confirm/{irn}' },
  { method: 'GET', path: '/api/v1/invoices/{irn}/pdf' },
  { method: 'POST', path: '/api/v1/app/invoice/transmit' },
  { method: 'GET', path: '/api/v1/resource/countries' },
  { method: 'GET', path: '/api/v1/entity/{id}' },
  { method: 'POST', path: '/api/v1/utilities/verify-tin' },
]

describe('nearestRoute', () => {
  it.each([
    ['POST', '/api/v1/invoice/validate', 'POST /api/v1/si/validate'],
    ['POST', '/api/v1/invoice/sign', 'POST /api/v1/app/invoice/sign'],
    ['GET', '/api/v1/invoice/confirm/INV1-94ND90NR-20261121', 'GET /api/v1/app/invoice/confirm/{irn}'],
    // A literal segment beats a {param}, and the request's own method beats another.
    ['POST', '/api/v1/invoice/transmit/INV1-94ND90NR-20261121', 'POST /api/v1/app/invoice/transmit'],
    ['GET', '/api/v1/invoice/resources/countries', 'GET /api/v1/resource/countries'],
    // Another method's path spelled nearer beats one of the request's method with a segment changed.
    ['GET', '/api/v1/utilities/verify-tn', 'POST /api/v1/utilities/verify-tin'],
  ])('%s %s is nearest to %s', (method, path, expected) => {
    const near = nearestRoute(ROUTES, method, path)
    expect(`${near?.method} ${near?.path}`).toBe(expected)
  })

  it('answers nothing for an empty table', () => {
    expect(nearestRoute([], 'GET', '/api/v1/x')).toBeUndefined()
  })

  it('compares a path of any length in bounded time', () => {
    const started = performance.now()
    nearestRoute(ROUTES, 'GET', `/api/${'abcdefghij/'.repeat(100_000)}`)
    expect(performance.now() - started).toBeLessThan(500)
  })
})

describe('quotedPath', () => {
  it('quotes a short path whole and a long one cut at 100 characters', () => {
    expect(quotedPath('/api/v1/x')).toBe('/api/v1/x')
    expect(quotedPath(`/${'y'.repeat(500)}`)).toBe(`/${'y'.repeat(99)}...`)
  })
})
