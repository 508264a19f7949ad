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
import { authorityError } from '../../support-invoices/requests.ts'

/**
 * Validate, sign and the supplier search at the authority's paths (CONTRACT 17): the seed's endpoints,
 * in the authority's records. Its request rules (the lenient defaults) and its published examples are
 * tested in ./authority-samples.test.ts.
 */

let api: TestApi
let live: DevClients
let sandbox: TestModeClients
beforeAll(async () => {
  api = await startApi()
  live = devClients(api.url)
  sandbox = testModeClients(api.url)
})
afterAll(() => api?.close())

const otherBusiness = () => ({ ...buildInvoice(), business_id: DEV.other.businessId })

describe('POST /api/v1/invoice/validate', () => {
  it('validates an invoice for an SI key and an APP key alike, and signs nothing', async () => {
    for (const client of [live.si, live.app]) {
      const invoice = buildInvoice()
      const reply = await client.post<any>('/api/v1/invoice/validate', invoice)
      expect(reply.status, JSON.stringify(reply.body)).toBe(200)
      expect(reply.body.code).toBe(200)
      const confirm = await live.app.get<any>(`/api/v1/invoice/confirm/${invoice.irn}`)
      expect(confirm.body.data?.status).not.toBe('SIGNED')
    }
  })

  it("is 404 for another business's business_id", async () => {
    const reply = await live.app.post<any>('/api/v1/invoice/validate', otherBusiness())
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual(authorityError(404))
  })

  it('is 400 naming the path of a missing field, in the authority record', async () => {
    const { issue_date: _, ...invoice } = buildInvoice()
    const reply = await live.app.post<any>('/api/v1/invoice/validate', invoice)
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual({
      ...authorityError(400),
      ...('warnings' in reply.body ? { warnings: expect.any(Array) } : {}),
    })
    expect(reply.body.errors.map((e: { path: string }) => e.path)).toContain('issue_date')
  })
})

describe('POST /api/v1/invoice/sign', () => {
  it('signs an invoice, and it is confirmed in the caller mode only', async () => {
    const invoice = buildInvoice()
    const reply = await sandbox.app.post<any>('/api/v1/invoice/sign', invoice)
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    expect(reply.body).toMatchObject({ code: 200, irn: invoice.irn })
    expect((await sandbox.app.get<any>(`/api/v1/invoice/confirm/${invoice.irn}`)).status).toBe(200)
    expect((await live.app.get<any>(`/api/v1/invoice/confirm/${invoice.irn}`)).status).toBe(404)
  })

  it("is 404 for another business's business_id", async () => {
    const reply = await live.app.post<any>('/api/v1/invoice/sign', otherBusiness())
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual(authorityError(404))
  })

  it('is 400 naming the path of a bad value', async () => {
    const invoice = { ...buildInvoice(), issue_date: '2026-02-30' }
    const reply = await live.app.post<any>('/api/v1/invoice/sign', invoice)
    expect(reply.status).toBe(400)
    expect(reply.body.errors.map((e: { path: string }) => e.path)).toContain('issue_date')
  })
})

describe('GET /api/v1/invoice/{business_id}', () => {
  it("lists the caller's own signed invoices, newest first, in the caller mode", async () => {
    const invoice = buildInvoice()
    expect((await live.app.post<any>('/api/v1/invoice/sign', invoice)).status).toBe(200)
    const reply = await live.app.get<any>(`/api/v1/invoice/${DEV.supplier.businessId}?size=5`)
    expect(reply.status).toBe(200)
    expect(reply.body.code).toBe(200)
    expect(reply.body.data.content[0].irn).toBe(invoice.irn)
    const test = await sandbox.app.get<any>(`/api/v1/invoice/${DEV.supplier.businessId}?size=50`)
    expect(test.body.data.content.map((i: { irn: string }) => i.irn)).not.toContain(invoice.irn)
  })

  it("is 404 for another business's id", async () => {
    const reply = await live.app.get<any>(`/api/v1/invoice/${DEV.other.businessId}`)
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual(authorityError(404))
  })

  it('is 400 naming the query parameter at fault', async () => {
    const reply = await live.app.get<any>(`/api/v1/invoice/${DEV.supplier.businessId}?size=0`)
    expect(reply.status).toBe(400)
    expect(reply.body.errors[0].path).toMatch(/size/)
  })
})
