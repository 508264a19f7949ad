import { createPublicKey, verify } from 'node:crypto'
import canonicalize from 'canonicalize'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { setWebhook } from '#lib/platform/auth/credentials.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { DEV, type DevClients, devClients } from '../../support/clients.ts'
import { invoiceBody, putSignedInvoice } from '../../support-invoices/invoices.ts'
import { envelope, failedEnvelope, freshInvoiceNumber } from '../../support-invoices/requests.ts'
import {
  clearWebhook,
  deadWebhookUrl,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../support-invoices/webhook-receiver.ts'

let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(() => api?.close())

const receivers: WebhookReceiver[] = []
async function receiver(options: Parameters<typeof startWebhookReceiver>[0]) {
  const r = await startWebhookReceiver(options)
  receivers.push(r)
  return r
}
// Every test registers the webhooks it needs; none leaks into the next.
afterEach(async () => {
  await Promise.all([DEV.clients.buyer, DEV.clients.si, DEV.clients.app].map((c) => clearWebhook(c.apiKey)))
  await Promise.all(receivers.splice(0).map((r) => r.close()))
})

// Parties as the invoice names them: never another business's name or URL (CONTRACT section 14).
const SUPPLIER = `supplier ${DEV.supplier.tin}`
const BUYER = `buyer ${DEV.buyer.tin}`

describe.each(['v1', 'v2'])('POST /api/%s/app/invoice/transmit', (version) => {
  const path = `/api/${version}/app/invoice/transmit`
  const confirm = async (irn: string) =>
    ((await clients.app.get(`/api/${version}/app/invoice/confirm/${irn}`)).body as any).data

  it("refuses with 503 while the buyer's webhook is down, and the invoice stays SIGNED", async () => {
    const dead = await deadWebhookUrl()
    await setWebhook(DEV.clients.buyer.apiKey, dead)
    const { irn } = await putSignedInvoice()
    const reply = await clients.app.post(path, { irn })
    expect(reply.status).toBe(503)
    expect(reply.body).toEqual(
      failedEnvelope(
        '503 SERVICE_UNAVAILABLE',
        new RegExp(`Invoice ${irn} was not transmitted and stays SIGNED`),
        [
          {
            path: 'parties/buyer/webhook',
            code: 'WEBHOOK_DOWN',
            message: `${BUYER}: system is down (checked with a 2000 ms limit)`,
          },
        ],
      ),
    )
    expect(await confirm(irn)).toMatchObject({ status: 'SIGNED', transmitted_at: null })
  })

  it("delivers one signed request to the buyer's webhook that the buyer verifies, then is TRANSMITTED", async () => {
    const buyerHook = await receiver({
      secret: DEV.clients.buyer.secret,
      target: '/hooks/einvoice?source=mbs',
    })
    await setWebhook(DEV.clients.buyer.apiKey, buyerHook.url)
    const record = await putSignedInvoice()
    const reply: any = await clients.app.post(path, { irn: record.irn })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(
      envelope(
        {
          message: [
            `${SUPPLIER}: no system registered, not checked`,
            `${BUYER}: system is up`,
            `${BUYER}: signed invoice delivered`,
            expect.stringMatching(new RegExp(`^invoice ${record.irn}: SIGNED -> TRANSMITTED at \\d{4}-`)),
          ],
        },
        `Invoice ${record.irn} transmitted`,
      ),
    )
    const [delivery, ...more] = buyerHook.posts()
    expect(more).toEqual([])
    expect(delivery!.signatureValid).toBe(true)
    expect(delivery!.target).toBe('/hooks/einvoice?source=mbs')
    expect(delivery!.headers).toMatchObject({
      authorization: `Bearer ${DEV.clients.buyer.apiKey}`,
      'content-type': 'application/json',
      'x-timestamp': expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      'x-nonce': expect.stringMatching(/^[A-Za-z0-9_-]{16,64}$/),
    })
    expect(JSON.parse(delivery!.body)).toEqual({
      irn: record.irn,
      invoice: record.invoice,
      signature: record.signature,
      signing_key_id: record.signingKeyId,
      signed_at: record.signedAt,
    })
    expect(await confirm(record.irn)).toMatchObject({
      status: 'TRANSMITTED',
      transmitted_at: expect.any(String),
    })
  })

  it('is idempotent: transmitting again answers 200 and delivers nothing more', async () => {
    const buyerHook = await receiver({ secret: DEV.clients.buyer.secret })
    await setWebhook(DEV.clients.buyer.apiKey, buyerHook.url)
    const { irn } = await putSignedInvoice()
    expect((await clients.app.post(path, { irn })).status).toBe(200)
    const again: any = await clients.app.post(path, { irn })
    expect(again.status).toBe(200)
    expect(again.body.message).toBe(`Invoice ${irn} was already transmitted`)
    expect(again.body.data.message).toEqual([
      expect.stringMatching(new RegExp(`^invoice ${irn}: already TRANSMITTED at .+, nothing sent again$`)),
    ])
    expect(buyerHook.posts()).toHaveLength(1)
  })

  it("checks the supplier's own webhook too: a 5xx answer is down, and the buyer gets nothing", async () => {
    const supplierHook = await receiver({ secret: DEV.clients.app.secret, headStatus: 503 })
    const buyerHook = await receiver({ secret: DEV.clients.buyer.secret })
    await setWebhook(DEV.clients.app.apiKey, supplierHook.url)
    await setWebhook(DEV.clients.buyer.apiKey, buyerHook.url)
    const { irn } = await putSignedInvoice()
    const reply: any = await clients.app.post(path, { irn })
    expect(reply.status).toBe(503)
    expect(reply.body.error.errors).toEqual([
      {
        path: 'parties/supplier/webhook',
        code: 'WEBHOOK_DOWN',
        message: `${SUPPLIER}: system is down (HTTP 503; checked with a 2000 ms limit)`,
      },
    ])
    expect(buyerHook.posts()).toEqual([])
    expect(await confirm(irn)).toMatchObject({ status: 'SIGNED' })
  })

  it("counts any answer below 500 as up (the supplier's endpoint answers HEAD with 405)", async () => {
    const supplierHook = await receiver({ secret: DEV.clients.si.secret, headStatus: 405 })
    await setWebhook(DEV.clients.si.apiKey, supplierHook.url)
    const { irn } = await putSignedInvoice()
    const reply: any = await clients.app.post(path, { irn })
    expect(reply.status).toBe(200)
    expect(reply.body.data.message[0]).toBe(`${SUPPLIER}: system is up`)
  })

  it('refuses with 503 when the buyer rejects the delivery, and the invoice stays SIGNED', async () => {
    const buyerHook = await receiver({ secret: DEV.clients.buyer.secret, postStatus: 500 })
    await setWebhook(DEV.clients.buyer.apiKey, buyerHook.url)
    const { irn } = await putSignedInvoice()
    const reply: any = await clients.app.post(path, { irn })
    expect(reply.status).toBe(503)
    expect(reply.body.error.errors).toEqual([
      {
        path: 'parties/buyer/delivery',
        code: 'DELIVERY_FAILED',
        message: `${BUYER}: the delivery to its system failed`,
      },
    ])
    expect(await confirm(irn)).toMatchObject({ status: 'SIGNED' })
  })

  it('transmits without delivery when no party registered a webhook, saying so', async () => {
    const { irn } = await putSignedInvoice()
    const reply: any = await clients.app.post(path, { irn })
    expect(reply.status).toBe(200)
    expect(reply.body.data.message).toEqual([
      `${SUPPLIER}: no system registered, not checked`,
      `${BUYER}: no system registered, not checked`,
      `${BUYER}: nothing delivered; the buyer can pull the invoice with GET /api/v1/si/get-invoice/${irn}`,
      expect.stringMatching(new RegExp(`^invoice ${irn}: SIGNED -> TRANSMITTED at `)),
    ])
  })

  it('transmits an invoice whose buyer is not registered with the service, or that names no buyer', async () => {
    const unregistered = await putSignedInvoice({
      buyer: {
        tin: '20481937-0001',
        name: 'Ikenna Okafor Agro Processing Ltd',
        email: 'finance@okaforagro.example',
      },
    })
    const a: any = await clients.app.post(path, { irn: unregistered.irn })
    expect(a.status).toBe(200)
    expect(a.body.data.message).toContain('buyer 20481937-0001: no system registered, not checked')
    const b2c = await putSignedInvoice({ buyer: null })
    const b: any = await clients.app.post(path, { irn: b2c.irn })
    expect(b.status).toBe(200)
    expect(b.body.data.message).toContain('buyer: the invoice names no buyer TIN, nothing delivered')
  })

  it('answers 409 naming the state for an invoice that is not SIGNED', async () => {
    const generated: any = await clients.si.post(`/api/${version}/si/generate-irn`, {
      invoice_number: freshInvoiceNumber(),
      service_id: DEV.supplier.serviceId,
      business_id: DEV.supplier.businessId,
    })
    const irn = generated.body.irn
    const reply = await clients.app.post(path, { irn })
    expect(reply.status).toBe(409)
    expect(reply.body).toEqual(
      failedEnvelope(
        '409 CONFLICT',
        `Invoice ${irn} is GENERATED: only a SIGNED invoice can be transmitted; sign it with /app/invoice/sign first`,
      ),
    )
  })

  it("answers 404 for another business's invoice, or an unknown IRN", async () => {
    const { irn } = await putSignedInvoice()
    const reply = await clients.buyer.post(path, { irn })
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual(failedEnvelope('404 NOT_FOUND', `No invoice ${irn} for your business`))
    expect((await clients.app.post(path, { irn: `${freshInvoiceNumber()}-94ND90NR-20261121` })).status).toBe(
      404,
    )
    expect(await confirm(irn)).toMatchObject({ status: 'SIGNED' })
  })

  it('answers 400 for a malformed or missing irn', async () => {
    const reply: any = await clients.app.post(path, { irn: 'not-an-irn' })
    expect(reply.status).toBe(400)
    expect(reply.body.error.errors).toEqual([
      { path: 'irn', code: 'FIELD_FORMAT', message: expect.any(String) },
    ])
    expect((await clients.app.post(path, {})).status).toBe(400)
  })
})

describe('transmit with a webhook that does not answer', () => {
  it('gives up after 2 s and refuses with 503 naming the time limit', async () => {
    const slow = await receiver({ secret: DEV.clients.buyer.secret, hang: true })
    await setWebhook(DEV.clients.buyer.apiKey, slow.url)
    const { irn } = await putSignedInvoice()
    const reply: any = await clients.app.post('/api/v1/app/invoice/transmit', { irn })
    expect(reply.status).toBe(503)
    expect(reply.body.error.errors[0].message).toBe(`${BUYER}: system is down (checked with a 2000 ms limit)`)
  })
})

describe('the whole lifecycle through the public endpoints', () => {
  it('generate-irn, sign, transmit to the buyer, who verifies the invoice signature with the JWKS and pulls it', async () => {
    const buyerHook = await receiver({ secret: DEV.clients.buyer.secret })
    await setWebhook(DEV.clients.buyer.apiKey, buyerHook.url)
    const generated: any = await clients.si.post('/api/v2/si/generate-irn', {
      invoice_number: freshInvoiceNumber('E2E'),
      service_id: DEV.supplier.serviceId,
      business_id: DEV.supplier.businessId,
    })
    const irn = generated.body.irn as string
    const signed: any = await clients.app.post('/api/v2/app/invoice/sign', invoiceBody(irn))
    expect(signed.status).toBe(200)

    const transmitted: any = await clients.app.post('/api/v2/app/invoice/transmit', { irn })
    expect(transmitted.status).toBe(200)
    const [delivery] = buyerHook.posts()
    expect(delivery!.signatureValid).toBe(true)
    const payload = JSON.parse(delivery!.body)
    const jwks: any = (await clients.anonymous.get('/api/v1/resource/public-keys')).body
    const jwk = jwks.keys.find((k: { kid: string }) => k.kid === payload.signing_key_id)
    const publicKey = createPublicKey({ key: jwk, format: 'jwk' })
    expect(
      verify(
        null,
        Buffer.from(canonicalize(payload.invoice)!),
        publicKey,
        Buffer.from(payload.signature, 'base64url'),
      ),
    ).toBe(true)
    expect(payload.signed_at).toBe(signed.body.signed_at)

    const pulled: any = await clients.buyer.get(`/api/v2/si/get-invoice/${irn}`)
    expect(pulled.status).toBe(200)
    expect(pulled.body.data).toEqual({
      ...payload.invoice,
      irn,
      payment_status: 'PENDING',
      // No credit or debit note names it (CONTRACT 16).
      adjustments: {
        credited: 0,
        debited: 0,
        remaining: payload.invoice.legal_monetary_total.payable_amount,
        notes: [],
      },
    })
    const confirmed: any = await clients.app.get(`/api/v2/app/invoice/confirm/${irn}`)
    expect(confirmed.body.data).toEqual({
      irn,
      status: 'TRANSMITTED',
      payment_status: 'PENDING',
      business_id: DEV.supplier.businessId,
      validated_at: expect.any(String),
      signed_at: signed.body.signed_at,
      transmitted_at: expect.any(String),
      received_at: null,
      reference: null,
    })
  })
})
