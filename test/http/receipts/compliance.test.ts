import { gzipSync } from 'node:zlib'
import { Decimal } from 'decimal.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { keys } from '#lib/platform/db/keys.ts'
import { writeIf } from '#lib/platform/db/write.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { type DevClients, devClients, type TestModeClients, testModeClients } from '../../support/clients.ts'
import { b2cInvoice, registerTill } from '../../support/receipts.ts'

/** CONTRACT 23: GET /api/v1/compliance/report, JSON and CSV, every count from its own receipt. */

let api: TestApi
let live: DevClients
let test: TestModeClients
beforeAll(async () => {
  api = await startApi()
  live = devClients(api.url)
  test = testModeClients(api.url)
}, 120_000)
afterAll(async () => {
  await api?.close()
})

const HOUR = 3600 * 1000
const lagosDay = (ms: number) => new Date(ms + HOUR).toISOString().slice(0, 10)
const report = async (receipts: unknown[], client = live.si) =>
  (await client.post<any>('/api/v1/receipts', { receipts })).body.data as any[]

describe('GET /api/v1/compliance/report', () => {
  it('counts reported, on time, late, duplicates, forks, rejected, gaps and amounts per device and in total', async () => {
    const { till } = await registerTill(live.admin)
    const late = till.next({ issuedAt: new Date(Date.now() - 25 * HOUR).toISOString() })
    const onTime = till.next()
    const fork = till.next({
      invoice: b2cInvoice(),
      device: { counter: 2, prev_hash: onTime.device.prev_hash },
      advance: false,
    })
    till.next() // counter 3: never reported, a gap
    const fourth = till.next()
    const rejected = till.next({ invoice: { ...b2cInvoice(), invoice_kind: 'B2B' } })
    const statuses = (await report([late, onTime, fourth, rejected])).map((r) => r.status)
    expect(statuses).toEqual(['REPORTED', 'REPORTED', 'REPORTED', 'REJECTED'])
    expect(await report([fork, onTime])).toMatchObject([{ status: 'FORK' }, { status: 'DUPLICATE' }])
    const from = lagosDay(Date.now() - 25 * HOUR)
    const to = lagosDay(Date.now())
    const reply = await live.admin.get<any>(`/api/v1/compliance/report?from=${from}&to=${to}`)
    expect(reply.status).toBe(200)
    const payable = [late, onTime, fourth].reduce(
      (s, r) => s.plus(String(r.legal_monetary_total.payable_amount)),
      new Decimal(0),
    )
    const row = reply.body.data.devices.find((d: any) => d.device_id === till.deviceId)
    expect(row).toMatchObject({
      reported: 3,
      on_time: 2,
      late: 1,
      duplicates: 1,
      forks: 1,
      rejected: 1,
      gaps_open: 1,
      gaps_overdue: 0,
      payable_amount: payable.toFixed(2),
    })
    expect(reply.body.data.total.reported).toBeGreaterThanOrEqual(3)
    expect(Date.parse(reply.body.data.computed_at)).toBeGreaterThan(Date.now() - 60_000)
    // The day before holds the late one only.
    const before = await live.admin.get<any>(`/api/v1/compliance/report?from=${from}&to=${from}`)
    if (from !== to)
      expect(before.body.data.devices.find((d: any) => d.device_id === till.deviceId)).toMatchObject({
        reported: 1,
        late: 1,
      })

    const csv = await live.admin.get<any>(`/api/v1/compliance/report?from=${from}&to=${to}&format=csv`)
    expect(csv.status).toBe(200)
    expect(csv.headers.get('content-type')).toContain('text/csv')
    const lines = String(csv.text).trim().split('\r\n')
    expect(lines[0]).toBe(
      'device_id,name,status,reported,on_time,late,duplicates,forks,rejected,gaps_open,gaps_overdue,payable_amount,tax_amount',
    )
    expect(lines.find((l) => l.startsWith(till.deviceId))).toContain(',3,2,1,1,1,1,1,0,')
    expect(lines[lines.length - 1]!.startsWith('TOTAL,')).toBe(true)
  })

  it('sums a receipt stored before bodies were packed (its body gzipped) as it sums a packed one', async () => {
    const { till } = await registerTill(live.admin)
    const [old, packed] = [till.next(), till.next()]
    expect((await report([old, packed])).map((r) => r.status)).toEqual(['REPORTED', 'REPORTED'])
    // The first receipt's item as the code before lib/invoice/packed-json.ts wrote it.
    await writeIf({
      Update: {
        Key: keys.receipt(till.deviceId, old.device.counter),
        UpdateExpression: 'SET bodyGzip = :gz',
        ExpressionAttributeValues: { ':gz': new Uint8Array(gzipSync(JSON.stringify(old))) },
      },
    })
    const today = lagosDay(Date.now())
    const reply = await live.admin.get<any>(`/api/v1/compliance/report?from=${today}&to=${today}`)
    const payable = [old, packed].reduce(
      (s, r) => s.plus(String(r.legal_monetary_total.payable_amount)),
      new Decimal(0),
    )
    expect(reply.body.data.devices.find((d: any) => d.device_id === till.deviceId)).toMatchObject({
      reported: 2,
      payable_amount: payable.toFixed(2),
    })
  })

  it('neutralises a device name that starts a formula in the CSV', async () => {
    await registerTill(test.admin, 'Ed25519', '=HYPERLINK("x")')
    const day = lagosDay(Date.now())
    const csv = await test.admin.get<any>(`/api/v1/compliance/report?from=${day}&to=${day}&format=csv`)
    expect(csv.status).toBe(200)
    expect(csv.text).not.toMatch(/,=HYPERLINK/)
  })

  it('keeps test and live apart: a test key sees no live device', async () => {
    const { till } = await registerTill(live.admin)
    const day = lagosDay(Date.now())
    const reply = await test.admin.get<any>(`/api/v1/compliance/report?from=${day}&to=${day}`)
    expect(reply.body.data.devices.map((d: any) => d.device_id)).not.toContain(till.deviceId)
  })

  it('refuses a range that is not days, backwards or longer than 31 days (400 naming the member), and a key without ADMIN (403)', async () => {
    for (const [query, path] of [
      ['from=2026-01-01&to=2026-02-01', 'to'],
      ['from=2026-01-10&to=2026-01-09', 'to'],
      ['from=2026-02-30&to=2026-03-01', 'from'],
      ['from=yesterday&to=2026-01-01', 'from'],
    ] as const) {
      const reply = await live.admin.get<any>(`/api/v1/compliance/report?${query}`)
      expect(reply.status, query).toBe(400)
      expect(JSON.stringify(reply.body)).toContain(`"path":"query/${path}"`)
    }
    expect(
      (await live.admin.get<any>('/api/v1/compliance/report?from=2026-01-01&to=2026-01-31')).status,
    ).toBe(200)
    expect((await live.si.get<any>('/api/v1/compliance/report?from=2026-01-01&to=2026-01-02')).status).toBe(
      403,
    )
  })
})
