import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildInvoice } from '../../fixtures/invoices/build.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import {
  DEV,
  type DevClients,
  devClients,
  type TestModeClients,
  testModeClients,
} from '../../support/clients.ts'
import { firsError, freshInvoiceNumber, parallelClient } from '../../support-invoices/requests.ts'

/**
 * IRNs the business builds itself (CONTRACT 17): the authority's lifecycle has the taxpayer's system
 * compose `<reference>-<service id>-<YYYYMMDD>` and validate it, with no generate-irn first.
 */

let api: TestApi
let clients: DevClients
let sandbox: TestModeClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
  sandbox = testModeClients(api.url)
})
afterAll(() => api?.close())

const { supplier } = DEV
const built = (serviceId: string = supplier.serviceId, date = '20261121') =>
  `${freshInvoiceNumber()}-${serviceId}-${date}`

describe.each(['v1', 'v2'])('POST /api/%s/app/invoice/validate-irn: an IRN the business built', (version) => {
  const path = `/api/${version}/app/invoice/validate-irn`
  const validate = (irn: string, client = clients.app) =>
    client.post<any>(path, { irn, business_id: supplier.businessId })
  const statusOf = async (irn: string, client = clients.app) => {
    const reply = await client.get<any>(`/api/${version}/app/invoice/confirm/${irn}`)
    return reply.status === 200 ? reply.body.data.status : reply.status
  }

  it('registers a well-formed IRN with its own service id as GENERATED, as generate-irn would', async () => {
    const irn = built()
    expect(await statusOf(irn)).toBe(404)
    const reply = await validate(irn)
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({ irn })
    expect(await statusOf(irn)).toBe('GENERATED')
    const [reference, serviceId, date] = irn.split('-')
    const generated = await clients.si.post<any>(`/api/${version}/si/generate-irn`, {
      invoice_number: reference,
      service_id: serviceId,
      business_id: supplier.businessId,
      issuance_date: date,
    })
    expect(generated.body).toEqual({ irn })
  })

  it('answers the same IRN again 200, and an IRN it already signed 200, leaving it SIGNED', async () => {
    const irn = built()
    expect((await validate(irn)).status).toBe(200)
    expect(await validate(irn)).toMatchObject({ status: 200, body: { irn } })
    expect((await clients.app.post<any>('/api/v1/app/invoice/sign', buildInvoice({ irn }))).status).toBe(200)
    expect(await validate(irn)).toMatchObject({ status: 200, body: { irn } })
    expect(await statusOf(irn)).toBe('SIGNED')
  })

  it("answers 400 NG-IRN-03 naming the business's own service id for another business's, and registers nothing", async () => {
    const irn = built(DEV.buyer.serviceId)
    const reply = await validate(irn)
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(
      firsError('400 BAD_REQUEST', /not valid for this business/, [
        {
          path: 'irn',
          code: 'NG-IRN-03',
          message: expect.stringContaining(
            `must carry your business's own service id, ${supplier.serviceId}`,
          ),
        },
      ]),
    )
    expect(await statusOf(irn)).toBe(404)
  })

  it.each([
    ['a date that does not exist', built(supplier.serviceId, '20260230'), 'not a real date'],
    ['a one-character reference', `A-${supplier.serviceId}-20261121`, '2 to 50 letters and digits'],
    [
      'a 51-character reference',
      `${'A'.repeat(51)}-${supplier.serviceId}-20261121`,
      '2 to 50 letters and digits',
    ],
  ])('answers 400 naming irn for %s', async (_, irn, message) => {
    const reply = await validate(irn)
    expect(reply.status).toBe(400)
    expect(reply.body.errors).toEqual([
      { path: 'irn', code: 'FIELD_RULE', message: expect.stringContaining(message) },
    ])
  })

  it('registers one record for 10 parallel validations of a new IRN, each answered 200', async () => {
    const irn = built()
    const app = parallelClient(api.url, DEV.clients.app)
    const replies = await Promise.all(
      Array.from({ length: 10 }, () => app.post(path, { irn, business_id: supplier.businessId })),
    )
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200))
    const confirm = await clients.app.get<any>(`/api/${version}/app/invoice/confirm/${irn}`)
    expect(confirm.body.data).toMatchObject({ irn, status: 'GENERATED', business_id: supplier.businessId })
  })

  it('keeps the same IRN apart in test and live mode', async () => {
    const irn = built()
    expect((await validate(irn, sandbox.app)).status).toBe(200)
    expect([await statusOf(irn, sandbox.app), await statusOf(irn)]).toEqual(['GENERATED', 404])
    expect((await sandbox.app.post<any>('/api/v1/app/invoice/sign', buildInvoice({ irn }))).status).toBe(200)
    expect((await validate(irn)).status).toBe(200)
    expect([await statusOf(irn, sandbox.app), await statusOf(irn)]).toEqual(['SIGNED', 'GENERATED'])
  })
})
