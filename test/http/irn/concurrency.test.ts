import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { lagosDateStamp } from '#lib/platform/time.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { DEV, type DevClients, devClients } from '../../support/clients.ts'
import { firsError, freshInvoiceNumber, parallelClient } from '../../support-invoices/requests.ts'

let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(() => api?.close())

const supplier = DEV.supplier
const request = (invoice_number: string, extra: Record<string, unknown> = {}) => ({
  invoice_number,
  service_id: supplier.serviceId,
  business_id: supplier.businessId,
  ...extra,
})

describe.each(['v1', 'v2'])('POST /api/%s/si/generate-irn', (version) => {
  const path = `/api/${version}/si/generate-irn`

  it('returns {irn} made of the invoice number, the service id and the issuance date', async () => {
    const number = freshInvoiceNumber()
    const reply = await clients.si.post(path, request(number, { issuance_date: '20261121' }))
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({ irn: `${number}-94ND90NR-20261121` })
  })

  it('dates the IRN today in Lagos when issuance_date is left out', async () => {
    const number = freshInvoiceNumber()
    const reply = await clients.si.post(path, request(number))
    expect(reply.body).toEqual({ irn: `${number}-94ND90NR-${lagosDateStamp()}` })
  })

  it('returns the same IRN for a repeated request, and registers the invoice once as GENERATED', async () => {
    const number = freshInvoiceNumber()
    const first = await clients.si.post(path, request(number, { issuance_date: '20261121' }))
    const again = await clients.si.post(path, request(number, { issuance_date: '20261121' }))
    expect(again.status).toBe(200)
    expect(again.body).toEqual(first.body)
    const confirm: any = await clients.app.get(
      `/api/${version}/app/invoice/confirm/${(first.body as any).irn}`,
    )
    expect(confirm.body.data).toMatchObject({
      irn: (first.body as any).irn,
      status: 'GENERATED',
      payment_status: 'PENDING',
    })
  })

  it('gives the same invoice number on another day another IRN', async () => {
    const number = freshInvoiceNumber()
    const a: any = await clients.si.post(path, request(number, { issuance_date: '20261121' }))
    const b: any = await clients.si.post(path, request(number, { issuance_date: '20261122' }))
    expect(a.body.irn).not.toBe(b.body.irn)
  })

  it("answers 404 for another business's business_id", async () => {
    const reply = await clients.si.post(path, {
      ...request(freshInvoiceNumber()),
      business_id: DEV.buyer.businessId,
    })
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual(firsError('404 NOT_FOUND', /business_id must be your own business id/))
  })

  it("answers 400 naming service_id when it is not the business's service id", async () => {
    const reply = await clients.si.post(path, {
      ...request(freshInvoiceNumber()),
      service_id: DEV.buyer.serviceId,
    })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(
      firsError('400 BAD_REQUEST', /1 problem/, [
        { path: 'service_id', code: 'SERVICE_ID_NOT_OWN', message: expect.stringContaining('(94ND90NR)') },
      ]),
    )
  })

  it('answers 400 for a 51-character invoice number', async () => {
    const reply = await clients.si.post(path, request('A'.repeat(51)))
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(
      firsError('400 BAD_REQUEST', /invalid/, [
        {
          path: 'invoice_number',
          code: 'FIELD_RANGE',
          message: 'invoice_number must be at most 50 characters',
        },
      ]),
    )
  })

  it('accepts a 50-character invoice number', async () => {
    const number = `${freshInvoiceNumber()}`.padEnd(50, '0')
    const reply = await clients.si.post(path, request(number, { issuance_date: '20261121' }))
    expect(reply.body).toEqual({ irn: `${number}-94ND90NR-20261121` })
  })

  it.each([
    ['hyphenated', 'INV-001'],
    ['with a space', 'INV 001'],
    ['with a symbol', 'INV/001'],
  ])('answers 400 for a %s invoice number', async (_, number) => {
    const reply = await clients.si.post(path, request(number))
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(
      firsError('400 BAD_REQUEST', /invalid/, [
        {
          path: 'invoice_number',
          code: 'FIELD_FORMAT',
          message: expect.stringContaining('only letters and digits'),
        },
      ]),
    )
  })

  it('answers 400 for a 1-character invoice number', async () => {
    const reply: any = await clients.si.post(path, request('A'))
    expect(reply.status).toBe(400)
    expect(reply.body.errors).toEqual([
      { path: 'invoice_number', code: 'FIELD_RANGE', message: expect.any(String) },
    ])
  })

  it.each([
    ['a day that does not exist', '20260230', 'issuance_date is not a real date'],
    ['a dashed date', '2026-11-21', 'issuance_date must be 8 digits, YYYYMMDD (e.g. 20261121)'],
  ])('answers 400 for an issuance_date that is %s', async (_, date, message) => {
    const reply: any = await clients.si.post(path, request(freshInvoiceNumber(), { issuance_date: date }))
    expect(reply.status).toBe(400)
    expect(reply.body.errors).toEqual([{ path: 'issuance_date', code: expect.any(String), message }])
  })

  it('lists every missing field at once', async () => {
    const reply: any = await clients.si.post(path, {})
    expect(reply.status).toBe(400)
    expect(reply.body.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'business_id',
      'invoice_number',
      'service_id',
    ])
  })

  it('refuses an APP-only client (403)', async () => {
    const reply: any = await clients.app.post(path, request(freshInvoiceNumber()))
    expect(reply.status).toBe(403)
  })
})

describe('generate-irn under concurrency', () => {
  it('gives 20 parallel identical requests one IRN', async () => {
    const si = parallelClient(api.url, DEV.clients.si)
    const body = request(freshInvoiceNumber(), { issuance_date: '20261121' })
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => si.post('/api/v1/si/generate-irn', body)),
    )
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200))
    expect(new Set(replies.map((r) => r.body.irn))).toEqual(
      new Set([`${body.invoice_number}-94ND90NR-20261121`]),
    )
  })
})

describe.each(['v1', 'v2'])('POST /api/%s/app/invoice/validate-irn', (version) => {
  const path = `/api/${version}/app/invoice/validate-irn`
  const generate = async (
    client = clients.si,
    business: typeof DEV.supplier | typeof DEV.buyer = supplier,
  ) => {
    const reply: any = await client.post(`/api/${version}/si/generate-irn`, {
      invoice_number: freshInvoiceNumber(),
      service_id: business.serviceId,
      business_id: business.businessId,
    })
    return reply.body.irn as string
  }

  it('answers 200 {irn} for an IRN generated for the business', async () => {
    const irn = await generate()
    const reply = await clients.app.post(path, { irn, business_id: supplier.businessId })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({ irn })
  })

  it("accepts the authority sample's invoice_reference when it is the IRN's invoice number", async () => {
    const irn = await generate()
    const reply = await clients.app.post(path, {
      irn,
      business_id: supplier.businessId,
      invoice_reference: irn.split('-')[0],
    })
    expect(reply.body).toEqual({ irn })
  })

  it("answers 400 when invoice_reference is not the IRN's invoice number", async () => {
    const irn = await generate()
    const reply = await clients.app.post(path, {
      irn,
      business_id: supplier.businessId,
      invoice_reference: 'ITW001',
    })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(
      firsError('400 BAD_REQUEST', /1 problem/, [
        { path: 'invoice_reference', code: 'INVOICE_REFERENCE_MISMATCH', message: expect.any(String) },
      ]),
    )
  })

  it('answers 200 {irn} for an IRN the business built itself, never generated (CONTRACT 17)', async () => {
    const irn = `${freshInvoiceNumber()}-94ND90NR-20261121`
    const reply = await clients.app.post(path, { irn, business_id: supplier.businessId })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({ irn })
  })

  it("answers 400 NG-IRN-03 for an IRN generated for another business (another business's service id)", async () => {
    const irn = await generate(clients.buyer, DEV.buyer)
    const reply: any = await clients.app.post(path, { irn, business_id: supplier.businessId })
    expect(reply.status).toBe(400)
    expect(reply.body.errors).toEqual([
      { path: 'irn', code: 'NG-IRN-03', message: expect.stringContaining(supplier.serviceId) },
    ])
  })

  it("answers 404 for another business's business_id", async () => {
    const irn = await generate(clients.buyer, DEV.buyer)
    const reply = await clients.app.post(path, { irn, business_id: DEV.buyer.businessId })
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual(firsError('404 NOT_FOUND', /business_id must be your own business id/))
  })

  it.each([
    ['a hyphen too many', 'INV-001-94ND90NR-20261121'],
    ['no date', 'INV001-94ND90NR'],
    ['an impossible date', 'INV001-94ND90NR-20261341'],
  ])('answers 400 for an IRN with %s', async (_, irn) => {
    const reply: any = await clients.app.post(path, { irn, business_id: supplier.businessId })
    expect(reply.status).toBe(400)
    expect(reply.body.errors).toEqual([
      { path: 'irn', code: expect.any(String), message: expect.any(String) },
    ])
  })

  it('is not an SI endpoint (403 for an SI-only client)', async () => {
    expect(
      (await clients.si.post(path, { irn: 'INV001-94ND90NR-20261121', business_id: supplier.businessId }))
        .status,
    ).toBe(403)
  })
})
