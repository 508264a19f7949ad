import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApi, type TestApi } from '../../support/api.ts'
import { DEV, type DevClients, devClients } from '../../support/clients.ts'
import { envelope, failedEnvelope, parallelClient } from '../../support-invoices/requests.ts'

let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(() => api?.close())

// Each test uses its own code, so the counters of the v1 and v2 runs never meet.
describe.each([
  ['v1', 'AB'],
  ['v2', 'XY'],
])('POST /api/%s/si/generate-invoice-number', (version, letters) => {
  const path = `/api/${version}/si/generate-invoice-number`

  it('formats code + serial_number zero-padded to 6 in the Envelope', async () => {
    const reply = await clients.si.post(path, { code: 'INV', serial_number: 42 })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(envelope({ invoice_number: 'INV000042' }, 'Invoice number generated'))
  })

  it('keeps every digit of a serial number longer than 6', async () => {
    const reply: any = await clients.si.post(path, { code: 'INV', serial_number: 12345678 })
    expect(reply.body.data).toEqual({ invoice_number: 'INV12345678' })
  })

  it('defaults the code to INV', async () => {
    const reply: any = await clients.si.post(path, { serial_number: 7 })
    expect(reply.body.data).toEqual({ invoice_number: 'INV000007' })
  })

  it('counts 1, 2, 3 per code without serial_number, separately for each business', async () => {
    const code = `${letters}CA`
    const numbers = []
    for (let i = 0; i < 3; i++)
      numbers.push(((await clients.si.post(path, { code })).body as any).data.invoice_number)
    expect(numbers).toEqual([`${code}000001`, `${code}000002`, `${code}000003`])
    const otherCode: any = await clients.si.post(path, { code: `${letters}CB` })
    expect(otherCode.body.data.invoice_number).toBe(`${letters}CB000001`)
    const otherBusiness: any = await clients.buyer.post(path, { code })
    expect(otherBusiness.body.data.invoice_number).toBe(`${code}000001`)
  })

  it('does not move the counter for an explicit serial_number', async () => {
    const code = `${letters}EX`
    await clients.si.post(path, { code, serial_number: 500 })
    const reply: any = await clients.si.post(path, { code })
    expect(reply.body.data.invoice_number).toBe(`${code}000001`)
  })

  it.each([
    ['one letter', { code: 'I' }, 'code'],
    ['six letters', { code: 'INVOIC' }, 'code'],
    ['lower case', { code: 'inv' }, 'code'],
    ['digits', { code: 'IN1' }, 'code'],
    ['serial_number 0', { serial_number: 0 }, 'serial_number'],
    ['a negative serial_number', { serial_number: -3 }, 'serial_number'],
    ['a fractional serial_number', { serial_number: 1.5 }, 'serial_number'],
    ['a string serial_number', { serial_number: '42' }, 'serial_number'],
  ])('answers 400 for %s', async (_, body, field) => {
    const reply = await clients.si.post(path, body)
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(
      failedEnvelope('400 BAD_REQUEST', /invalid/, [
        { path: field, code: expect.any(String), message: expect.stringContaining(field) },
      ]),
    )
  })
})

describe('generate-invoice-number under concurrency', () => {
  it('gives 50 parallel requests 50 distinct numbers with no gaps', async () => {
    const si = parallelClient(api.url, DEV.clients.si)
    const replies = await Promise.all(
      Array.from({ length: 50 }, () => si.post('/api/v1/si/generate-invoice-number', { code: 'PAR' })),
    )
    expect(replies.map((r) => r.status)).toEqual(Array(50).fill(200))
    const numbers = replies.map((r) => r.body.data.invoice_number as string).sort()
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => `PAR${String(i + 1).padStart(6, '0')}`))
  })
})
