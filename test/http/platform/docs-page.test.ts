import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BrowserContext, chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { send, startApi, type TestApi } from '../../support/api.ts'
import { testBrowser } from '../../support/chromium.ts'
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
})
