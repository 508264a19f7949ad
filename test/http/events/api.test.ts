import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { issueApiClient } from '#lib/platform/auth/credentials.ts'
import { buildInvoice } from '../../fixtures/invoices/build.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import {
  areaAClient,
  DEV,
  type DevClients,
  devClients,
  type TestModeClients,
  testModeClients,
} from '../../support/clients.ts'
import {
  type EventReceiver,
  eventually,
  startEventReceiver,
} from '../../support/standard-webhook-receiver.ts'

/**
 * The events API (CONTRACT 21): a business's events listed and fetched, as their deliveries carry
 * them, in the caller's business and mode only; `sequence` on every invoice event.
 */
let api: TestApi
let live: DevClients
let test: TestModeClients
let otherAdmin: ReturnType<typeof areaAClient>
let receiver: EventReceiver
let irn: string
let since: string
beforeAll(async () => {
  api = await startApi({ workers: true })
  live = devClients(api.url)
  test = testModeClients(api.url)
  await issueApiClient({
    apiKey: 'events-other-admin',
    secret: 'events-other-admin-secret',
    businessId: DEV.other.businessId,
    roles: ['ADMIN'],
  })
  otherAdmin = areaAClient(api.url, { apiKey: 'events-other-admin', secret: 'events-other-admin-secret' })
  receiver = await startEventReceiver()
  const sub = await live.admin.post<any>('/api/v1/webhooks', {
    url: receiver.url,
    events: ['invoice.signed'],
  })
  expect(sub.status).toBe(201)
  receiver.secret = sub.body.data.secret

  // One invoice through three changes: validated, signed, paid.
  since = new Date(Date.now() - 1000).toISOString()
  const invoice = buildInvoice()
  irn = invoice.irn
  expect((await live.si.post('/api/v1/si/validate', invoice)).status).toBe(200)
  expect((await live.app.post('/api/v1/app/invoice/sign', invoice)).status).toBe(200)
  expect(
    (await live.app.request('PATCH', `/api/v1/app/invoice/update/${irn}`, { payment_status: 'PAID' })).status,
  ).toBe(200)
})
afterAll(async () => {
  await api?.close()
  await receiver?.close()
})

const list = async (query: string, client = live.admin) => {
  const reply = await client.get<any>(`/api/v1/events?${query}`)
  expect(reply.status, JSON.stringify(reply.body)).toBe(200)
  return reply.body.data as { content: any[]; page: { size: number; next_cursor: string | null } }
}
const ofInvoice = (events: any[]) => events.filter((e) => e.data.irn === irn)

describe('GET /api/v1/events', () => {
  it("lists the business's events newest first, read-after-write, with sequence growing per invoice", async () => {
    const { content, page } = await list(`since=${since}&size=200`)
    expect(page.next_cursor).toBeNull()
    const mine = ofInvoice(content)
    expect(mine.map((e) => e.type)).toEqual([
      'invoice.payment_status_changed',
      'invoice.signed',
      'invoice.validated',
    ])
    expect(mine.map((e) => e.data.sequence)).toEqual([3, 2, 1])
    for (const e of content) expect(e.business_id).toBe(DEV.supplier.businessId)
    const times = content.map((e) => e.created_at)
    expect([...times].sort().reverse()).toEqual(times)
  })

  it('filters by type, since and until (inclusive)', async () => {
    const all = ofInvoice((await list(`since=${since}&size=200`)).content)
    const signed = all.find((e) => e.type === 'invoice.signed')!
    const onlySigned = (await list(`type=invoice.signed&since=${since}`)).content
    expect(onlySigned.every((e) => e.type === 'invoice.signed')).toBe(true)
    expect(ofInvoice(onlySigned).map((e) => e.id)).toEqual([signed.id])
    const untilSigned = ofInvoice((await list(`since=${since}&until=${signed.created_at}&size=200`)).content)
    expect(untilSigned.map((e) => e.type)).toEqual(['invoice.signed', 'invoice.validated'])
    const fromSigned = ofInvoice(
      (await list(`since=${encodeURIComponent(signed.created_at)}&size=200`)).content,
    )
    expect(fromSigned.map((e) => e.type)).toEqual(['invoice.payment_status_changed', 'invoice.signed'])
    // An offset is read as the instant it names.
    const withOffset = new Date(Date.parse(signed.created_at) + 3_600_000)
      .toISOString()
      .replace('Z', '+01:00')
    const sameInstant = ofInvoice((await list(`since=${encodeURIComponent(withOffset)}&size=200`)).content)
    expect(sameInstant.map((e) => e.id)).toEqual(fromSigned.map((e) => e.id))
  })

  it('pages by cursor: every event once, in order, size at a time', async () => {
    const whole = (await list(`since=${since}&size=200`)).content.map((e) => e.id)
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page: any = await list(`since=${since}&size=1${cursor ? `&cursor=${cursor}` : ''}`)
      expect(page.content.length).toBeLessThanOrEqual(1)
      seen.push(...page.content.map((e: { id: string }) => e.id))
      cursor = page.page.next_cursor
    } while (cursor)
    expect(seen).toEqual(whole)
  })

  it('refuses bad filters, sizes and cursors with 400, never 5xx', async () => {
    for (const query of [
      'type=invoice.nope',
      'since=yesterday',
      'until=2026-13-45T00:00:00Z',
      'size=0',
      'size=201',
      'cursor=not-a-cursor',
      'since=2026-11-02T00:00:00Z&until=2026-11-01T00:00:00Z',
    ]) {
      const reply = await live.admin.get<any>(`/api/v1/events?${query}`)
      expect(reply.status, query).toBe(400)
    }
    expect((await live.app.get<any>('/api/v1/events')).status).toBe(403)
  })

  it("shows no other business's or mode's events", async () => {
    expect(ofInvoice((await list(`since=${since}&size=200`, otherAdmin)).content)).toEqual([])
    expect(ofInvoice((await list(`since=${since}&size=200`, test.admin)).content)).toEqual([])
  })
})

describe('GET /api/v1/events/{id}', () => {
  it('returns the event exactly as its delivery carried it', async () => {
    const delivered = await eventually(() => {
      const found = receiver.received.find((e) => e.event.data.irn === irn)
      expect(found).toBeDefined()
      return found!
    })
    const reply = await live.admin.get<any>(`/api/v1/events/${delivered.id}`)
    expect(reply.status).toBe(200)
    expect(reply.body.data).toEqual(JSON.parse(delivered.body))
    expect(reply.body.data.data.sequence).toBe(2)
  })

  it("answers 404 for another business's or mode's event, 400 for a malformed id", async () => {
    const [event] = ofInvoice((await list(`since=${since}&size=200`)).content)
    expect((await otherAdmin.get<any>(`/api/v1/events/${event.id}`)).status).toBe(404)
    expect((await test.admin.get<any>(`/api/v1/events/${event.id}`)).status).toBe(404)
    expect((await live.admin.get<any>('/api/v1/events/evt_nope')).status).toBe(400)
  })
})
