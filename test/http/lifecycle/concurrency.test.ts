import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApi, type TestApi } from '../../support/api.ts'
import { DEV, type DevClients, devClients } from '../../support/clients.ts'
import { putSignedInvoice } from '../../support-invoices/invoices.ts'
import {
  envelope,
  failedEnvelope,
  freshInvoiceNumber,
  parallelClient,
} from '../../support-invoices/requests.ts'

let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(() => api?.close())

const unknownIrn = () => `${freshInvoiceNumber()}-94ND90NR-20261121`

describe.each(['v1', 'v2'])('PATCH /api/%s/app/invoice/update/{irn}', (version) => {
  const update = (irn: string, body: unknown, client = clients.app) =>
    client.request('PATCH', `/api/${version}/app/invoice/update/${irn}`, body)
  const paymentStatus = async (irn: string) =>
    ((await clients.app.get(`/api/${version}/app/invoice/confirm/${irn}`)).body as any).data.payment_status

  it('moves PENDING to PAID, then refuses PAID to REJECTED with 409', async () => {
    const { irn } = await putSignedInvoice()
    const paid = await update(irn, { payment_status: 'PAID' })
    expect(paid.status).toBe(200)
    expect(paid.body).toEqual(
      envelope(
        { message: `Payment status of ${irn} changed from PENDING to PAID` },
        'Payment status updated',
      ),
    )
    const rejected = await update(irn, { payment_status: 'REJECTED' })
    expect(rejected.status).toBe(409)
    expect(rejected.body).toEqual(
      failedEnvelope(
        '409 CONFLICT',
        `Payment status of ${irn} is PAID, which is final: it cannot change to REJECTED`,
      ),
    )
    expect(await paymentStatus(irn)).toBe('PAID')
  })

  it('answers the same value again with a no-op 200', async () => {
    const { irn } = await putSignedInvoice()
    await update(irn, { payment_status: 'PAID' })
    const again = await update(irn, { payment_status: 'PAID' })
    expect(again.status).toBe(200)
    expect(again.body).toEqual(
      envelope(
        { message: `Payment status of ${irn} is already PAID; nothing changed` },
        'Payment status unchanged',
      ),
    )
    const pending = await putSignedInvoice()
    expect(((await update(pending.irn, { payment_status: 'PENDING' })).body as any).data.message).toMatch(
      /already PENDING/,
    )
  })

  it('refuses to leave REJECTED (409), back to PENDING included', async () => {
    const { irn } = await putSignedInvoice()
    expect((await update(irn, { payment_status: 'REJECTED' })).status).toBe(200)
    for (const target of ['PENDING', 'PAID']) {
      const reply: any = await update(irn, { payment_status: target })
      expect(reply.status).toBe(409)
      expect(reply.body.message).toBe(
        `Payment status of ${irn} is REJECTED, which is final: it cannot change to ${target}`,
      )
    }
  })

  it.each([
    [0, 'REJECTED'],
    [2, 'PAID'],
    ['0', 'REJECTED'],
    ['2', 'PAID'],
  ])('accepts the numeric code %j as %s, and stores the name', async (code, name) => {
    const { irn } = await putSignedInvoice()
    expect((await update(irn, { payment_status: code })).status).toBe(200)
    expect(await paymentStatus(irn)).toBe(name)
  })

  it("accepts the authority sample's body, ignoring its free-text reference", async () => {
    const { irn } = await putSignedInvoice()
    const reply = await update(irn, { payment_status: 'PAID', reference: 'payment_reference_or_note' })
    expect(reply.status).toBe(200)
  })

  it.each([
    ['an unknown name', { payment_status: 'CANCELLED' }],
    ['lower case', { payment_status: 'paid' }],
    ['code 3', { payment_status: 3 }],
    ['nothing', {}],
  ])('answers 400 for payment_status as %s', async (_, body) => {
    const { irn } = await putSignedInvoice()
    const reply = await update(irn, body)
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(
      failedEnvelope('400 BAD_REQUEST', /invalid/, [
        {
          path: 'payment_status',
          code: 'payment_status' in body ? 'FIELD_VALUE' : 'FIELD_REQUIRED',
          message: 'payment_status must be PENDING, PAID or REJECTED (or the codes 1, 2, 0)',
        },
      ]),
    )
    expect(await paymentStatus(irn)).toBe('PENDING')
  })

  it('answers 404 to a business that is not the supplier, the buyer included, and for an unknown IRN', async () => {
    const { irn } = await putSignedInvoice()
    for (const client of [clients.buyer, clients.other]) {
      const reply = await update(irn, { payment_status: 'PAID' }, client)
      expect(reply.status).toBe(404)
      expect(reply.body).toEqual(failedEnvelope('404 NOT_FOUND', `No invoice ${irn} for your business`))
    }
    expect((await update(unknownIrn(), { payment_status: 'PAID' })).status).toBe(404)
    expect(await paymentStatus(irn)).toBe('PENDING')
  })

  it('answers 400 for a malformed IRN in the path', async () => {
    const reply: any = await update('INV-1', { payment_status: 'PAID' })
    expect(reply.status).toBe(400)
    expect(reply.body.error.errors).toEqual([
      { path: 'path/irn', code: 'FIELD_FORMAT', message: expect.any(String) },
    ])
  })
})

describe('update under concurrency', () => {
  it('lets exactly one of 10 parallel conflicting updates win', async () => {
    const { irn } = await putSignedInvoice()
    const app = parallelClient(api.url, DEV.clients.app)
    const targets = Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? 'PAID' : 'REJECTED'))
    const replies = await Promise.all(
      targets.map((payment_status) => app.patch(`/api/v1/app/invoice/update/${irn}`, { payment_status })),
    )
    const winners = replies.filter(
      (r) => r.status === 200 && /changed from PENDING/.test(r.body.data.message),
    )
    expect(winners).toHaveLength(1)
    const final = ((await clients.app.get(`/api/v1/app/invoice/confirm/${irn}`)).body as any).data
      .payment_status
    replies.forEach((reply, i) => {
      // The winner's value again is a no-op 200; the other value is a 409 against the final state.
      if (targets[i] === final) expect(reply.status).toBe(200)
      else expect(reply.status).toBe(409)
    })
    expect(winners[0]!.body.data.message).toBe(`Payment status of ${irn} changed from PENDING to ${final}`)
  })
})

describe.each(['v1', 'v2'])('GET /api/%s/app/invoice/confirm/{irn}', (version) => {
  const confirm = (irn: string, client = clients.app) =>
    client.get(`/api/${version}/app/invoice/confirm/${irn}`)

  it('returns the lifecycle of a signed invoice', async () => {
    const record = await putSignedInvoice()
    const reply = await confirm(record.irn)
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(
      envelope(
        {
          irn: record.irn,
          status: 'SIGNED',
          payment_status: 'PENDING',
          business_id: DEV.supplier.businessId,
          validated_at: record.validatedAt,
          signed_at: record.signedAt,
          transmitted_at: null,
          received_at: null,
          reference: null,
        },
        `Invoice ${record.irn} is SIGNED`,
      ),
    )
  })

  it('returns nulls for the steps a GENERATED invoice has not reached', async () => {
    const generated: any = await clients.si.post(`/api/${version}/si/generate-irn`, {
      invoice_number: freshInvoiceNumber(),
      service_id: DEV.supplier.serviceId,
      business_id: DEV.supplier.businessId,
    })
    const reply: any = await confirm(generated.body.irn)
    expect(reply.body.data).toEqual({
      irn: generated.body.irn,
      status: 'GENERATED',
      payment_status: 'PENDING',
      business_id: DEV.supplier.businessId,
      validated_at: null,
      signed_at: null,
      transmitted_at: null,
      received_at: null,
      reference: null,
    })
  })

  it('answers 404 for an IRN of another business, the buyer included, and for an unknown IRN', async () => {
    const { irn } = await putSignedInvoice()
    for (const client of [clients.buyer, clients.other]) {
      const reply = await confirm(irn, client)
      expect(reply.status).toBe(404)
      expect(reply.body).toEqual(failedEnvelope('404 NOT_FOUND', `No invoice ${irn} for your business`))
    }
    expect((await confirm(unknownIrn())).status).toBe(404)
  })

  it('is not an SI endpoint (403)', async () => {
    expect((await confirm(unknownIrn(), clients.si)).status).toBe(403)
  })
})

describe.each(['v1', 'v2'])('GET /api/%s/si/get-invoice/{irn}', (version) => {
  const pull = (irn: string, client = clients.buyer) => client.get(`/api/${version}/si/get-invoice/${irn}`)

  it('lets the buyer pull a signed invoice in the A.7 shape', async () => {
    const record = await putSignedInvoice()
    const reply = await pull(record.irn)
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(
      envelope(
        {
          ...record.invoice,
          irn: record.irn,
          payment_status: 'PENDING',
          // No credit or debit note names it yet (CONTRACT 16).
          adjustments: {
            credited: 0,
            debited: 0,
            remaining: (record.invoice as any).legal_monetary_total.payable_amount,
            notes: [],
          },
        },
        `Invoice ${record.irn}`,
      ),
    )
    const data = (reply.body as any).data
    expect(data.accounting_customer_party.tin).toBe(DEV.buyer.tin)
    expect(data.accounting_supplier_party).toMatchObject({ tin: DEV.supplier.tin, email: DEV.supplier.email })
  })

  it('lets the supplier pull it too, and a TRANSMITTED invoice as well', async () => {
    const record = await putSignedInvoice({ status: 'TRANSMITTED' })
    expect((await pull(record.irn, clients.si)).status).toBe(200)
    expect((await pull(record.irn, clients.buyer)).status).toBe(200)
  })

  it('shows CANCELLED where the stored payment status is REJECTED, and the current status otherwise', async () => {
    const rejected = await putSignedInvoice()
    await clients.app.request('PATCH', `/api/${version}/app/invoice/update/${rejected.irn}`, {
      payment_status: 'REJECTED',
    })
    expect(((await pull(rejected.irn)).body as any).data.payment_status).toBe('CANCELLED')
    const paid = await putSignedInvoice({ paymentStatus: 'PAID' })
    expect(((await pull(paid.irn)).body as any).data.payment_status).toBe('PAID')
  })

  it('answers 404 to a third business', async () => {
    const { irn } = await putSignedInvoice()
    const reply = await pull(irn, clients.other)
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual(
      failedEnvelope('404 NOT_FOUND', `No invoice ${irn} is available to your business`),
    )
  })

  it('answers 404 before the invoice is SIGNED: the same 404 to the buyer, the state to the supplier', async () => {
    const { irn } = await putSignedInvoice({ status: 'VALIDATED' })
    const buyer = await pull(irn)
    expect(buyer.status).toBe(404)
    expect(buyer.body).toEqual(
      failedEnvelope('404 NOT_FOUND', `No invoice ${irn} is available to your business`),
    )
    const supplier = await pull(irn, clients.si)
    expect(supplier.status).toBe(404)
    expect(supplier.body).toEqual(
      failedEnvelope('404 NOT_FOUND', `Invoice ${irn} is VALIDATED: it can be pulled once it is SIGNED`),
    )
  })

  it('answers 404 for an unknown IRN', async () => {
    const irn = unknownIrn()
    expect((await pull(irn)).body).toEqual(
      failedEnvelope('404 NOT_FOUND', `No invoice ${irn} is available to your business`),
    )
  })

  it('is not an APP endpoint (403)', async () => {
    expect((await pull(unknownIrn(), clients.app)).status).toBe(403)
  })
})
