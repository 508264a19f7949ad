import { inflateSync } from 'node:zlib'
import { createPublicKey, verify } from 'node:crypto'
import canonicalize from 'canonicalize'
import { PDFArray, PDFDocument, PDFName, type PDFRawStream } from 'pdf-lib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signAreaA } from '#client/signing.ts'
import { readableInvoiceOf } from '#lib/invoice/notes.ts'
import { invoiceQrText } from '#lib/documents/invoice-qr.ts'
import { issueApiClient, setWebhook } from '#lib/platform/auth/credentials.ts'
import { readInvoiceRecord } from '#lib/invoice/repository.ts'
import { inMode, type Mode } from '#lib/platform/mode.ts'
import { buildInvoice, invoiceOfLines } from '../../fixtures/invoices/build.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import {
  DEV,
  DEV_TEST,
  type DevClients,
  devClients,
  type TestModeClients,
  testModeClients,
} from '../../support/clients.ts'
import { checkReply } from '../../support/contract.ts'
import { shownStrings } from '../../support/pdf-read.ts'
import {
  type EventReceiver,
  eventually,
  startEventReceiver,
} from '../../support/standard-webhook-receiver.ts'
import { startWebhookReceiver, type WebhookReceiver } from '../../support-invoices/webhook-receiver.ts'

/**
 * CONTRACT 18's test-mode artefacts, through HTTP (docs/sandbox.md "What marks a test artefact"): a
 * test-mode invoice is signed with the test key and verifies only against the test JWKS, its QR opens
 * with the test authority key only, and its canonical JSON, events, PDF, UBL and verify-qr say
 * `test`. The first test runs on the fresh table, before anything is signed.
 */

let api: TestApi
let live: DevClients
let test: TestModeClients
const receivers: EventReceiver[] = []
beforeAll(async () => {
  api = await startApi({ workers: true })
  live = devClients(api.url)
  test = testModeClients(api.url)
})
afterAll(async () => {
  await api?.close()
  await Promise.all(receivers.map((r) => r.close()))
})

type Jwk = { kty: string; crv: string; x: string; kid: string; use: string; alg: string }
type Credentials = { apiKey: string; secret: string }

const jwks = async (query = ''): Promise<Jwk[]> => {
  const reply = await live.anonymous.get<any>(`/api/v1/resource/public-keys${query}`)
  expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  return reply.body.keys
}

/** An invoice signed over HTTP by the app key of `mode`, and its stored record (read in that mode). */
async function signedIn(mode: Mode, invoice: Record<string, any> = buildInvoice()) {
  const client = mode === 'test' ? test.app : live.app
  const reply = await client.post<any>('/api/v1/app/invoice/sign', invoice)
  expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  const record = (await inMode(mode, () => readInvoiceRecord(invoice.irn)))!
  return { irn: invoice.irn as string, record }
}

/** Whether any key of the set verifies the record's signature over its canonical JSON. */
async function verifiesWith(keys: Jwk[], record: Awaited<ReturnType<typeof signedIn>>['record']) {
  const bytes = Buffer.from(canonicalize(await readableInvoiceOf(record))!)
  return keys.some((jwk) =>
    verify(
      null,
      bytes,
      createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: 'jwk' }),
      Buffer.from(record.signature!, 'base64url'),
    ),
  )
}

/** A signed GET read as bytes (the project's client reads text), held to the OpenAPI document. */
async function getBytes(credentials: Credentials, target: string, accept: string) {
  const headers = { accept, ...signAreaA(credentials, { method: 'GET', target, body: '' }) }
  const url = new URL(target, api.url).href
  const res = await fetch(url, { headers })
  const bytes = new Uint8Array(await res.arrayBuffer())
  const text = Buffer.from(bytes).toString('utf8')
  const json = res.headers.get('content-type')?.startsWith('application/json')
  checkReply('GET', url, {
    status: res.status,
    headers: res.headers,
    body: json ? JSON.parse(text) : text,
    text,
  })
  return { status: res.status, bytes, text }
}

/** The text each page of a PDF shows, page by page. */
async function pagesShown(bytes: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false })
  return doc.getPages().map((page) => {
    const contents = page.node.Contents()!
    const streams =
      contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r)) : [contents]
    const content = Buffer.concat(
      streams.map((s) => {
        const raw = s as PDFRawStream
        return raw.dict.get(PDFName.of('Filter')) ? inflateSync(raw.contents) : raw.contents
      }),
    )
    return shownStrings(content).join('\n')
  })
}

describe('GET /api/v1/resource/public-keys', () => {
  it('lists the current key of each mode on a fresh table, before anything is signed', async () => {
    const [liveKeys, defaultKeys, testKeys] = [
      await jwks('?mode=live'),
      await jwks(),
      await jwks('?mode=test'),
    ]
    expect(liveKeys).toHaveLength(1)
    expect(defaultKeys).toEqual(liveKeys)
    expect(testKeys).toHaveLength(1)
    expect(testKeys[0]!.kid).not.toBe(liveKeys[0]!.kid)
    expect(testKeys[0]!.x).not.toBe(liveKeys[0]!.x)
  })

  it('answers 400 for a mode that is neither live nor test', async () => {
    const reply = await live.anonymous.get<any>('/api/v1/resource/public-keys?mode=sandbox')
    expect(reply.status).toBe(400)
    expect(reply.body.errors).toEqual([
      expect.objectContaining({
        path: 'query/mode',
        message: expect.stringMatching(/mode must be "live" or "test"/),
      }),
    ])
  })
})

describe('POST /api/v1/app/invoice/sign in test mode', () => {
  it('signs with the test key: the signature verifies against the test JWKS and not the live one, and the reverse', async () => {
    const [liveKeys, testKeys] = [await jwks(), await jwks('?mode=test')]
    const sandbox = await signedIn('test')
    expect(testKeys.map((k) => k.kid)).toContain(sandbox.record.signingKeyId)
    expect(liveKeys.map((k) => k.kid)).not.toContain(sandbox.record.signingKeyId)
    expect(await verifiesWith(testKeys, sandbox.record)).toBe(true)
    expect(await verifiesWith(liveKeys, sandbox.record)).toBe(false)

    const real = await signedIn('live')
    expect(liveKeys.map((k) => k.kid)).toContain(real.record.signingKeyId)
    expect(await verifiesWith(liveKeys, real.record)).toBe(true)
    expect(await verifiesWith(testKeys, real.record)).toBe(false)
    // Signing published nothing new: the keys were there from the start.
    expect(await jwks()).toEqual(liveKeys)
    expect(await jwks('?mode=test')).toEqual(testKeys)
  })

  it('puts "mode": "test" in the canonical JSON that is signed, and nothing in a live one', async () => {
    const sandbox = await signedIn('test')
    const canonical = canonicalize(await readableInvoiceOf(sandbox.record))!
    expect(JSON.parse(canonical).mode).toBe('test')
    const pulled = await test.si.get<any>(`/api/v1/si/get-invoice/${sandbox.irn}`)
    expect(pulled.body.data.mode).toBe('test')

    const real = await signedIn('live')
    expect(JSON.parse(canonicalize(await readableInvoiceOf(real.record))!)).not.toHaveProperty('mode')
    expect((await live.si.get<any>(`/api/v1/si/get-invoice/${real.irn}`)).body.data).not.toHaveProperty(
      'mode',
    )
  })

  it('delivers the invoice events of test mode with "mode": "test", and live ones without', async () => {
    const subscribe = async (client: TestModeClients['admin']) => {
      const receiver = await startEventReceiver()
      receivers.push(receiver)
      const reply = await client.post<any>('/api/v1/webhooks', {
        url: receiver.url,
        events: ['invoice.signed'],
      })
      expect(reply.status, JSON.stringify(reply.body)).toBe(201)
      receiver.secret = reply.body.data.secret
      return receiver
    }
    const [sandboxReceiver, liveReceiver] = [await subscribe(test.admin), await subscribe(live.admin)]
    const sandbox = await signedIn('test')
    const real = await signedIn('live')
    const delivered = async (receiver: EventReceiver, irn: string) =>
      eventually(() => {
        const found = receiver.unique().find((e) => e.event.data.irn === irn)
        expect(found).toBeDefined()
        return found!
      })
    const sandboxEvent = await delivered(sandboxReceiver, sandbox.irn)
    expect(sandboxEvent.verified && sandboxEvent.asPublished).toBe(true)
    expect(JSON.parse(sandboxEvent.body)).toMatchObject({ type: 'invoice.signed', mode: 'test' })
    const liveEvent = await delivered(liveReceiver, real.irn)
    expect(liveEvent.verified && liveEvent.asPublished).toBe(true)
    expect(JSON.parse(liveEvent.body)).not.toHaveProperty('mode')
  })
})

describe('POST /api/v1/app/invoice/transmit in test mode', () => {
  it('delivers the transmitted invoice to the buyer’s test system with "mode": "test" at the payload’s top', async () => {
    // The buyer's business in test mode, with a system: a key of its own and a webhook on it.
    const buyerKey = { apiKey: 'artefacts-test-buyer', secret: 'artefacts-test-buyer-secret' }
    await issueApiClient({
      ...buyerKey,
      businessId: DEV.buyer.businessId,
      roles: ['SI', 'APP'],
      mode: 'test',
    })
    const hook: WebhookReceiver = await startWebhookReceiver({ secret: buyerKey.secret })
    try {
      await setWebhook(buyerKey.apiKey, hook.url)
      const sandbox = await signedIn('test')
      const reply = await test.app.post<any>('/api/v1/app/invoice/transmit', { irn: sandbox.irn })
      expect(reply.status, JSON.stringify(reply.body)).toBe(200)
      const [delivery] = hook.posts()
      expect(delivery!.signatureValid).toBe(true)
      const payload = JSON.parse(delivery!.body)
      expect(Object.keys(payload)[0]).toBe('mode')
      expect(payload).toMatchObject({ mode: 'test', irn: sandbox.irn, invoice: { mode: 'test' } })
    } finally {
      await hook.close()
    }
  })
})

describe('GET /api/v1/invoices/{irn}/pdf in test mode', () => {
  it('prints TEST - NOT A TAX INVOICE on every page of a test invoice, and not on a live one', async () => {
    const sandbox = await signedIn('test', invoiceOfLines(120))
    const pdf = await getBytes(DEV_TEST.clients.si, `/api/v1/invoices/${sandbox.irn}/pdf`, 'application/pdf')
    expect(pdf.status).toBe(200)
    const pages = await pagesShown(pdf.bytes)
    expect(pages.length).toBeGreaterThan(1)
    for (const page of pages) expect(page).toContain('TEST - NOT A TAX INVOICE')

    const real = await signedIn('live')
    const livePdf = await getBytes(DEV.clients.si, `/api/v1/invoices/${real.irn}/pdf`, 'application/pdf')
    expect(livePdf.status).toBe(200)
    for (const page of await pagesShown(livePdf.bytes)) expect(page).not.toContain('TEST')
  })
})

describe('POST /api/v1/resource/verify-qr in test mode', () => {
  /** The QR text the invoice's PDF prints (the same on every request: lib/documents/invoice-qr.ts). */
  async function printedQr(mode: Mode, credentials: Credentials) {
    const { irn } = await signedIn(mode)
    expect((await getBytes(credentials, `/api/v1/invoices/${irn}/pdf`, 'application/pdf')).status).toBe(200)
    const qr = await inMode(mode, async () => invoiceQrText((await readInvoiceRecord(irn))!))
    return { irn, qr }
  }

  it('opens a test QR with the test authority key only, answers mode test, and the reverse', async () => {
    const sandbox = await printedQr('test', DEV_TEST.clients.si)
    const real = await printedQr('live', DEV.clients.si)

    const testReply = await test.si.post<any>('/api/v1/resource/verify-qr', { qr: sandbox.qr })
    expect(testReply.status, JSON.stringify(testReply.body)).toBe(200)
    expect(testReply.body.data).toMatchObject({ irn: sandbox.irn, mode: 'test', certificate_valid: true })
    const liveReply = await live.si.post<any>('/api/v1/resource/verify-qr', { qr: real.qr })
    expect(liveReply.status, JSON.stringify(liveReply.body)).toBe(200)
    expect(liveReply.body.data).toMatchObject({ irn: real.irn, mode: 'live', certificate_valid: true })

    // Each mode's key cannot read the other's QR text: not recognised, as any foreign text.
    for (const crossed of [
      await live.si.post<any>('/api/v1/resource/verify-qr', { qr: sandbox.qr }),
      await test.si.post<any>('/api/v1/resource/verify-qr', { qr: real.qr }),
    ]) {
      expect(crossed.status).toBe(400)
      expect(JSON.stringify(crossed.body)).toContain('QR_NOT_RECOGNISED')
    }
  })
})

describe('GET /api/v1/si/get-invoice/{irn} as UBL in test mode', () => {
  it('carries a test note in a test invoice, and none in a live one', async () => {
    const sandbox = await signedIn('test')
    const xml = await getBytes(
      DEV_TEST.clients.si,
      `/api/v1/si/get-invoice/${sandbox.irn}`,
      'application/xml',
    )
    expect(xml.status).toBe(200)
    expect(xml.text).toMatch(/<cbc:Note>TEST - NOT A TAX INVOICE[^<]*<\/cbc:Note>/)

    const real = await signedIn('live')
    const liveXml = await getBytes(DEV.clients.si, `/api/v1/si/get-invoice/${real.irn}`, 'application/xml')
    expect(liveXml.status).toBe(200)
    expect(liveXml.text).not.toContain('TEST')
  })
})
