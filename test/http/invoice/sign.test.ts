import { createHash, createPublicKey, verify } from 'node:crypto'
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb'
import canonicalize from 'canonicalize'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { signAreaA } from '#client/signing.ts'
import { invoiceOf } from '#lib/invoice/canonical.ts'
import { openNotes, readableInvoiceOf } from '#lib/invoice/notes.ts'
import { readInvoiceRecord } from '#lib/invoice/repository.ts'
import { buildInvoice, invoiceOfLines } from '../../fixtures/invoices/build.ts'
import { send, startApi, type TestApi } from '../../support/api.ts'
import { DEV, type DevClients, devClients } from '../../support/clients.ts'
import { freshInvoiceNumber } from '../../support-invoices/requests.ts'

let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(() => api?.close())

const sign = (body: unknown, headers?: Record<string, string>, version = 'v1') =>
  clients.app.post<any>(`/api/${version}/app/invoice/sign`, body, headers)
const siValidate = (body: unknown, version = 'v1') =>
  clients.si.post<any>(`/api/${version}/si/validate`, body)

/** The stored item as DynamoDB holds it, keys and all. */
const storedItem = async (irn: string) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: keys.invoice(irn), ConsistentRead: true })))
    .Item

const signedReply = (
  irn: string,
  signedAt: unknown = expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/),
) => ({
  message: 'Invoice validated and signed successfully',
  payment_status: 'PENDING',
  irn,
  signed_at: signedAt,
})

/** The JWKS, fetched as any verifier would: no credentials. */
async function publishedKeys(): Promise<
  { kty: string; crv: string; x: string; kid: string; use: string; alg: string }[]
> {
  const reply = await clients.anonymous.get<any>('/api/v1/resource/public-keys')
  expect(reply.status).toBe(200)
  return reply.body.keys
}

describe('POST /api/{v}/app/invoice/sign', () => {
  it('signs a new invoice and stores it SIGNED with its hash, signature and timestamps', async () => {
    const invoice = buildInvoice()
    const reply = await sign(invoice)
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(signedReply(invoice.irn))
    const item = await storedItem(invoice.irn)
    const canonical = canonicalize(invoice)!
    expect(item).toEqual({
      // On no index (issue 43): the item is its keys and its record.
      ...keys.invoice(invoice.irn),
      irn: invoice.irn,
      businessId: DEV.supplier.businessId,
      status: 'SIGNED',
      paymentStatus: 'PENDING',
      supplierTin: DEV.supplier.tin,
      buyerTin: DEV.buyer.tin,
      // The body compressed (lib/invoice/canonical.ts), read below.
      invoiceGzip: expect.any(Uint8Array),
      contentHash: createHash('sha256').update(canonical).digest('hex'),
      signature: expect.stringMatching(/^[\w-]{86}$/),
      signingKeyId: expect.any(String),
      validatedAt: reply.body.signed_at,
      signedAt: reply.body.signed_at,
      createdAt: reply.body.signed_at,
      updatedAt: reply.body.signed_at,
      revision: 1,
      // Its number in the business's search list (CONTRACT 16, lib/invoice/search-index.ts).
      listSeq: expect.any(Number),
    })
    // The notes are stored encrypted (issue 7); hash and signature are over the plaintext.
    expect(invoiceOf(item!)).toEqual({
      ...invoice,
      note: expect.stringMatching(/^enc:v1:/),
      payment_terms_note: expect.stringMatching(/^enc:v1:/),
    })
  })

  it('returns the first reply again, same signed_at, when the same content is signed again', async () => {
    const invoice = buildInvoice()
    const first = await sign(invoice)
    expect(first.status).toBe(200)
    // Key order and the issue_time reading do not change the content.
    const reordered = Object.fromEntries(
      Object.entries({ ...invoice, issue_time: { hour: 10, minute: 15, second: 30 } }).reverse(),
    )
    const again = await sign(reordered)
    expect(again.status).toBe(200)
    expect(again.body).toEqual(first.body)
    expect((await readInvoiceRecord(invoice.irn))?.revision).toBe(1)
  })

  it('refuses (409) different content under an IRN already signed, and keeps the signed invoice', async () => {
    const invoice = buildInvoice()
    expect((await sign(invoice)).status).toBe(200)
    const reply = await sign({ ...invoice, note: 'changed after signing' })
    expect(reply.status).toBe(409)
    expect(reply.body).toEqual({
      timestamp: expect.any(String),
      message: `IRN ${invoice.irn} is already SIGNED with different content: a signed invoice cannot change; issue a credit or debit note with a new IRN`,
      details: expect.any(String),
      status: '409 CONFLICT',
      errors: [{ path: '', code: 'CONFLICT', message: expect.any(String) }],
    })
    expect(await readableInvoiceOf((await readInvoiceRecord(invoice.irn))!)).toEqual(invoice)
  })

  it('signs 10 concurrent identical requests once: one record, one signature, ten identical replies', async () => {
    const invoice = buildInvoice()
    const target = '/api/v2/app/invoice/sign'
    const body = JSON.stringify(invoice)
    // The same bytes ten times; each with its own timestamp, since a repeated signature is a replay (401).
    const base = Date.now()
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) => {
        const timestamp = new Date(base + i).toISOString()
        const headers = signAreaA(DEV.clients.app, { method: 'POST', target, body, timestamp })
        return send(`${api.url}${target}`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body,
        })
      }),
    )
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200))
    for (const r of replies) expect(r.body).toEqual(replies[0]!.body)
    const record = await readInvoiceRecord(invoice.irn)
    expect(record).toMatchObject({ status: 'SIGNED', revision: 1, signedAt: replies[0]!.body.signed_at })
    const jwk = (await publishedKeys()).find((k) => k.kid === record!.signingKeyId)!
    const key = createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: 'jwk' })
    expect(
      verify(
        null,
        Buffer.from(canonicalize(await readableInvoiceOf(record!))!),
        key,
        Buffer.from(record!.signature!, 'base64url'),
      ),
    ).toBe(true)
  })

  it('gives the first reply back for a retry with the same Idempotency-Key', async () => {
    const invoice = buildInvoice()
    const headers = { 'idempotency-key': `sign-${invoice.irn}` }
    const first = await sign(invoice, headers)
    expect(first.status).toBe(200)
    const retry = await sign(invoice, headers)
    expect(retry.status).toBe(200)
    expect(retry.headers.get('idempotent-replayed')).toBe('true')
    expect(retry.body).toEqual(first.body)
  })

  it('stores an invoice too large for a DynamoDB map compressed, and reads it back whole', async () => {
    const invoice = invoiceOfLines(1000)
    const reply = await sign(invoice, undefined, 'v2')
    expect(reply.status).toBe(200)
    const record = await readInvoiceRecord(invoice.irn)
    expect(record?.invoice).toBeUndefined()
    expect(record?.invoiceGzip).toBeInstanceOf(Uint8Array)
    expect(invoiceOf(record!)?.note).toMatch(/^enc:v1:/)
    expect(await readableInvoiceOf(record!)).toEqual(invoice)
    expect(record?.contentHash).toBe(createHash('sha256').update(canonicalize(invoice)!).digest('hex'))
  })

  it('signs an IRN the business built, never validated, registering it in the same write (CONTRACT 17)', async () => {
    const invoice = buildInvoice({ irn: `${freshInvoiceNumber()}-${DEV.supplier.serviceId}-20261121` })
    expect(await readInvoiceRecord(invoice.irn)).toBeUndefined()
    const reply = await sign(invoice)
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(signedReply(invoice.irn))
    expect(await readInvoiceRecord(invoice.irn)).toMatchObject({
      businessId: DEV.supplier.businessId,
      status: 'SIGNED',
      revision: 1,
    })
  })

  it('signs an IRN the business built and validated with validate-irn (GENERATED -> SIGNED)', async () => {
    const irn = `${freshInvoiceNumber()}-${DEV.supplier.serviceId}-20261121`
    const validated = await clients.app.post<any>('/api/v2/app/invoice/validate-irn', {
      irn,
      business_id: DEV.supplier.businessId,
    })
    expect(validated.status).toBe(200)
    const generatedAt = (await readInvoiceRecord(irn))?.generatedAt
    expect(generatedAt).toEqual(expect.any(String))
    expect((await sign(buildInvoice({ irn }), undefined, 'v2')).status).toBe(200)
    expect(await readInvoiceRecord(irn)).toMatchObject({ status: 'SIGNED', generatedAt, revision: 2 })
  })

  it("refuses (400 NG-IRN-03) an IRN carrying another business's service id, and stores nothing", async () => {
    const invoice = buildInvoice({ irn: `${freshInvoiceNumber()}-${DEV.buyer.serviceId}-20261121` })
    const reply = await sign(invoice)
    expect(reply.status).toBe(400)
    expect(reply.body.errors).toEqual([
      { path: 'irn', code: 'NG-IRN-03', message: expect.stringContaining(DEV.supplier.serviceId) },
    ])
    expect(await readInvoiceRecord(invoice.irn)).toBeUndefined()
  })

  it.each([
    ['one character', 'A'],
    ['51 characters', 'A'.repeat(51)],
  ])(
    'refuses (400 NG-IRN-01) an IRN whose invoice reference is %s, as validate-irn does',
    async (_, reference) => {
      const invoice = buildInvoice({ irn: `${reference}-${DEV.supplier.serviceId}-20261121` })
      const reply = await sign(invoice)
      expect(reply.status).toBe(400)
      expect(reply.body.errors).toEqual([
        { path: 'irn', code: 'NG-IRN-01', message: expect.stringContaining('2 to 50 letters and digits') },
      ])
    },
  )

  it("refuses an SI client (403): signing is the Access Point Provider's", async () => {
    const reply = await clients.si.post<any>('/api/v1/app/invoice/sign', buildInvoice())
    expect(reply.status).toBe(403)
  })
})

describe('the invoice lifecycle through validate and sign', () => {
  describe('POST /api/v1/si/validate', () => {
    it('si/validate records VALIDATED; sign then moves the same record to SIGNED', async () => {
      const invoice = buildInvoice()
      const validated = await siValidate(invoice)
      expect(validated.status).toBe(200)
      expect(validated.body).toEqual({
        message: 'Invoice validated successfully',
        payment_status: 'PENDING',
        irn: invoice.irn,
      })
      const before = await readInvoiceRecord(invoice.irn)
      expect(before).toMatchObject({ status: 'VALIDATED', revision: 1 })
      expect(before?.signature).toBeUndefined()

      const signed = await sign(invoice)
      expect(signed.status).toBe(200)
      const after = await readInvoiceRecord(invoice.irn)
      expect(after).toMatchObject({
        status: 'SIGNED',
        revision: 2,
        validatedAt: before!.validatedAt,
        signedAt: signed.body.signed_at,
        createdAt: before!.createdAt,
      })
    })

    it('validates, then signs, an invoice whose parties carry the 13-digit Tax ID (NRS/JRB, May 2026)', async () => {
      const invoice = buildInvoice()
      invoice.accounting_supplier_party.tin = '3047291850016'
      invoice.accounting_customer_party.tin = '1234567890123'
      const validated = await siValidate(invoice)
      expect(validated.status, JSON.stringify(validated.body)).toBe(200)
      const signed = await sign(invoice)
      expect(signed.status, JSON.stringify(signed.body)).toBe(200)
      expect(signed.body).toEqual(signedReply(invoice.irn))
      expect(await readInvoiceRecord(invoice.irn)).toMatchObject({
        status: 'SIGNED',
        supplierTin: '3047291850016',
        buyerTin: '1234567890123',
      })
    })

    it('lets a VALIDATED invoice be validated again with corrected content', async () => {
      const invoice = buildInvoice()
      expect((await siValidate(invoice)).status).toBe(200)
      const corrected = { ...invoice, note: 'corrected' }
      expect((await siValidate(corrected)).status).toBe(200)
      expect((await readableInvoiceOf((await readInvoiceRecord(invoice.irn))!))?.note).toBe('corrected')
    })

    it('answers si/validate of a signed invoice: the same content is 200, different content 409', async () => {
      const invoice = buildInvoice()
      expect((await sign(invoice)).status).toBe(200)
      expect((await siValidate(invoice)).status).toBe(200)
      expect((await siValidate({ ...invoice, note: 'changed' })).status).toBe(409)
      expect((await readInvoiceRecord(invoice.irn))?.status).toBe('SIGNED')
    })
  })

  it('signs an IRN generated earlier (GENERATED -> SIGNED), keeping what generate-irn stored', async () => {
    const invoice = buildInvoice()
    const at = '2026-11-21T08:00:00.000Z'
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.invoice(invoice.irn),
          irn: invoice.irn,
          businessId: DEV.supplier.businessId,
          status: 'GENERATED',
          paymentStatus: 'PENDING',
          generatedAt: at,
          createdAt: at,
          updatedAt: at,
          revision: 1,
        },
      }),
    )
    const reply = await clients.app.post<any>('/api/v2/app/invoice/validate', invoice)
    expect(reply.status).toBe(200)
    expect(await readInvoiceRecord(invoice.irn)).toMatchObject({
      status: 'SIGNED',
      generatedAt: at,
      createdAt: at,
      revision: 2,
    })
  })

  it("refuses another business's client signing this business's IRN with its own business_id", async () => {
    const invoice = { ...buildInvoice(), business_id: DEV.other.businessId }
    const reply = await clients.other.post<any>('/api/v1/app/invoice/sign', invoice)
    expect(reply.status).toBe(400)
    expect(reply.body.errors).toEqual([
      { path: 'irn', code: 'NG-IRN-03', message: expect.stringContaining('94ND90NR') },
    ])
  })
})

describe('a signature checked against GET /api/v1/resource/public-keys', () => {
  it('verifies a stored signature with the published key, using only node:crypto', async () => {
    const invoice = buildInvoice()
    expect((await sign(invoice)).status).toBe(200)
    const item = await storedItem(invoice.irn)
    const jwk = (await publishedKeys()).find((k) => k.kid === item!.signingKeyId)
    expect(jwk).toBeDefined()
    const publicKey = createPublicKey({ key: { kty: jwk!.kty, crv: jwk!.crv, x: jwk!.x }, format: 'jwk' })
    // The signed bytes are the RFC 8785 form of the stored invoice; its SHA-256 is the stored hash.
    const plain = await openNotes(invoice.irn, invoiceOf(item!)!)
    const bytes = Buffer.from(canonicalize(plain)!, 'utf8')
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(item!.contentHash)
    expect(verify(null, bytes, publicKey, Buffer.from(item!.signature, 'base64url'))).toBe(true)
    // And a changed invoice does not verify.
    const tampered = Buffer.from(canonicalize({ ...plain, note: 'tampered' })!, 'utf8')
    expect(verify(null, tampered, publicKey, Buffer.from(item!.signature, 'base64url'))).toBe(false)
  })
})
