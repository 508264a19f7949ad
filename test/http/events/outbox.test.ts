import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditOfInvoice } from '#lib/platform/audit/trail.ts'
import { eventsOfBusiness } from '#lib/events/event.ts'
import { buildInvoice } from '../../fixtures/invoices/build.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { DEV, type DevClients, devClients } from '../../support/clients.ts'

let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(() => api?.close())

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/)
const EVENT_ID = expect.stringMatching(/^evt_[0-9a-z]{9}[0-9a-f]{20}$/)
const eventsOf = async (businessId: string, irn: string) =>
  (await eventsOfBusiness(businessId)).filter((e) => e.data.irn === irn)

describe('invoice events (the transactional outbox)', () => {
  it('records one event per state change, in the same write, with the state after it', async () => {
    const invoice = buildInvoice()
    const { irn } = invoice
    expect((await clients.si.post('/api/v1/si/validate', invoice)).status).toBe(200)
    expect((await clients.app.post('/api/v1/app/invoice/sign', invoice)).status).toBe(200)
    // The same content again changes nothing, so it records nothing.
    expect((await clients.app.post('/api/v1/app/invoice/sign', invoice)).status).toBe(200)
    expect((await clients.app.post('/api/v1/app/invoice/transmit', { irn })).status).toBe(200)
    expect(
      (await clients.app.request('PATCH', `/api/v1/app/invoice/update/${irn}`, { payment_status: 'PAID' }))
        .status,
    ).toBe(200)
    // Refused (PAID is final): no change, no event.
    expect(
      (
        await clients.app.request('PATCH', `/api/v1/app/invoice/update/${irn}`, {
          payment_status: 'REJECTED',
        })
      ).status,
    ).toBe(409)

    const supplier = await eventsOf(DEV.supplier.businessId, irn)
    const base = { id: EVENT_ID, created_at: ISO, business_id: DEV.supplier.businessId }
    expect(supplier).toEqual([
      {
        ...base,
        type: 'invoice.validated',
        data: { irn, status: 'VALIDATED', payment_status: 'PENDING', sequence: 1, validated_at: ISO },
      },
      {
        ...base,
        type: 'invoice.signed',
        data: {
          irn,
          status: 'SIGNED',
          payment_status: 'PENDING',
          sequence: 2,
          previous_status: 'VALIDATED',
          signed_at: ISO,
        },
      },
      {
        ...base,
        type: 'invoice.transmitted',
        data: { irn, status: 'TRANSMITTED', payment_status: 'PENDING', sequence: 3, transmitted_at: ISO },
      },
      {
        ...base,
        type: 'invoice.payment_status_changed',
        data: {
          irn,
          status: 'TRANSMITTED',
          payment_status: 'PAID',
          sequence: 4,
          previous_payment_status: 'PENDING',
          payment_updated_at: ISO,
        },
      },
    ])
    // The buyer's business (its TIN is registered here) is told it received the invoice.
    expect(await eventsOf(DEV.buyer.businessId, irn)).toEqual([
      {
        id: EVENT_ID,
        created_at: ISO,
        business_id: DEV.buyer.businessId,
        type: 'invoice.received',
        data: {
          irn,
          status: 'TRANSMITTED',
          payment_status: 'PENDING',
          sequence: 3,
          transmitted_at: ISO,
          supplier_tin: DEV.supplier.tin,
          buyer_tin: DEV.buyer.tin,
        },
      },
    ])
    // Each event and its audit record were written together: same times, same count of changes.
    const audit = (await auditOfInvoice(irn)).filter((a) => a.type !== 'INVOICE_GENERATED')
    expect(audit.map((a) => a.at)).toEqual(supplier.map((e) => e.created_at))
  })

  it('records no event for a refused invoice, and none for an IRN only generated', async () => {
    const invoice = buildInvoice()
    const bad = { ...invoice, invoice_type_code: 'nope' }
    expect((await clients.app.post('/api/v1/app/invoice/sign', bad)).status).toBe(400)
    const [reference, serviceId] = invoice.irn.split('-')
    const generated = await clients.si.post('/api/v1/si/generate-irn', {
      invoice_number: reference,
      service_id: serviceId,
      business_id: DEV.supplier.businessId,
    })
    expect(generated.status).toBe(200)
    expect(await eventsOf(DEV.supplier.businessId, invoice.irn)).toEqual([])
  })
})
