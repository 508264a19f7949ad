import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { startApi, type TestApi } from '../../support/api.ts'
import {
  DEV,
  type DevClients,
  devClients,
  type TestModeClients,
  testModeClients,
} from '../../support/clients.ts'
import { type ReadMeter, startReadMeter } from '../../support/dynamo-read-meter.ts'

/**
 * The parties of a business (CONTRACT 17): created on the authority's path with an inline address or
 * the id of one stored earlier, and searched by name and TIN, paged like supplier search, each page
 * reading the space's counter and at most `size` items.
 */

let api: TestApi
let meter: ReadMeter
let clients: DevClients
let sandbox: TestModeClients
beforeAll(async () => {
  // Counts the items read under the parties' keys (PARTY#, PARTYSEQ#, PARTYLIST#).
  meter = await startReadMeter(inject('dynamoEndpoint'), 'PARTY')
  api = await startApi({ dynamoEndpoint: meter.endpoint })
  clients = devClients(api.url)
  sandbox = testModeClients(api.url)
})
afterAll(async () => {
  await api?.close()
  await meter?.close()
})

const { supplier } = DEV
const CREATE = '/api/v1/invoice/party'
const searchPath = (businessId: string = supplier.businessId, query = '') =>
  `/api/v1/invoice/party/${businessId}${query ? `?${query}` : ''}`

let seq = 0
/** A 13-digit Tax ID no other test uses. */
const freshTin = () => `9${String(Date.now()).slice(-9)}${String(++seq).padStart(3, '0')}`

const ADDRESS = {
  street_name: '32, owonikoko street',
  city_name: 'Gwarikpa',
  postal_zone: '023401',
  lga: 'NG-FC-AMA',
  state: 'NG-FC',
  country: 'NG',
}

const partyBody = (overrides: Record<string, unknown> = {}) => ({
  business_id: supplier.businessId,
  party_name: 'Dangote Group TMZ',
  tin: freshTin(),
  email: 'business@email.com',
  telephone: '+23480254000000',
  business_description: 'this entity is into sales of Cement and building materials',
  postal_address: ADDRESS,
  ...overrides,
})

const problemsOf = (reply: { body: any }) =>
  (reply.body.error?.errors ?? reply.body.errors ?? []).map((e: { path: string; code: string }) => [
    e.path,
    e.code,
  ])

describe('POST /api/v1/invoice/party', () => {
  it('creates a party with its address stored under its own id (201), and a later party may name that address', async () => {
    const body = partyBody()
    const reply = await clients.app.post<any>(CREATE, body)
    expect(reply.status).toBe(201)
    const party = reply.body.data
    expect(party).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      postal_address_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      business_id: supplier.businessId,
      party_name: body.party_name,
      tin: body.tin,
      email: body.email,
      telephone: body.telephone,
      business_description: body.business_description,
      postal_address: ADDRESS,
    })

    // The authority's own example names the address by id.
    const { postal_address: _, ...withoutAddress } = partyBody({ party_name: 'Second branch' })
    const second = await clients.si.post<any>(CREATE, {
      ...withoutAddress,
      postal_address_id: party.postal_address_id,
    })
    expect(second.status).toBe(201)
    expect(second.body.data).toMatchObject({
      postal_address_id: party.postal_address_id,
      postal_address: ADDRESS,
    })
    expect(second.body.data.id).not.toBe(party.id)
  })

  it("answers 404 for another business's business_id, and stores nothing for it", async () => {
    const tin = freshTin()
    const reply = await clients.app.post<any>(CREATE, partyBody({ business_id: DEV.buyer.businessId, tin }))
    expect(reply.status).toBe(404)
    const buyers = await clients.buyer.get<any>(searchPath(DEV.buyer.businessId, `tin=${tin}`))
    expect(buyers.body.data.content).toEqual([])
  })

  it("keeps test mode's parties and addresses apart from live ones", async () => {
    const tin = freshTin()
    const test = await sandbox.app.post<any>(CREATE, partyBody({ tin }))
    expect(test.status).toBe(201)
    // Live does not list it, and cannot name its address.
    const live = await clients.app.get<any>(searchPath(supplier.businessId, `tin=${tin}`))
    expect(live.body.data.content).toEqual([])
    const { postal_address: _, ...body } = partyBody()
    const named = await clients.app.post<any>(CREATE, {
      ...body,
      postal_address_id: test.body.data.postal_address_id,
    })
    expect(named.status).toBe(400)
    expect(problemsOf(named)).toEqual([['postal_address_id', 'NG-PT-01']])
    // The sandbox lists it.
    const listed = await sandbox.app.get<any>(searchPath(supplier.businessId, `tin=${tin}`))
    expect(listed.body.data.content.map((p: { id: string }) => p.id)).toEqual([test.body.data.id])
  })

  it('refuses bad input with 400 naming each path, bounded before any write', async () => {
    const reply = await clients.app.post<any>(
      CREATE,
      partyBody({
        tin: '1234',
        party_name: 'x'.repeat(201),
        email: 'not an address',
        telephone: '080-1234',
        postal_address: { ...ADDRESS, street_name: '', postal_zone: 'z'.repeat(21) },
      }),
    )
    expect(reply.status).toBe(400)
    expect(
      problemsOf(reply)
        .map(([path]: string[]) => path)
        .sort(),
    ).toEqual(
      [
        'email',
        'party_name',
        'postal_address/postal_zone',
        'postal_address/street_name',
        'telephone',
        'tin',
      ].sort(),
    )
    // Neither an address nor its id; and both at once.
    const { postal_address: _, ...noAddress } = partyBody()
    expect(problemsOf(await clients.app.post<any>(CREATE, noAddress))).toEqual([
      ['postal_address', 'FIELD_RULE'],
    ])
    const both = await clients.app.post<any>(CREATE, partyBody({ postal_address_id: 'abc' }))
    expect(problemsOf(both)).toEqual([['postal_address_id', 'FIELD_RULE']])
    // An id of no form this service issues, and an unknown one.
    const malformed = await clients.app.post<any>(CREATE, { ...noAddress, postal_address_id: 'x'.repeat(65) })
    expect(malformed.status).toBe(400)
    expect(problemsOf(malformed)).toEqual([['postal_address_id', 'FIELD_FORMAT']])
    const unknown = await clients.app.post<any>(CREATE, {
      ...noAddress,
      postal_address_id: '00000000-0000-4000-8000-000000000000',
    })
    expect(problemsOf(unknown)).toEqual([['postal_address_id', 'NG-PT-01']])
  })

  it('takes every TIN form verify-tin takes, the 13-digit Tax ID included', async () => {
    for (const tin of ['12345678-0009', '3047291850016', 'TIN-000001']) {
      const reply = await clients.app.post<any>(CREATE, partyBody({ tin }))
      expect(reply.status, tin).toBe(201)
      expect(reply.body.data.tin).toBe(tin)
    }
  })
})

describe('GET /api/v1/invoice/party/{business_id}', () => {
  it("pages the business's parties newest first, by name and by TIN, each page reading at most size + 1 items", async () => {
    const tin = freshTin()
    const name = `Paging Party ${tin}`
    const ids: string[] = []
    for (let i = 0; i < 3; i++) {
      const reply = await clients.app.post<any>(CREATE, partyBody({ tin, party_name: name }))
      ids.push(reply.body.data.id)
    }
    const other = await clients.app.post<any>(CREATE, partyBody({ party_name: name }))
    const newestFirst = [...ids].reverse()

    meter.reset()
    const first = await clients.app.get<any>(searchPath(supplier.businessId, `tin=${tin}&size=2`))
    // size + 1 index entries, then those parties' records (a party does not fit the index's projection).
    expect(meter.itemsRead).toBeLessThanOrEqual(6)
    expect(first.status).toBe(200)
    expect(first.body.data.content.map((p: { id: string }) => p.id)).toEqual(newestFirst.slice(0, 2))
    expect(first.body.data.page).toEqual({ size: 2, number: 0, totalElements: 3, totalPages: 2 })
    meter.reset()
    const second = await clients.app.get<any>(searchPath(supplier.businessId, `tin=${tin}&size=2&page=2`))
    expect(meter.itemsRead).toBeLessThanOrEqual(6)
    expect(second.body.data.content.map((p: { id: string }) => p.id)).toEqual(newestFirst.slice(2))
    expect(second.body.data.page).toMatchObject({ number: 1, totalElements: 3 })

    // A name matches whatever its case and spacing; with a TIN, both must match.
    const byName = await clients.app.get<any>(
      searchPath(supplier.businessId, `party_name=${encodeURIComponent(`  paging  PARTY ${tin}`)}`),
    )
    expect(byName.body.data.content.map((p: { id: string }) => p.id)).toEqual([
      other.body.data.id,
      ...newestFirst,
    ])
    const both = await clients.app.get<any>(
      searchPath(supplier.businessId, `party_name=${encodeURIComponent(name)}&tin=${tin}&size=1`),
    )
    expect(both.body.data.page.totalElements).toBe(3)
    expect(both.body.data.content.map((p: { id: string }) => p.id)).toEqual([newestFirst[0]])

    // No filter: the newest party of the business first.
    const all = await clients.app.get<any>(searchPath(supplier.businessId, 'size=1'))
    expect(all.body.data.content[0].id).toBe(other.body.data.id)
    expect(all.body.data.page.totalElements).toBeGreaterThanOrEqual(4)
  })

  it("answers 404 for another business's id", async () => {
    const reply = await clients.app.get<any>(searchPath(DEV.buyer.businessId))
    expect(reply.status).toBe(404)
  })

  it("lists test mode's parties in test mode only", async () => {
    const tin = freshTin()
    await clients.app.post<any>(CREATE, partyBody({ tin }))
    const test = await sandbox.app.get<any>(searchPath(supplier.businessId, `tin=${tin}`))
    expect(test.status).toBe(200)
    expect(test.body.data.content).toEqual([])
    expect(test.body.data.page.totalElements).toBe(0)
  })

  it('refuses a bad query with 400 naming the parameter', async () => {
    const size = await clients.app.get<any>(searchPath(supplier.businessId, 'size=0'))
    expect(size.status).toBe(400)
    expect(problemsOf(size).map(([path]: string[]) => path)).toEqual(['query/size'])
    const tin = await clients.app.get<any>(searchPath(supplier.businessId, 'tin=12'))
    expect(problemsOf(tin).map(([path]: string[]) => path)).toEqual(['query/tin'])
    const long = await clients.app.get<any>(searchPath(supplier.businessId, `party_name=${'x'.repeat(201)}`))
    expect(problemsOf(long).map(([path]: string[]) => path)).toEqual(['query/party_name'])
  })
})
