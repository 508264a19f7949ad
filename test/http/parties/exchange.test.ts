import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setWebhook } from '#lib/platform/auth/credentials.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import {
  DEV,
  type DevClients,
  devClients,
  type TestModeClients,
  testModeClients,
} from '../../support/clients.ts'
import { clearWebhook } from '../../support-invoices/webhook-receiver.ts'

/**
 * The entity and the lookups of the authority's API (CONTRACT 17): the caller's own business, and
 * whether invoices to a TIN or a party can be transmitted (a business registered here with a system
 * configured in the request's mode), never the system's URL.
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

const { supplier, buyer } = DEV
// The local server takes a loopback http:// webhook; nothing is probed by the entity or a lookup.
const HOOK = 'http://127.0.0.1:9/never-called'

/** With a webhook on the client for the duration of `fn`. */
async function withWebhook(apiKey: string, fn: () => Promise<void>) {
  await setWebhook(apiKey, HOOK)
  try {
    await fn()
  } finally {
    await clearWebhook(apiKey)
  }
}

const problemsOf = (reply: { body: any }) =>
  (reply.body.error?.errors ?? reply.body.errors ?? []).map((e: { path: string; code: string }) => [
    e.path,
    e.code,
  ])

let seq = 0
const freshTin = () => `8${String(Date.now()).slice(-9)}${String(++seq).padStart(3, '0')}`

async function createParty(client: DevClients['app'] | TestModeClients['app'], tin: string, name: string) {
  const reply = await client.post<any>('/api/v1/invoice/party', {
    business_id: supplier.businessId,
    party_name: name,
    tin,
    email: 'party@example.com',
    postal_address: { street_name: '1 Marina', city_name: 'Lagos', postal_zone: '101001', country: 'NG' },
  })
  expect(reply.status).toBe(201)
  return reply.body.data.id as string
}

const OWN = {
  id: supplier.businessId,
  name: supplier.name,
  tin: supplier.tin,
  service_id: supplier.serviceId,
}

describe('GET /api/v1/entity/{id}', () => {
  it('answers the caller’s own business by its id or its TIN, exchange-ready once a system is configured', async () => {
    const byId = await clients.app.get<any>(`/api/v1/entity/${supplier.businessId}`)
    expect(byId.status).toBe(200)
    expect(byId.body.data).toMatchObject({ ...OWN, exchange_ready: false })
    await withWebhook(DEV.clients.app.apiKey, async () => {
      const byTin = await clients.si.get<any>(`/api/v1/entity/${supplier.tin}`)
      expect(byTin.body.data).toMatchObject({ ...OWN, exchange_ready: true })
      expect(JSON.stringify(byTin.body)).not.toContain(HOOK)
    })
  })

  it("answers 404 for another business's id or TIN", async () => {
    expect((await clients.app.get<any>(`/api/v1/entity/${buyer.businessId}`)).status).toBe(404)
    expect((await clients.app.get<any>(`/api/v1/entity/${buyer.tin}`)).status).toBe(404)
  })

  it("counts only the request's mode's systems: a live webhook does not make test mode ready", async () => {
    await withWebhook(DEV.clients.app.apiKey, async () => {
      const test = await sandbox.app.get<any>(`/api/v1/entity/${supplier.businessId}`)
      expect(test.status).toBe(200)
      expect(test.body.data).toMatchObject({ ...OWN, exchange_ready: false })
    })
  })

  it('refuses an id of no accepted form with 400 naming it', async () => {
    const reply = await clients.app.get<any>(`/api/v1/entity/${'x'.repeat(65)}`)
    expect(reply.status).toBe(400)
    expect(problemsOf(reply)).toEqual([['path/id', 'FIELD_FORMAT']])
  })
})

describe('GET /api/v1/entity', () => {
  it('answers the caller’s own business by its id, TIN or service id in reference', async () => {
    for (const reference of [supplier.businessId, supplier.tin, supplier.serviceId]) {
      const reply = await clients.app.get<any>(`/api/v1/entity?reference=${reference}`)
      expect(reply.status, reference).toBe(200)
      expect(reply.body.data).toMatchObject({ ...OWN, exchange_ready: false })
    }
  })

  it("answers 404 for another business's reference", async () => {
    for (const reference of [buyer.businessId, buyer.tin, buyer.serviceId])
      expect((await clients.app.get<any>(`/api/v1/entity?reference=${reference}`)).status).toBe(404)
  })

  it('answers test mode with its own systems only', async () => {
    await withWebhook(DEV.clients.si.apiKey, async () => {
      expect(
        (await clients.app.get<any>(`/api/v1/entity?reference=${supplier.serviceId}`)).body.data,
      ).toMatchObject({ exchange_ready: true })
      expect(
        (await sandbox.si.get<any>(`/api/v1/entity?reference=${supplier.serviceId}`)).body.data,
      ).toMatchObject({ exchange_ready: false })
    })
  })

  it('answers an empty reference, as the authority’s clients send it, with the caller’s own business (CONTRACT 25)', async () => {
    const reply = await clients.app.get<any>('/api/v1/entity?reference=')
    expect(reply.status).toBe(200)
    expect(reply.body.data).toMatchObject({ ...OWN, exchange_ready: false })
    const buyers = await clients.buyer.get<any>('/api/v1/entity?reference=')
    expect(buyers.body.data).toMatchObject({ id: buyer.businessId, tin: buyer.tin })
  })

  it('refuses a missing or malformed reference with 400 naming it', async () => {
    const missing = await clients.app.get<any>('/api/v1/entity')
    expect(missing.status).toBe(400)
    expect(problemsOf(missing)).toEqual([['query/reference', 'FIELD_REQUIRED']])
    const bad = await clients.app.get<any>('/api/v1/entity?reference=a%20b')
    expect(problemsOf(bad)).toEqual([['query/reference', 'FIELD_FORMAT']])
  })
})

describe('GET /api/v1/invoice/transmit/lookup/tin/{tin}', () => {
  it('says whether a registered business can receive: its name, ready once it has a system, never its URL', async () => {
    const path = `/api/v1/invoice/transmit/lookup/tin/${buyer.tin}`
    expect((await clients.app.get<any>(path)).body.data).toEqual({
      tin: buyer.tin,
      party_name: buyer.name,
      exchange_ready: false,
    })
    await withWebhook(DEV.clients.buyer.apiKey, async () => {
      const reply = await clients.app.get<any>(path)
      expect(reply.body.data).toEqual({ tin: buyer.tin, party_name: buyer.name, exchange_ready: true })
      expect(reply.text).not.toContain(HOOK)
    })
  })

  it("answers a TIN that is only one of the caller's parties as not ready, and 404 to another business", async () => {
    const tin = freshTin()
    await createParty(clients.app, tin, 'Unregistered Customer Ltd')
    const mine = await clients.app.get<any>(`/api/v1/invoice/transmit/lookup/tin/${tin}`)
    expect(mine.body.data).toEqual({ tin, party_name: 'Unregistered Customer Ltd', exchange_ready: false })
    expect((await clients.buyer.get<any>(`/api/v1/invoice/transmit/lookup/tin/${tin}`)).status).toBe(404)
    expect((await clients.app.get<any>(`/api/v1/invoice/transmit/lookup/tin/${freshTin()}`)).status).toBe(404)
  })

  it("keeps the modes apart: a live system is not test mode's, a test-mode party is not live's, and the sandbox's magic buyers answer in test mode only", async () => {
    await withWebhook(DEV.clients.buyer.apiKey, async () => {
      const test = await sandbox.app.get<any>(`/api/v1/invoice/transmit/lookup/tin/${buyer.tin}`)
      expect(test.body.data).toMatchObject({ exchange_ready: false })
    })
    const tin = freshTin()
    await createParty(sandbox.app, tin, 'Sandbox Customer')
    expect((await clients.app.get<any>(`/api/v1/invoice/transmit/lookup/tin/${tin}`)).status).toBe(404)
    expect((await sandbox.app.get<any>(`/api/v1/invoice/transmit/lookup/tin/${tin}`)).status).toBe(200)
    const up = await sandbox.app.get<any>('/api/v1/invoice/transmit/lookup/tin/00000000-0101')
    expect(up.body.data).toMatchObject({ tin: '00000000-0101', exchange_ready: true })
    const down = await sandbox.app.get<any>('/api/v1/invoice/transmit/lookup/tin/00000000-0102')
    expect(down.body.data).toMatchObject({ exchange_ready: false })
    expect((await clients.app.get<any>('/api/v1/invoice/transmit/lookup/tin/00000000-0101')).status).toBe(404)
  })

  it('refuses a TIN of no accepted form with 400 naming it', async () => {
    const reply = await clients.app.get<any>('/api/v1/invoice/transmit/lookup/tin/12-34')
    expect(reply.status).toBe(400)
    expect(problemsOf(reply)).toEqual([['path/tin', 'FIELD_FORMAT']])
  })
})

describe('GET /api/v1/invoice/transmit/lookup/party/{party_id}', () => {
  it("answers a party of the caller's business with its TIN's readiness", async () => {
    const registered = await createParty(clients.app, buyer.tin, 'Our name for Dev Buyer')
    const path = `/api/v1/invoice/transmit/lookup/party/${registered}`
    expect((await clients.app.get<any>(path)).body.data).toEqual({
      tin: buyer.tin,
      party_name: 'Our name for Dev Buyer',
      exchange_ready: false,
    })
    await withWebhook(DEV.clients.buyer.apiKey, async () => {
      expect((await clients.app.get<any>(path)).body.data).toMatchObject({ exchange_ready: true })
    })
    const unregistered = await createParty(clients.app, freshTin(), 'Nobody Here Ltd')
    const reply = await clients.app.get<any>(`/api/v1/invoice/transmit/lookup/party/${unregistered}`)
    expect(reply.body.data).toMatchObject({ party_name: 'Nobody Here Ltd', exchange_ready: false })
  })

  it("answers 404 for another business's party and for an unknown id", async () => {
    const party = await createParty(clients.app, freshTin(), 'Private Customer')
    expect((await clients.buyer.get<any>(`/api/v1/invoice/transmit/lookup/party/${party}`)).status).toBe(404)
    const unknown = '00000000-0000-4000-8000-000000000000'
    expect((await clients.app.get<any>(`/api/v1/invoice/transmit/lookup/party/${unknown}`)).status).toBe(404)
  })

  it('finds a test-mode party in test mode only', async () => {
    const party = await createParty(sandbox.app, freshTin(), 'Sandbox Only')
    expect((await clients.app.get<any>(`/api/v1/invoice/transmit/lookup/party/${party}`)).status).toBe(404)
    expect((await sandbox.app.get<any>(`/api/v1/invoice/transmit/lookup/party/${party}`)).status).toBe(200)
  })

  it('refuses an id of no accepted form with 400 naming it', async () => {
    const reply = await clients.app.get<any>('/api/v1/invoice/transmit/lookup/party/not%20an%20id')
    expect(reply.status).toBe(400)
    expect(problemsOf(reply)).toEqual([['path/party_id', 'FIELD_FORMAT']])
  })
})
