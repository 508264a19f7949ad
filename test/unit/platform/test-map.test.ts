import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { declarationOf, routes } from '#lib/service/routes.ts'

/**
 * The HTTP tests are laid out like lib/: test/http/<domain>/ holds the tests of that domain's
 * endpoints, test/http/platform/ what crosses domains. A newcomer looking for the tests of a route
 * opens its domain's folder and finds a `describe('METHOD /path')` there; this check keeps that true
 * for every route in the route table, so a new endpoint cannot land without its block in the right
 * place, nor a block drift to another folder or lose the route's exact name.
 *
 * The domain is the one the endpoint's declaration gives (`domain` in lib/service/endpoints/*.ts,
 * also its folder in functions/). Three declared domains have no lib/ folder of that name; their tests
 * live in the folder of the lib/ code that serves them (FOLDER_OF_DOMAIN).
 *
 * A block names a route by its method and path, followed by nothing, a space or a colon
 * (`GET /api/v1/merchant/transactions: bad query values`). A route served under /api/v1 and /api/v2
 * may be named once as /api/{v}/... Skipped and todo blocks do not count: they test nothing.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url))

/** Declared domains whose lib/ code lives in a folder of another name. */
const FOLDER_OF_DOMAIN: Record<string, string> = {
  // The self-service keys are the business registry's (lib/registry/self-service-keys.ts).
  'api-keys': 'registry',
  // The search is the invoice's own index (lib/invoice/search.ts).
  'invoice-search': 'invoice',
  // The OpenAPI document and the docs page describe every domain: they are tested with what crosses domains.
  meta: 'platform',
}

const testFolderOf = (domain: string): string => FOLDER_OF_DOMAIN[domain] ?? domain

/** The titles of the describe blocks (any depth) in the test files under `folder`. */
function describeTitles(folder: string): string[] {
  if (!existsSync(folder)) return []
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.ts'))
    .flatMap((name) => {
      const source = readFileSync(join(folder, name), 'utf8')
      // describe.skip and describe.todo test nothing, so they name no route.
      return [
        ...source.matchAll(
          /\bdescribe(?:\.(?:only|concurrent|sequential|skipIf\([^)]*\)|runIf\([^)]*\)|each\([^)]*\)))*\(\s*(['"`])(.+?)\1/g,
        ),
      ].map((match) => match[2]!)
    })
}

/**
 * Whether a block's title names the route. A title starts with one or more `METHOD /path`, joined by
 * ", " or " and " (a block whose tests walk several routes names each of them), and may go on after a
 * space or a colon: `GET /api/v1/keys` does not name `/api/v1/keysets`. In a path, /api/{v}/ stands
 * for /api/v1/ and /api/v2/ (one declaration serves both), and a placeholder (describe.each's %s, a
 * template's ${...}) for one path segment.
 */
function names(title: string, method: string, path: string): boolean {
  const head = /^(?:[A-Z]+ \/[^\s:,]*(?:, | and |$|(?=[\s:])))+/.exec(title)?.[0] ?? ''
  return [...head.matchAll(/([A-Z]+) (\/[^\s:,]*)/g)].some(([, m, p]) => {
    if (m !== method) return false
    const pattern = p!
      .split(/(\{v\}|%[sdifjo]|\$\{[^}]*\})/)
      .map((part, i) =>
        i % 2 === 0 ? part.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&') : part === '{v}' ? 'v[12]' : '[^/]+',
      )
      .join('')
    return new RegExp(`^${pattern}$`).test(path)
  })
}

/** `METHOD /path (functions/<domain>)` of every route without a block in its domain's test folder. */
function routesWithoutDescribe(
  table: readonly { method: string; path: string; domain: string }[],
  httpTests: string,
): string[] {
  const titles = new Map<string, string[]>()
  const titlesIn = (folder: string) => {
    if (!titles.has(folder)) titles.set(folder, describeTitles(join(httpTests, folder)))
    return titles.get(folder)!
  }
  return table
    .filter(({ method, path, domain }) => {
      const inFolder = titlesIn(testFolderOf(domain))
      return !inFolder.some((title) => names(title, method, path))
    })
    .map(({ method, path, domain }) => `${method} ${path} (test/http/${testFolderOf(domain)}/)`)
}

describe('the HTTP tests on the map of lib/', () => {
  const table = routes.map((r) => ({
    method: r.method,
    path: r.path,
    domain: declarationOf(r.functionId)!.domain,
  }))

  it('has a describe("METHOD /path") for every route in the folder of its domain', () => {
    expect(routesWithoutDescribe(table, join(root, 'test/http'))).toEqual([])
  })

  it('has a folder under lib/ for every test folder of a domain', () => {
    const folders = readdirSync(join(root, 'test/http'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
    expect(folders.filter((folder) => !existsSync(join(root, 'lib', folder)))).toEqual([])
  })

  describe('on a planted tree', () => {
    const tree = mkdtempSync(join(tmpdir(), 'test-map-'))
    afterAll(() => rmSync(tree, { recursive: true, force: true }))
    const plant = (file: string, source: string) => {
      mkdirSync(join(tree, file, '..'), { recursive: true })
      writeFileSync(join(tree, file), source)
    }
    plant('ledger/endpoints.test.ts', "describe('POST /api/v1/transactions/transfer', () => {})\n")
    plant('invoice/search.test.ts', "describe('GET /api/{v}/invoices: paging', () => {})\n")
    plant('platform/auth.test.ts', "describe('POST /api/v1/transactions/reversal', () => {})\n")
    plant('ledger/skipped.test.ts', "describe.skip('POST /api/v1/transactions/balance-enquiry', () => {})\n")
    plant('registry/keys.test.ts', "describe('GET /api/v1/keysets', () => {})\n")
    plant(
      'webhooks/endpoints.test.ts',
      "describe('POST /api/v1/webhooks, GET /api/v1/webhooks and DELETE /api/v1/webhooks/{id}', () => {})\n",
    )
    plant(
      'qr/endpoints.test.ts',
      "describe.each(['v1', 'v2'])('POST /api/%s/si/generate-qr-code', () => {})\n",
    )
    const planted = [
      { method: 'POST', path: '/api/v1/transactions/transfer', domain: 'ledger' },
      { method: 'GET', path: '/api/v2/invoices', domain: 'invoice-search' },
      { method: 'POST', path: '/api/v1/transactions/reversal', domain: 'ledger' },
      { method: 'POST', path: '/api/v1/transactions/balance-enquiry', domain: 'ledger' },
      { method: 'GET', path: '/api/v1/keys', domain: 'api-keys' },
      { method: 'GET', path: '/api/v1/transactions/transfer', domain: 'ledger' },
      { method: 'DELETE', path: '/api/v1/webhooks/{id}', domain: 'webhooks' },
      { method: 'GET', path: '/api/v1/webhooks/{id}/deliveries', domain: 'webhooks' },
      { method: 'POST', path: '/api/v2/si/generate-qr-code', domain: 'qr' },
    ]

    it('names each route whose block is missing, in another folder, skipped, of another method or a longer path', () => {
      expect(routesWithoutDescribe(planted, tree)).toEqual([
        'POST /api/v1/transactions/reversal (test/http/ledger/)',
        'POST /api/v1/transactions/balance-enquiry (test/http/ledger/)',
        'GET /api/v1/keys (test/http/registry/)',
        'GET /api/v1/transactions/transfer (test/http/ledger/)',
        'GET /api/v1/webhooks/{id}/deliveries (test/http/webhooks/)',
      ])
    })
  })
})
