import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { routeKey, routes } from '#lib/service/routes.ts'

/**
 * The spec's endpoint tables, parsed: every endpoint the published interface names must be in the
 * route table. docs/interface.md is the project's copy of the spec.
 */
const spec = readFileSync(new URL('../../../docs/interface.md', import.meta.url), 'utf8')

function specEndpoints(): string[] {
  const endpoints = new Set<string>()
  const section = spec.slice(spec.indexOf('## Endpoints'), spec.indexOf('## Authentication'))
  for (const match of section.matchAll(/^\|\s*(GET|POST|PUT|PATCH|DELETE)\s*\|\s*([^\s|]+)\s*\|/gm)) {
    const method = match[1]!
    const path = match[2]!
      .replace('{notification_base_url}', '')
      .replace(/\?.*$/, '')
      // Path parameter names are ours to choose; only their position matters.
      .replace(/\{(?!v\})[^}]+\}/g, '{}')
    const versions = path.includes('{v}') ? ['v1', 'v2'] : [undefined]
    for (const v of versions) endpoints.add(`${method} ${v ? path.replace('{v}', v) : path}`)
  }
  // Area C and the Area B sample are given in prose, not in a table.
  const merchant = /`GET \{merchant_base_url\}(\/api\/v1\/merchant\/transactions)`/.exec(spec)
  const transfer = /sample transfer path, `(\/api\/v1\/transactions\/transfer)`, with method POST/.exec(spec)
  expect(merchant, 'the spec still names the merchant path').not.toBeNull()
  expect(transfer, 'the spec still names the transfer path').not.toBeNull()
  endpoints.add(`GET ${merchant![1]}`)
  endpoints.add(`POST ${transfer![1]}`)
  return [...endpoints]
}

const ours = new Set(
  routes.map((r) => routeKey({ method: r.method, path: r.path.replace(/\{[^}]+\}/g, '{}') })),
)

describe('route table versus the spec', () => {
  const endpoints = specEndpoints()

  it('parses every endpoint of the spec (23 Area A x 2 versions + health, 6 Area D, C, B)', () => {
    expect(endpoints).toHaveLength(23 * 2 + 1 + 6 + 2)
    expect(endpoints).toContain('GET /api/v1/health-check')
    expect(endpoints).not.toContain('GET /api/v2/health-check')
  })

  it.each(endpoints)('serves %s', (endpoint) => {
    expect(ours.has(endpoint)).toBe(true)
  })

  it('has no two routes with the same method and path', () => {
    expect(new Set(routes.map(routeKey)).size).toBe(routes.length)
  })

  it('names a handler module that exists for every route', () => {
    for (const r of routes)
      expect(() => readFileSync(new URL(`../../../${r.handler}`, import.meta.url))).not.toThrow()
  })
})
