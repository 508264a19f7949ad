import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BrowserContext, chromium } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { receiptVerifyUrl } from '#client/receipts/verify-url.ts'
import { send, startApi, type TestApi } from '../../support/api.ts'
import { testBrowser } from '../../support/chromium.ts'
import { type DevClients, devClients, type TestModeClients, testModeClients } from '../../support/clients.ts'
import { hashOf, type Receipt, registerTill } from '../../support/receipts.ts'

/**
 * CONTRACT 23: the page a receipt's QR opens (GET /verify/r/{device_id}/{counter}), public, and
 * verify-qr's JSON answer for the same URL. The browser is the docs page test's headless Chromium.
 */

let api: TestApi
let live: DevClients
let test: TestModeClients
let context: BrowserContext
let profile: string

beforeAll(async () => {
  api = await startApi()
  live = devClients(api.url)
  test = testModeClients(api.url)
}, 120_000)
afterAll(async () => {
  await context?.close()
  if (profile) rmSync(profile, { recursive: true, force: true })
  await api?.close()
})

const urlOf = (receipt: Receipt, change: Partial<{ signature: string; irn: string; hash: string }> = {}) =>
  receiptVerifyUrl(api.url, {
    irn: receipt.irn,
    hash: hashOf(receipt),
    device_id: receipt.device.device_id,
    counter: receipt.device.counter,
    signature: receipt.signature,
    ...change,
  })

const reported = async (receipts: Receipt[], client = live.si) => {
  const reply = await client.post<any>('/api/v1/receipts', { receipts })
  expect(reply.status).toBe(200)
  for (const result of reply.body.data) expect(result.status).toBe('REPORTED')
}

/** The page's text without its markup, for the assertions. */
const textOf = (html: string) => html.replace(/<style>.*<\/style>/s, '').replace(/<[^>]+>/g, ' ')

/** A forged signature of the right shape: 86 base64url characters that are not the device's. */
const forged = (signature: string) => `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`

describe('GET /verify/r/{device_id}/{counter}', () => {
  it('says genuine and reported for a reported receipt, as small script-free HTML with charset and viewport, without credentials', async () => {
    const { till } = await registerTill(live.admin)
    const receipt = till.next()
    await reported([receipt])
    const reply = await send(urlOf(receipt))
    expect(reply.status).toBe(200)
    expect(reply.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(reply.headers.get('content-security-policy')).toContain("default-src 'none'")
    expect(reply.text).toContain('<meta charset="utf-8">')
    expect(reply.text).toContain('name="viewport"')
    expect(reply.text).not.toMatch(/<script/i)
    expect(reply.text.length).toBeLessThan(4096)
    const text = textOf(reply.text)
    expect(text).toContain('Genuine receipt')
    expect(text).toMatch(/Reported\s+on /)
    expect(text).toContain('Active (registered)')
    expect(text).toContain(receipt.irn)
    // Nothing the printed receipt does not show: no business, no amounts, no TEST mark when live.
    expect(text).not.toMatch(/business|TIN|NGN|payable|TEST/i)
  })

  it('reads "Genuine receipt" and "Reported" in a headless browser', { timeout: 120_000 }, async () => {
    const browser = await testBrowser()
    profile = mkdtempSync(join(tmpdir(), 'verify-chromium-'))
    context = await chromium.launchPersistentContext(profile, {
      executablePath: browser.executablePath,
      env: { ...process.env, ...browser.env },
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync'],
    })
    const { till } = await registerTill(live.admin, 'P-256')
    const receipt = till.next()
    await reported([receipt])
    const page = await context.newPage()
    await page.setViewportSize({ width: 320, height: 640 })
    await page.goto(urlOf(receipt), { waitUntil: 'load' })
    expect(await page.textContent('h1')).toBe('Genuine receipt')
    expect(await page.textContent('body')).toMatch(/Reported on /)
    // It fits a small phone's width: nothing wider than the screen.
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(320)
  })

  it('says not genuine for a forged signature or another IRN, and shows nothing of the stored receipt', async () => {
    const { till } = await registerTill(live.admin)
    const receipt = till.next()
    await reported([receipt])
    for (const url of [
      urlOf(receipt, { signature: forged(receipt.signature) }),
      urlOf(receipt, { irn: 'INV999-ABCD1234-20250101' }),
    ]) {
      const reply = await send(url)
      expect(reply.status).toBe(200)
      const text = textOf(reply.text)
      expect(text).toContain('Not genuine')
      expect(text).not.toMatch(/Reported\s+on|Issued/)
    }
  })

  it('says not genuine (404) for a device no one registered', async () => {
    const { till } = await registerTill(live.admin)
    const receipt = till.next()
    const unknown = urlOf(receipt).replace(receipt.device.device_id, `dev_${'0'.repeat(32)}`)
    const reply = await send(unknown)
    expect(reply.status).toBe(404)
    expect(textOf(reply.text)).toContain('No registered device has this id')
  })

  it("says a revoked device's receipt signed before the revocation is genuine, signed while active, and an unreported one names the revocation", async () => {
    const { till } = await registerTill(live.admin)
    const before = till.next()
    await reported([before])
    expect((await live.admin.request<any>('DELETE', `/api/v1/devices/${till.deviceId}`)).status).toBe(200)
    const kept = textOf((await send(urlOf(before))).text)
    expect(kept).toContain('Genuine receipt')
    expect(kept).toMatch(/Device when it signed\s+Active/)
    const after = till.next()
    const unreported = textOf((await send(urlOf(after))).text)
    expect(unreported).toContain('Not reported yet')
    expect(unreported).toMatch(/Revoked on /)
  })

  it('says not reported yet, and why the signature waits, before the receipt is reported; reported once it is', async () => {
    const { till } = await registerTill(live.admin)
    const receipt = till.next()
    const waiting = textOf((await send(urlOf(receipt))).text)
    expect(waiting).toContain('Not reported yet')
    expect(waiting).toContain('24 hours')
    await reported([receipt])
    expect(textOf((await send(urlOf(receipt))).text)).toContain('Genuine receipt')
  })

  it('says a different receipt holds the counter when the QR names another hash there', async () => {
    const { till } = await registerTill(live.admin)
    const receipt = till.next()
    await reported([receipt])
    const other = till.next({ device: { counter: 1 }, advance: false })
    expect(textOf((await send(urlOf(other))).text)).toContain('Does not match')
  })

  it('marks a test-mode receipt TEST, found without credentials (the device carries its mode)', async () => {
    const { till } = await registerTill(test.admin)
    const receipt = till.next()
    await reported([receipt], test.si)
    const text = textOf((await send(urlOf(receipt))).text)
    expect(text).toContain('TEST - NOT A TAX RECEIPT')
    expect(text).toContain('Genuine receipt')
  })

  it('answers a link that is not a receipt code with a 400 page, never an error record', async () => {
    for (const path of [
      '/verify/r/dev_x/1',
      '/verify/r/dev_x/0?h=a&s=b&i=c',
      '/verify/r/dev_x/abc?h=&s=&i=',
    ]) {
      const reply = await send(`${api.url}${path}`)
      expect(reply.status).toBe(400)
      expect(textOf(reply.text)).toContain('Not a receipt code')
    }
  })
})

describe('POST /api/v1/resource/verify-qr', () => {
  it("answers a receipt's URL as the page does, as JSON, in the caller's mode only", async () => {
    const { till } = await registerTill(test.admin)
    const receipt = till.next()
    await reported([receipt], test.si)
    const asTest = await test.app.post<any>('/api/v1/resource/verify-qr', { qr: urlOf(receipt) })
    expect(asTest.status).toBe(200)
    expect(asTest.body.data).toMatchObject({
      kind: 'receipt',
      verdict: 'GENUINE',
      mode: 'test',
      irn: receipt.irn,
      counter: 1,
      device: { status: 'ACTIVE', status_at_issue: 'ACTIVE' },
      late: false,
      report_status: 'REPORTED',
    })
    expect(asTest.body.data.reported_at).toEqual(expect.any(String))
    // A live key does not know a test device.
    expect((await live.app.post<any>('/api/v1/resource/verify-qr', { qr: urlOf(receipt) })).status).toBe(404)
    const forgedReply = await test.app.post<any>('/api/v1/resource/verify-qr', {
      qr: urlOf(receipt, { signature: forged(receipt.signature) }),
    })
    expect(forgedReply.body.data.verdict).toBe('NOT_GENUINE')
    expect(forgedReply.body.data.reported_at).toBeUndefined()
  })
})
