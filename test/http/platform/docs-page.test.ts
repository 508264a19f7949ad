import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BrowserContext, chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { send, startApi, type TestApi } from '../../support/api.ts'
import { testBrowser } from '../../support/chromium.ts'
import { CATALOGUE } from '#lib/service/error-catalogue.ts'
import { document } from '../../support/contract.ts'

/**
 * GET /api/docs in a real browser: the headless Chromium `npm ci` brings (test/support/chromium.ts),
 * or CHROMIUM_PATH's. The page must render every operation of the document from the API's own bytes:
 * any request to another host fails the test.
 */

let api: TestApi
let context: BrowserContext
let profile: string
const elsewhere: string[] = []

beforeAll(async () => {
  const browser = await testBrowser()
  api = await startApi()
  profile = mkdtempSync(join(tmpdir(), 'docs-chromium-'))
  context = await chromium.launchPersistentContext(profile, {
    executablePath: browser.executablePath,
    env: { ...process.env, ...browser.env },
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  })
  const origin = new URL(api.url).origin
  await context.route('**/*', (route) => {
    const url = route.request().url()
    if (url.startsWith(origin) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue()
    elsewhere.push(url)
    return route.abort()
  })
}, 120_000)

afterAll(async () => {
  await context?.close()
  if (profile) rmSync(profile, { recursive: true, force: true })
  await api?.close()
})

describe('GET /api/docs', () => {
  it('is public HTML, with a policy that lets it load nothing from anywhere else', async () => {
    const reply = await send(`${api.url}/api/docs`)
    expect(reply.status).toBe(200)
    expect(reply.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(reply.headers.get('content-security-policy')).toContain("default-src 'none'")
    expect(reply.text.startsWith('<!doctype html>'), 'an HTML page').toBe(true)
  })

  it('renders every operation and event of the document in a headless browser', {
    timeout: 120_000,
  }, async () => {
    const page = await context.newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    await page.goto(`${api.url}/api/docs`, { waitUntil: 'load' })
    // The endpoints, and the events the service POSTs to subscribers (the document's `webhooks`).
    const operationIds = [document.paths, document.webhooks].flatMap((operations) =>
      Object.values<any>(operations).flatMap((methods) =>
        Object.values<any>(methods).map((operation) => operation.operationId as string),
      ),
    )
    await page.waitForSelector(`[data-section-id="operation/${operationIds[0]}"]`, { timeout: 60_000 })
    const rendered = await page.$$eval('[data-section-id^="operation/"]', (elements) =>
      elements.map((e) => e.getAttribute('data-section-id')!.slice('operation/'.length)),
    )
    expect(new Set(rendered)).toEqual(new Set(operationIds))
    expect(await page.title()).toBe(document.info.title)
    expect(errors).toEqual([])
    expect(elsewhere).toEqual([])
  })

  it("opens with Authentication and Errors, before any operation, as Stripe's reference does", {
    timeout: 120_000,
  }, async () => {
    const page = await context.newPage()
    await page.goto(`${api.url}/api/docs`, { waitUntil: 'load' })
    await page.waitForSelector('[data-section-id="section/Authentication"]', { timeout: 60_000 })
    // The navigation: the two sections first, then the operations.
    const items = await page.$$eval('li[data-item-id]', (elements) =>
      elements.map((e) => e.getAttribute('data-item-id')!),
    )
    const top = items.filter((id) => /^section\/[^/]+$/.test(id) || id.startsWith('operation/'))
    expect(top.slice(0, 2)).toEqual(['section/Authentication', 'section/Errors'])
    // A section's text with its subsections' (Redoc renders each heading as a section of its own).
    const text = (id: string) =>
      page.$$eval(`[data-section-id^="${id}"]`, (elements) =>
        elements.map((e) => (e as unknown as { innerText: string }).innerText).join('\n'),
      )
    // How to sign, with the worked request in curl and with the client package.
    const authentication = await text('section/Authentication')
    expect(authentication).toContain('x-api-signature')
    expect(authentication).toContain('+JfaeJ+OtIIBOCIRM9b3qeFlTro1N4xDNZ4aaXURrXI=')
    expect(authentication).toContain('curl -s -X POST')
    expect(authentication).toContain("from '@ng-einvoicing/client'")
    // The whole catalogue, every code of every section.
    const errors = await text('section/Errors')
    for (const entry of CATALOGUE) expect(errors, entry.code).toContain(entry.code)
    await page.close()
  })
})

describe("the Authentication section's curl example", () => {
  // Async: the test's API runs in this process, so a synchronous spawn would leave curl unanswered.
  it('is a signed request the service accepts, pasted as written', async () => {
    const description = document.info.description as string
    const block = /```sh\n([\s\S]*?)```/.exec(description.slice(description.indexOf('# Authentication')))![1]!
    const script = `set -eo pipefail\n${block.replaceAll('http://127.0.0.1:3000', api.url)}`
    const run = await promisify(execFile)('bash', ['-c', script], { encoding: 'utf8' })
    // The IRN's date is the day the service stamps it, not the vector's.
    expect(JSON.parse(run.stdout)).toMatchObject({
      code: 200,
      irn: expect.stringMatching(/^INV001-94ND90NR-\d{8}$/),
    })
  })
})
