import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventsOfBusiness } from '#lib/events/event.ts'
import { newIrn } from '../../fixtures/invoices/build.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { DEV, type DevClients, devClients } from '../../support/clients.ts'
import { invoiceOfUnits, noteOf, otherBusinessInvoice } from '../../support-invoices/notes.ts'

/** CONTRACT 16: credit and debit notes bound to their original, at sign and under concurrency. */

let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(() => api?.close())

const sign = (body: unknown, client: 'app' | 'other' = 'app') =>
  clients[client].post<any>('/api/v1/app/invoice/sign', body)
const pull = (irn: string) => clients.si.get<any>(`/api/v1/si/get-invoice/${irn}`)

async function signed<T extends Record<string, any>>(
  body: T,
): Promise<T & { irn: string; issue_date: string }> {
  const reply = await sign(body)
  expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  return body as T & { irn: string; issue_date: string }
}

/** Runs the tasks with at most `limit` of them in flight; their results in order. */
async function inFlight<T>(limit: number, tasks: (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = []
  let next = 0
  const lane = async () => {
    while (next < tasks.length) {
      const i = next++
      results[i] = await tasks[i]!()
    }
  }
  await Promise.all(Array.from({ length: limit }, lane))
  return results
}

const refusal = (code: string, path: string, message: unknown = expect.any(String)) =>
  expect.objectContaining({
    errors: [expect.objectContaining({ code, path, message })],
  })

describe('POST /api/{v}/app/invoice/sign: credit and debit notes (CONTRACT 16)', () => {
  it('refuses a credit note over what remains, naming the remaining amount (NG-BR-04)', async () => {
    const original = await signed(invoiceOfUnits(4)) // payable 430.00
    await signed(noteOf(original, 3)) // 322.50 credited, 107.50 remains
    const over = await sign(noteOf(original, 2)) // 215.00
    expect(over.status).toBe(400)
    expect(JSON.stringify(over.body)).toContain('NG-BR-04')
    expect(over.body).toEqual(
      refusal(
        'NG-BR-04',
        'legal_monetary_total/payable_amount',
        expect.stringContaining('107.50 that remains'),
      ),
    )
    // Nothing of the refused note was recorded against the original.
    expect((await pull(original.irn)).body.data.adjustments).toEqual({
      credited: 322.5,
      debited: 0,
      remaining: 107.5,
      notes: [{ irn: expect.any(String), invoice_type_code: '380', amount: 322.5, issue_date: '2026-11-21' }],
    })
  })

  it('reads a fully credited original as CANCELLED, with every note in its adjustments, and sends invoice.credited', async () => {
    const original = await signed(invoiceOfUnits(3)) // 322.50
    const before = await pull(original.irn)
    expect(before.body.data.payment_status).toBe('PENDING')
    expect(before.body.data.adjustments).toEqual({ credited: 0, debited: 0, remaining: 322.5, notes: [] })

    const debit = await signed(noteOf(original, 1, '384'))
    const first = await signed(noteOf(original, 1, '393'))
    const second = await signed(noteOf(original, 2))
    const after = await pull(original.irn)
    expect(after.status).toBe(200)
    expect(after.body.data.payment_status).toBe('CANCELLED')
    expect(after.body.data.adjustments).toEqual({
      credited: 322.5,
      debited: 107.5,
      remaining: 0,
      notes: [
        { irn: debit.irn, invoice_type_code: '384', amount: 107.5, issue_date: '2026-11-21' },
        { irn: first.irn, invoice_type_code: '393', amount: 107.5, issue_date: '2026-11-21' },
        { irn: second.irn, invoice_type_code: '380', amount: 215, issue_date: '2026-11-21' },
      ],
    })
    // Nothing remains: even the smallest further credit note is refused.
    expect((await sign(noteOf(original, 1))).body).toEqual(
      refusal(
        'NG-BR-04',
        'legal_monetary_total/payable_amount',
        expect.stringContaining('0.00 that remains'),
      ),
    )

    const credited = (await eventsOfBusiness(DEV.supplier.businessId)).filter(
      (e) => e.type === 'invoice.credited' && e.data.irn === original.irn,
    )
    expect(credited.map((e) => e.data)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ irn: original.irn, credit_note_irn: first.irn, amount: 107.5 }),
        expect.objectContaining({ irn: original.irn, credit_note_irn: second.irn, amount: 215 }),
      ]),
    )
    expect(credited).toHaveLength(2)
  })

  it('signing the same credit note again is its first reply again and credits once', async () => {
    const original = await signed(invoiceOfUnits(2))
    const note = noteOf(original, 1)
    const first = await sign(note)
    const again = await sign(note)
    expect(again.body).toEqual(first.body)
    expect((await pull(original.irn)).body.data.adjustments.credited).toBe(107.5)
  })

  it.each([
    [
      'an IRN never signed',
      () => ({ irn: newIrn(DEV.supplier.serviceId, '20261101'), issue_date: '2026-11-01' }),
    ],
  ])('refuses a note naming %s (NG-BR-03)', async (_, target) => {
    const reply = await sign(noteOf(target(), 1))
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(refusal('NG-BR-03', 'billing_reference/0/irn'))
  })

  it("refuses a note naming another business's invoice exactly as an unknown one (NG-BR-03)", async () => {
    const foreign = otherBusinessInvoice(2)
    expect((await sign(foreign, 'other')).status).toBe(200)
    for (const type of ['380', '384'] as const) {
      const reply = await sign(noteOf(foreign, 1, type))
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual(refusal('NG-BR-03', 'billing_reference/0/irn'))
    }
  })

  it('refuses a note naming an invoice only validated, not signed (NG-BR-03)', async () => {
    const validated = invoiceOfUnits(1)
    expect((await clients.si.post<any>('/api/v1/si/validate', validated)).status).toBe(200)
    expect((await sign(noteOf(validated, 1))).body).toEqual(refusal('NG-BR-03', 'billing_reference/0/irn'))
  })

  it('never over-credits under 200 parallel credit notes against one original', async () => {
    const original = await signed(invoiceOfUnits(50)) // 5,375.00: room for exactly 50 notes of 107.50
    // 200 notes, 40 in flight at any moment: each decided on a read that concurrent notes make stale
    // (the local server runs every function in this one process; more at once only times them out).
    const replies = await inFlight(
      40,
      Array.from({ length: 200 }, () => () => sign(noteOf(original, 1))),
    )
    const statuses = replies.map((r) => r.status)
    const accepted = statuses.filter((s) => s === 200).length
    // Each is accepted, refused for what remains, or told to retry: nothing else.
    for (const reply of replies) {
      if (reply.status === 400) expect(JSON.stringify(reply.body)).toContain('NG-BR-04')
      else expect([200, 409]).toContain(reply.status)
    }
    expect(accepted).toBeLessThanOrEqual(50)
    expect(accepted).toBeGreaterThan(0)
    const { adjustments, payment_status } = (await pull(original.irn)).body.data
    expect(adjustments.notes).toHaveLength(accepted)
    expect(adjustments.credited).toBe(accepted * 107.5)
    expect(adjustments.credited).toBeLessThanOrEqual(5375)
    expect(payment_status).toBe(accepted === 50 ? 'CANCELLED' : 'PENDING')
  }, 120_000)
})
