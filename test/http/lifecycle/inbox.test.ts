import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { eventsOfBusiness } from '#lib/events/event.ts'
import { issueApiClient } from '#lib/platform/auth/credentials.ts'
import { inMode } from '#lib/platform/mode.ts'
import type { ApiClient } from '#client/api-client.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { areaAClient, DEV, type DevClients, devClients, testModeClients } from '../../support/clients.ts'
import { type ReadMeter, startReadMeter } from '../../support/dynamo-read-meter.ts'
import { putSignedInvoice } from '../../support-invoices/invoices.ts'

/**
 * The buyer's side of the exchange (CONTRACT 17), on the authority's paths: confirm receipt, the
 * exchange record and the inbox (transmit/pull), and update's `reference`. The API talks to DynamoDB
 * through a counting proxy (test/support/dynamo-read-meter.ts) that counts the items read under the
 * inbox's keys, so each pull page is held to size + 1 items.
 */
let meter: ReadMeter
let api: TestApi
let clients: DevClients
let sandbox: ReturnType<typeof testModeClients>
/** The buyer's business in test mode: a key of its own, issued here. */
let sandboxBuyer: ApiClient
beforeAll(async () => {
  meter = await startReadMeter(inject('dynamoEndpoint'), 'INBOX#')
  api = await startApi({ dynamoEndpoint: meter.endpoint })
  clients = devClients(api.url)
  sandbox = testModeClients(api.url)
  const credentials = { apiKey: 'inbox-test-buyer', secret: 'inbox-test-buyer-secret' }
  await issueApiClient({
    ...credentials,
    businessId: DEV.buyer.businessId,
    roles: ['SI', 'APP'],
    mode: 'test',
  })
  sandboxBuyer = areaAClient(api.url, credentials)
})
afterAll(async () => {
  await api?.close()
  await meter?.close()
})

const receipt = (irn: string, client: ApiClient = clients.buyer) =>
  client.request<any>('PATCH', `/api/v1/invoice/transmit/${irn}`)
const lookup = (irn: string, client: ApiClient = clients.buyer) =>
  client.get<any>(`/api/v1/invoice/transmit/lookup/${irn}`)
const update = (irn: string, body: Record<string, unknown>, path = `/api/v1/invoice/update/${irn}`) =>
  clients.app.request<any>('PATCH', path, body)
const confirm = async (irn: string, client: ApiClient = clients.app) =>
  (await client.get<any>(`/api/v1/invoice/confirm/${irn}`)).body.data

/** A signed invoice of the supplier to DEV.buyer, transmitted through the authority's path. */
async function transmitted(client: ApiClient = clients.app, mode: 'live' | 'test' = 'live'): Promise<string> {
  const { irn } = await inMode(mode, () => putSignedInvoice())
  const reply = await client.post<any>(`/api/v1/invoice/transmit/${irn}`, undefined)
  expect(reply.status, reply.text).toBe(200)
  return irn
}

/** The problems of a 400, whichever record the path answers in. */
const problemsOf = (body: any): { path: string }[] =>
  body.errors ?? body.error?.errors ?? body.error?.details ?? []

describe('PATCH /api/v1/invoice/transmit/{irn}', () => {
  it('records received_at, shown by confirm and lookup, and sends invoice.receipt_confirmed to the supplier once', async () => {
    const irn = await transmitted()
    expect((await confirm(irn)).received_at).toBeNull()
    const first = await receipt(irn)
    expect(first.status, first.text).toBe(200)
    expect(first.body.data).toMatchObject({ irn, status: 'TRANSMITTED', received_at: expect.any(String) })
    const at = first.body.data.received_at as string
    expect(await confirm(irn)).toMatchObject({ received_at: at })
    expect((await lookup(irn)).body.data.received_at).toBe(at)

    // Repeating is a no-op: the same time, no second event.
    const again = await receipt(irn)
    expect(again.status).toBe(200)
    expect(again.body.data.received_at).toBe(at)
    expect(again.body.message).toMatch(/already confirmed/)
    const events = (await eventsOfBusiness(DEV.supplier.businessId)).filter(
      (e) => e.type === 'invoice.receipt_confirmed' && e.data.irn === irn,
    )
    expect(events).toEqual([
      expect.objectContaining({
        business_id: DEV.supplier.businessId,
        data: expect.objectContaining({ irn, received_at: at, buyer_tin: DEV.buyer.tin }),
      }),
    ])
    // Nothing of it goes to the buyer's own events.
    const buyerEvents = await eventsOfBusiness(DEV.buyer.businessId)
    expect(buyerEvents.filter((e) => e.type === 'invoice.receipt_confirmed')).toEqual([])
  })

  it('takes its own sequence when a payment update races it: no two events of an invoice share one (CONTRACT 21)', async () => {
    const irns = await Promise.all(Array.from({ length: 6 }, () => transmitted()))
    const replies = await Promise.all(
      irns.flatMap((irn) => [receipt(irn), update(irn, { payment_status: 'PAID' })]),
    )
    for (const reply of replies) expect(reply.status, reply.text).toBe(200)
    const events = await eventsOfBusiness(DEV.supplier.businessId)
    for (const irn of irns) {
      const sequences = events
        .filter((e) => e.data.irn === irn && e.type.startsWith('invoice.'))
        .map((e) => [e.type, e.data.sequence as number] as const)
      expect(sequences.map(([type]) => type).sort()).toEqual(
        ['invoice.payment_status_changed', 'invoice.receipt_confirmed', 'invoice.transmitted'].sort(),
      )
      expect(new Set(sequences.map(([, n]) => n)).size, JSON.stringify(sequences)).toBe(3)
    }
  })

  it('is 409 before transmit, for the buyer', async () => {
    const { irn } = await putSignedInvoice()
    const reply = await receipt(irn)
    expect(reply.status).toBe(409)
    expect(JSON.stringify(reply.body)).toMatch(/once the supplier has transmitted it/)
  })

  it('is 404 for another business, and for the supplier itself', async () => {
    const irn = await transmitted()
    expect((await receipt(irn, clients.other)).status).toBe(404)
    expect((await receipt(irn, clients.app)).status).toBe(404)
    expect((await confirm(irn)).received_at).toBeNull()
  })

  it('keeps test and live apart: a live invoice is unknown to the test-mode buyer, and the reverse', async () => {
    const live = await transmitted()
    expect((await receipt(live, sandboxBuyer)).status).toBe(404)
    const test = await transmitted(sandbox.app, 'test')
    expect((await receipt(test)).status).toBe(404)
    const reply = await receipt(test, sandboxBuyer)
    expect(reply.status, reply.text).toBe(200)
    expect((await confirm(test, sandbox.app)).received_at).toBe(reply.body.data.received_at)
    expect((await confirm(live)).received_at).toBeNull()
  })

  it('is 400 with the path for an IRN that is not one', async () => {
    const reply = await receipt('not-an-irn')
    expect(reply.status).toBe(400)
    expect(problemsOf(reply.body)).toEqual([expect.objectContaining({ path: 'path/irn' })])
  })
})

describe('GET /api/v1/invoice/transmit/lookup/{irn}', () => {
  it("gives the supplier and the buyer the invoice's exchange record", async () => {
    const irn = await transmitted()
    for (const client of [clients.app, clients.buyer]) {
      const reply = await lookup(irn, client)
      expect(reply.status, reply.text).toBe(200)
      expect(reply.body.data).toEqual({
        irn,
        status: 'TRANSMITTED',
        supplier: { tin: DEV.supplier.tin, name: DEV.supplier.name },
        buyer: { tin: DEV.buyer.tin, name: DEV.buyer.name },
        transmitted_at: expect.any(String),
        received_at: null,
      })
    }
  })

  it('is 404 for another business', async () => {
    const irn = await transmitted()
    expect((await lookup(irn, clients.other)).status).toBe(404)
  })

  it('keeps test and live apart', async () => {
    const live = await transmitted()
    expect((await lookup(live, sandbox.app)).status).toBe(404)
    const test = await transmitted(sandbox.app, 'test')
    expect((await lookup(test, clients.app)).status).toBe(404)
    expect((await lookup(test, sandbox.app)).status).toBe(200)
  })

  it('is 400 with the path for an IRN that is not one', async () => {
    const reply = await lookup('not-an-irn')
    expect(reply.status).toBe(400)
    expect(problemsOf(reply.body)).toEqual([expect.objectContaining({ path: 'path/irn' })])
  })
})

describe('GET /api/v1/invoice/transmit/pull', () => {
  interface Pulled {
    status: number
    data: any
    link: string | null
    itemsRead: number
    body: any
  }
  const pull = async (
    params: Record<string, string | number>,
    client: ApiClient = clients.buyer,
  ): Promise<Pulled> => {
    const search = new URLSearchParams(
      Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]),
    )
    meter.reset()
    const reply = await client.get<any>(`/api/v1/invoice/transmit/pull${search.size ? `?${search}` : ''}`)
    return {
      status: reply.status,
      data: reply.body.data,
      link: reply.headers.get('link'),
      itemsRead: meter.itemsRead,
      body: reply.body,
    }
  }
  /** Every page at `size`, following the next cursor, each page held to size + 1 items read. */
  async function everyPage(
    params: Record<string, string | number>,
    size: number,
    client: ApiClient = clients.buyer,
  ): Promise<string[]> {
    const seen: string[] = []
    let cursor: string | undefined
    for (let page = 1; page < 100; page++) {
      const got = await pull({ ...params, size, page, ...(cursor ? { cursor } : {}) }, client)
      expect(got.status).toBe(200)
      expect(got.itemsRead, `items read for page ${page} of size ${size}`).toBeLessThanOrEqual(size + 1)
      expect(got.itemsRead).toBeGreaterThanOrEqual(got.data.content.length)
      expect(got.data.page).toMatchObject({ size, number: page - 1 })
      seen.push(...got.data.content.map((e: { irn: string }) => e.irn))
      cursor = got.data.page.next_cursor ?? undefined
      if (!cursor) {
        expect(got.link).toBeNull()
        return seen
      }
      expect(got.link).toContain(`cursor=${cursor}`)
      // A page with a next one is full: a filter is a key, not a FilterExpression dropping what it read.
      expect(got.data.content, `page ${page} of ${JSON.stringify(params)}`).toHaveLength(size)
    }
    throw new Error('more than 100 pages')
  }

  it('lists the invoices transmitted to the business newest first, each page reading at most size + 1 items', async () => {
    const irns: string[] = []
    for (let i = 0; i < 7; i++) irns.push(await transmitted())
    const newestFirst = [...irns].reverse()
    const first = await pull({ size: 3 })
    expect(first.data.content[0]).toEqual({
      irn: newestFirst[0],
      supplier: { tin: DEV.supplier.tin, name: DEV.supplier.name },
      issue_date: '2026-11-21',
      currency: 'NGN',
      amounts: {
        line_extension_amount: 1190000,
        tax_exclusive_amount: 1190000,
        tax_inclusive_amount: 1279250,
        payable_amount: 1279250,
      },
      transmitted_at: expect.any(String),
      received_at: null,
      payment_status: 'PENDING',
      reference: null,
    })
    const all = await everyPage({}, 3)
    expect(all.slice(0, 7)).toEqual(newestFirst)
    // A deep page costs what the first does.
    expect((await everyPage({}, 1)).slice(0, 7)).toEqual(newestFirst)
    // Another business's inbox has none of them; the supplier's own inbox neither.
    const other = await pull({}, clients.other)
    expect(other.status, JSON.stringify(other.body)).toBe(200)
    expect(other.data.content).toEqual([])
    expect((await pull({}, clients.app)).data.content).toEqual([])
  })

  it('filters on confirmed and on the transmit dates, each still one read of at most size + 1 items', async () => {
    // The oldest and the newest confirmed, the ones between not: a filter read over the whole inbox
    // would read past the newer unconfirmed ones and lose the oldest.
    const a = await transmitted()
    const b = await transmitted()
    const c = await transmitted()
    const d = await transmitted()
    for (const irn of [a, d]) expect((await receipt(irn)).status).toBe(200)
    const confirmed = await everyPage({ confirmed: 'true' }, 1)
    expect(confirmed.slice(0, 2)).toEqual([d, a])
    const open = await everyPage({ confirmed: 'false' }, 1)
    expect(open.slice(0, 2)).toEqual([c, b])
    expect(open).not.toContain(a)
    expect(open).not.toContain(d)
    const shown = (await pull({ confirmed: 'true', size: 1 })).data.content[0]
    expect(shown).toMatchObject({ irn: d, received_at: expect.any(String) })

    const today = new Date().toISOString().slice(0, 10)
    expect((await pull({ from: today, to: today, size: 100 })).data.content.map((e: any) => e.irn)).toEqual(
      expect.arrayContaining([a, b, c, d]),
    )
    const future = await pull({ from: '2099-01-01' })
    expect(future.data.content).toEqual([])
    expect(future.itemsRead).toBe(0)
    const past = await pull({ to: '2001-01-01' })
    expect(past.data.content).toEqual([])
  })

  it("shows the supplier's payment status and reference", async () => {
    const irn = await transmitted()
    expect((await update(irn, { payment_status: 'PAID', reference: 'TRF-000123' })).status).toBe(200)
    expect((await pull({ size: 1 })).data.content[0]).toMatchObject({
      irn,
      payment_status: 'PAID',
      reference: 'TRF-000123',
    })
  })

  it('keeps test and live apart', async () => {
    const live = await transmitted()
    const test = await transmitted(sandbox.app, 'test')
    const inTest = await everyPage({}, 50, sandboxBuyer)
    expect(inTest).toContain(test)
    expect(inTest).not.toContain(live)
    const inLive = await everyPage({}, 50)
    expect(inLive).not.toContain(test)
    const sandboxed = (await pull({ size: 100 }, sandboxBuyer)).data.content.map((e: any) => e.irn)
    expect(sandboxed).toContain(test)
    expect(sandboxed).not.toContain(live)
  })

  it('is 400 with the path for a bad parameter, and for page 2 without its cursor', async () => {
    for (const [params, path] of [
      [{ size: 0 }, 'query/size'],
      [{ size: 101 }, 'query/size'],
      [{ confirmed: 'yes' }, 'query/confirmed'],
      [{ from: 'yesterday' }, 'query/from'],
      [{ from: '2026-11-02', to: '2026-11-01' }, 'query/from'],
      [{ cursor: 'bm90LWEta2V5' }, 'query/cursor'],
      [{ page: 2 }, 'query/page'],
    ] as const) {
      const reply = await pull(params)
      expect(reply.status, JSON.stringify(params)).toBe(400)
      expect(problemsOf(reply.body).map((p) => p.path)).toContain(path)
    }
    const reply = await clients.buyer.get<any>('/api/v1/invoice/transmit/pull?size=0')
    expect(problemsOf(reply.body)).toEqual([expect.objectContaining({ path: 'query/size' })])
    const page2 = await clients.buyer.get<any>('/api/v1/invoice/transmit/pull?page=2')
    expect(problemsOf(page2.body)).toEqual([
      expect.objectContaining({ path: 'query/page', message: expect.stringMatching(/cursor/) }),
    ])
  })
})

describe('PATCH /api/v1/invoice/update/{irn}', () => {
  it('stores reference, shown by confirm and the pulled invoice, on both paths', async () => {
    const irn = await transmitted()
    const reply = await update(irn, { payment_status: 'PAID', reference: 'Bank transfer 42' })
    expect(reply.status, reply.text).toBe(200)
    expect(await confirm(irn)).toMatchObject({ payment_status: 'PAID', reference: 'Bank transfer 42' })
    const pulled = await clients.buyer.get<any>(`/api/v1/invoice/download/${irn}`)
    expect(pulled.body.data).toMatchObject({ irn, reference: 'Bank transfer 42' })

    const seed = await transmitted()
    const onSeed = await update(
      seed,
      { payment_status: 'REJECTED', reference: 'R1' },
      `/api/v2/app/invoice/update/${seed}`,
    )
    expect(onSeed.status, onSeed.text).toBe(200)
    expect(await confirm(seed)).toMatchObject({ payment_status: 'REJECTED', reference: 'R1' })
  })

  it('is 404 for another business', async () => {
    const irn = await transmitted()
    const reply = await clients.other.request<any>('PATCH', `/api/v1/invoice/update/${irn}`, {
      payment_status: 'PAID',
      reference: 'x',
    })
    expect(reply.status).toBe(404)
    expect(await confirm(irn)).toMatchObject({ payment_status: 'PENDING', reference: null })
  })

  it('keeps test and live apart', async () => {
    const test = await transmitted(sandbox.app, 'test')
    expect((await update(test, { payment_status: 'PAID', reference: 'x' })).status).toBe(404)
  })

  it('is 400 with the path for a reference too long, empty or not a string', async () => {
    const irn = await transmitted()
    for (const reference of ['x'.repeat(201), '   ', 42]) {
      const reply = await update(irn, { payment_status: 'PAID', reference })
      expect(reply.status).toBe(400)
      expect(problemsOf(reply.body)).toEqual([expect.objectContaining({ path: 'reference' })])
    }
    expect(await confirm(irn)).toMatchObject({ payment_status: 'PENDING', reference: null })
  })
})
