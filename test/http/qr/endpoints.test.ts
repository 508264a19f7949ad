import { constants, generateKeyPairSync, privateDecrypt, publicEncrypt, randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getBusiness } from '#lib/registry/businesses.ts'
import { authorityKey } from '#lib/qr/authority-key.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { DEV, type DevClients, devClients } from '../../support/clients.ts'
import { scanQr } from '../../support/qr-scan.ts'
import { putSignedInvoice } from '../../support-invoices/invoices.ts'
import { envelope, failedEnvelope, freshInvoiceNumber } from '../../support-invoices/requests.ts'

let api: TestApi
let clients: DevClients
let certificate: string
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
  certificate = (await getBusiness(DEV.supplier.businessId))!.certificate
})
afterAll(() => api?.close())

const supplier = DEV.supplier
const qrRequest = (invoice_number = freshInvoiceNumber(), extra: Record<string, unknown> = {}) => ({
  invoice_number,
  service_id: supplier.serviceId,
  business_id: supplier.businessId,
  issuance_date: '20261121',
  ...extra,
})

/** The authority's own reading of a QR text, with the service's private key. */
async function decrypt(text: string): Promise<string> {
  const { privateKey } = await authorityKey()
  return privateDecrypt(
    { key: privateKey, padding: constants.RSA_PKCS1_PADDING },
    Buffer.from(text, 'base64'),
  ).toString('utf8')
}

async function generate(version: string, body = qrRequest()) {
  const reply: any = await clients.si.post(`/api/${version}/si/generate-qr-code`, body)
  expect(reply.status).toBe(200)
  return {
    reply,
    text: scanQr(reply.body.data.qr_code_file_bytes),
    irn: `${body.invoice_number}-94ND90NR-20261121`,
  }
}

describe.each(['v1', 'v2'])('POST /api/%s/si/generate-qr-code', (version) => {
  const path = `/api/${version}/si/generate-qr-code`

  it('answers the PNG as a data URL and as base64 bytes, in the Envelope', async () => {
    const body = qrRequest()
    const reply: any = await clients.si.post(path, body)
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(
      envelope(
        {
          qr_code_base64: expect.stringMatching(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/),
          qr_code_file_bytes: expect.any(String),
        },
        `QR code generated for IRN ${body.invoice_number}-94ND90NR-20261121`,
      ),
    )
    const { qr_code_base64, qr_code_file_bytes } = reply.body.data
    expect(qr_code_base64).toBe(`data:image/png;base64,${qr_code_file_bytes}`)
    expect(Buffer.from(qr_code_file_bytes, 'base64').subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    )
  })

  it("encodes the authority's form: Base64 of one RSA-2048 block over the compact {irn, certificate}", async () => {
    const before = Math.floor(Date.now() / 1000)
    const { text, irn } = await generate(version)
    expect(text).toMatch(/^[A-Za-z0-9+/]{342}==$/)
    const plaintext = await decrypt(text)
    const seconds = Number(/^\{"irn":"[^"]+\.(\d+)"/.exec(plaintext)![1])
    expect(plaintext).toBe(`{"irn":"${irn}.${seconds}","certificate":"${certificate}"}`)
    expect(seconds).toBeGreaterThanOrEqual(before)
    expect(seconds).toBeLessThanOrEqual(Math.floor(Date.now() / 1000))
  })

  it('carries the certificate of the request instead of the business certificate when one is given', async () => {
    const { text } = await generate(version, qrRequest(undefined, { certificate: 'Q0VSVC1PVkVSUklERQ==' }))
    expect(await decrypt(text)).toContain('"certificate":"Q0VSVC1PVkVSUklERQ=="')
  })

  it('registers the invoice as GENERATED under the IRN generate-irn gives for the same request', async () => {
    const body = qrRequest()
    const { irn } = await generate(version, body)
    const { certificate: _, ...irnRequest } = body as typeof body & { certificate?: string }
    const viaIrn: any = await clients.si.post(`/api/${version}/si/generate-irn`, irnRequest)
    expect(viaIrn.body).toEqual({ irn })
    const confirm: any = await clients.app.get(`/api/${version}/app/invoice/confirm/${irn}`)
    expect(confirm.body.data).toMatchObject({ irn, status: 'GENERATED' })
  })

  it('answers 400 naming certificate when the payload exceeds one RSA block, and registers nothing', async () => {
    const body = qrRequest(undefined, { certificate: 'C'.repeat(200) })
    const reply = await clients.si.post(path, body)
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(
      failedEnvelope('400 BAD_REQUEST', /1 problem/, [
        { path: 'certificate', code: 'QR_PAYLOAD_TOO_LONG', message: expect.stringContaining('at most 245') },
      ]),
    )
    const confirm = await clients.app.get(
      `/api/${version}/app/invoice/confirm/${body.invoice_number}-94ND90NR-20261121`,
    )
    expect(confirm.status).toBe(404)
  })

  it("answers 404 for another business's business_id", async () => {
    const reply = await clients.si.post(path, qrRequest(undefined, { business_id: DEV.other.businessId }))
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual(failedEnvelope('404 NOT_FOUND', /business_id must be your own business id/))
  })

  it('answers 400 for a hyphenated invoice number and for a foreign service_id', async () => {
    const hyphen: any = await clients.si.post(path, qrRequest('INV-9'))
    expect(hyphen.status).toBe(400)
    expect(hyphen.body.error.errors).toEqual([
      { path: 'invoice_number', code: 'FIELD_FORMAT', message: expect.any(String) },
    ])
    const service: any = await clients.si.post(
      path,
      qrRequest(undefined, { service_id: DEV.other.serviceId }),
    )
    expect(service.status).toBe(400)
    expect(service.body.error.errors).toEqual([
      { path: 'service_id', code: 'SERVICE_ID_NOT_OWN', message: expect.any(String) },
    ])
  })
})

describe('POST /api/v1/resource/verify-qr', () => {
  const path = '/api/v1/resource/verify-qr'

  it('round-trips a generated QR: the IRN, its timestamp, a valid certificate and the status', async () => {
    const { text, irn } = await generate('v1')
    const reply: any = await clients.si.post(path, { qr: text })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(
      envelope(
        {
          irn,
          timestamp: expect.any(Number),
          issued_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/),
          certificate_valid: true,
          status: 'GENERATED',
          mode: 'live',
        },
        `QR code of IRN ${irn} verified: the certificate belongs to the issuing business`,
      ),
    )
    expect(reply.body.data.issued_at).toBe(new Date(reply.body.data.timestamp * 1000).toISOString())
    expect(Math.abs(reply.body.data.timestamp - Date.now() / 1000)).toBeLessThan(60)
  })

  it('lets any business verify a printed QR, e.g. the buyer', async () => {
    const { text, irn } = await generate('v2')
    const reply: any = await clients.buyer.post(path, { qr: text })
    expect(reply.body.data).toMatchObject({ irn, certificate_valid: true })
  })

  it("reports a certificate that is not the business's as not valid", async () => {
    const { text, irn } = await generate(
      'v1',
      qrRequest(undefined, { certificate: 'bm90LXRoZS1idXNpbmVzcy1jZXJ0' }),
    )
    const reply: any = await clients.si.post(path, { qr: text })
    expect(reply.status).toBe(200)
    expect(reply.body.data).toMatchObject({ irn, certificate_valid: false })
    expect(reply.body.message).toMatch(/not the issuing business's/)
  })

  it("reports the invoice's current status (SIGNED)", async () => {
    const number = freshInvoiceNumber()
    await putSignedInvoice({ irn: `${number}-94ND90NR-20261121` })
    const { text } = await generate('v1', qrRequest(number))
    const reply: any = await clients.si.post(path, { qr: text })
    expect(reply.body.data.status).toBe('SIGNED')
  })

  it('answers 404 for a QR of this service naming an IRN that is not registered', async () => {
    const { publicKey } = await authorityKey()
    const irn = `${freshInvoiceNumber()}-94ND90NR-20261121`
    const plaintext = JSON.stringify({ irn: `${irn}.1790000000`, certificate })
    const qr = publicEncrypt(
      { key: publicKey, padding: constants.RSA_PKCS1_PADDING },
      Buffer.from(plaintext),
    ).toString('base64')
    const reply = await clients.si.post(path, { qr })
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual(
      failedEnvelope('404 NOT_FOUND', new RegExp(`IRN ${irn}, which is not registered`)),
    )
  })

  it.each([
    ['plain text', () => 'INV001-94ND90NR-20261121'],
    ['random bytes of the right length', () => randomBytes(256).toString('base64')],
    [
      'a QR made for another RSA key',
      () => {
        const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
        const plaintext = Buffer.from(
          JSON.stringify({ irn: 'INV001-94ND90NR-20261121.1790000000', certificate: 'x' }),
        )
        return publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_PADDING }, plaintext).toString(
          'base64',
        )
      },
    ],
    ['an encrypted text that is not the JSON form', () => 'not json'],
  ])('answers 400 for %s, with one message whatever failed', async (name, make) => {
    let qr = make()
    if (name.startsWith('an encrypted text')) {
      const { publicKey } = await authorityKey()
      qr = publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_PADDING }, Buffer.from(qr)).toString(
        'base64',
      )
    }
    const reply = await clients.si.post(path, { qr })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(
      failedEnvelope('400 BAD_REQUEST', 'The QR code is not valid: 1 problem found', [
        {
          path: 'qr',
          code: 'QR_NOT_RECOGNISED',
          message: expect.stringContaining('not a QR code issued by this service'),
        },
      ]),
    )
  })

  it('answers 400 for a missing qr', async () => {
    const reply: any = await clients.si.post(path, {})
    expect(reply.status).toBe(400)
    expect(reply.body.error.errors).toEqual([
      { path: 'qr', code: 'FIELD_REQUIRED', message: expect.stringContaining('qr is required') },
    ])
  })

  it('exists under v1 only', async () => {
    expect((await clients.si.post('/api/v2/resource/verify-qr', { qr: 'x' })).status).toBe(404)
  })
})
