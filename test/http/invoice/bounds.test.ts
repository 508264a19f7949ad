import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildInvoice } from '../../fixtures/invoices/build.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { type DevClients, devClients } from '../../support/clients.ts'

/**
 * CONTRACT 18, bounded replies: at most 100 errors and 100 warnings, then `truncated` with the counts
 * left out; `details` no longer a second copy of every problem; a reply whose first version was
 * signed and kept under an Idempotency-Key always fits its record. Bounded items: a value too long
 * to store is a 400 naming its field, before anything is written (the route fuzz test sends one to
 * every field of every write route).
 */

let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(() => api?.close())

/** The reply bound (CONTRACT 18): no reply over 1 MiB; these stay far under it. */
const MiB = 1024 * 1024

/** A valid invoice with `count` unknown top-level keys, each `length` characters long. */
function withUnknownKeys(count: number, length: number) {
  const invoice: Record<string, unknown> = buildInvoice()
  for (let i = 0; i < count; i++) invoice[`x${String(i).padStart(length - 1, '0')}`] = 1
  return invoice as ReturnType<typeof buildInvoice>
}

describe('POST /api/{v}/app/invoice/validate', () => {
  it('answers 20,000 empty lines with at most 100 errors, the rest counted in truncated', async () => {
    const invoice = { ...buildInvoice(), invoice_line: Array.from({ length: 20_000 }, () => ({})) }
    const reply = await clients.app.post<any>('/api/v1/app/invoice/validate', invoice)
    expect(reply.status).toBe(400)
    expect(reply.body.errors).toHaveLength(100)
    expect(reply.body.errors[0]).toMatchObject({ path: 'invoice_line/0/discount_rate', code: 'NG-SC-01' })
    // Validation stopped looking past the bound: at least one more was found, never all 160,000.
    expect(reply.body.truncated.errors).toBeGreaterThan(0)
    expect(reply.body.truncated.warnings).toBe(0)
    expect(reply.body.message).toMatch(/more than 100 problems found; the first 100 are listed/)
    // details reads the first ten and says how many more errors lists; it no longer repeats them all.
    expect(reply.body.details.split('; ')).toHaveLength(11)
    expect(reply.body.details).toMatch(/; and at least \d+ more \(see errors\)$/)
    expect(reply.text.length).toBeLessThan(64 * 1024)
  })

  it('lists at most 20 ignored keys beside a refusal (CONTRACT 17), and counts the rest', async () => {
    const invoice = { ...withUnknownKeys(500, 8), issue_date: 'not a date' }
    const reply = await clients.app.post<any>('/api/v1/app/invoice/validate', invoice)
    expect(reply.status).toBe(400)
    expect(reply.body.errors.map((p: { path: string }) => p.path)).toEqual(['issue_date'])
    expect(reply.body.warnings).toHaveLength(20)
    expect(reply.body.truncated).toEqual({ errors: 0, warnings: 480 })
  })
})

describe('POST /api/{v}/app/invoice/sign', () => {
  it('signs with at most 100 warnings and counts the unknown keys it did not list', async () => {
    const reply = await clients.app.post<any>('/api/v1/app/invoice/sign', withUnknownKeys(5_000, 8))
    expect(reply.status).toBe(200)
    expect(reply.body.warnings).toHaveLength(100)
    expect(reply.body.warnings[0]).toMatchObject({ code: 'NG-UK-01', path: 'x0000000' })
    expect(reply.body.truncated).toEqual({ errors: 0, warnings: 4_900 })
  })

  it('keeps the reply of a sign with huge unknown keys under its Idempotency-Key, and replays it', async () => {
    // 100 keys of 8,000 characters: each warning once quoted its key twice (path and message), a
    // reply of 1.6 MB that no idempotency record could hold, so the signed invoice answered 500.
    const invoice = withUnknownKeys(100, 8_000)
    const headers = { 'idempotency-key': `bounded-${invoice.irn}` }
    const first = await clients.app.post<any>('/api/v1/app/invoice/sign', invoice, headers)
    expect(first.status).toBe(200)
    expect(first.body.warnings).toHaveLength(100)
    expect(first.body.warnings[0].path).toMatch(/^x0{252}\.\.\.$/)
    expect(first.text.length).toBeLessThan(MiB)
    const again = await clients.app.post<any>('/api/v1/app/invoice/sign', invoice, headers)
    expect(again.status).toBe(200)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(again.body).toEqual(first.body)
  })

  it('refuses a 420 KB buyer name with 400 naming the field, and writes nothing', async () => {
    const invoice = buildInvoice()
    invoice.accounting_customer_party!.party_name = 'B'.repeat(420 * 1024)
    const reply = await clients.app.post<any>('/api/v1/app/invoice/sign', invoice)
    expect(reply.status).toBe(400)
    expect(reply.body.errors).toEqual([
      {
        path: 'accounting_customer_party/party_name',
        code: 'NG-SC-04',
        message: `must be at most 4096 characters long (received ${420 * 1024})`,
      },
    ])
    const after = await clients.app.get<any>(`/api/v1/app/invoice/confirm/${invoice.irn}`)
    expect(after.status).toBe(404)
  })
})
