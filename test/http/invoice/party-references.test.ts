import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readInvoiceRecord } from '#lib/invoice/repository.ts'
import { buildInvoice, newIrn } from '../../fixtures/invoices/build.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import {
  DEV,
  type DevClients,
  devClients,
  type TestModeClients,
  testModeClients,
} from '../../support/clients.ts'

/**
 * Invoice parties named by reference (CONTRACT 17): on the seed and the authority's paths, a party may
 * give `id` (a party of the caller's business) instead of its fields and `postal_address_id` instead
 * of `postal_address`; the stored invoice holds the resolved values; an unknown id is 400 at its path.
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
const BUYER_ADDRESS = {
  street_name: '5 Adeola Odeku Street',
  city_name: 'Victoria Island',
  postal_zone: '101241',
  lga: 'NG-LA-ETO',
  state: 'NG-LA',
  country: 'NG',
}
const SUPPLIER_ADDRESS = {
  street_name: '12 Marina Road',
  city_name: 'Lagos Island',
  postal_zone: '100001',
  lga: 'NG-LA-LAI',
  state: 'NG-LA',
  country: 'NG',
}

type Client = DevClients['app'] | TestModeClients['app']
async function createParty(client: Client, body: Record<string, unknown>) {
  const reply = await client.post<any>('/api/v1/invoice/party', { business_id: supplier.businessId, ...body })
  expect(reply.status).toBe(201)
  return reply.body.data as { id: string; postal_address_id: string }
}

const customer = (client: Client = clients.app) =>
  createParty(client, {
    party_name: buyer.name,
    tin: buyer.tin,
    email: 'accounts@devbuyer.example',
    telephone: '+2348099990000',
    business_description: 'Construction',
    postal_address: BUYER_ADDRESS,
  })

/** An invoice whose customer is the party `id` and whose supplier's address is `addressId`. */
function byReference(customerId: string, addressId: string, irn = newIrn()) {
  const invoice = buildInvoice({ irn })
  invoice.accounting_customer_party = { id: customerId }
  const { postal_address: _, ...supplierParty } = invoice.accounting_supplier_party
  invoice.accounting_supplier_party = { ...supplierParty, postal_address_id: addressId }
  return invoice
}

const problemsOf = (reply: { body: any }) =>
  (reply.body.error?.errors ?? reply.body.errors ?? []).map((e: { path: string; code: string }) => [
    e.path,
    e.code,
  ])

describe('POST /api/v1/app/invoice/sign: parties named by id and postal_address_id', () => {
  it('signs with the parties resolved, and the stored invoice holds their values', async () => {
    const party = await customer()
    // The supplier's own address, stored with a party of its own.
    const own = await createParty(clients.app, {
      party_name: supplier.name,
      tin: supplier.tin,
      email: 'billing@devsupplier.example',
      postal_address: SUPPLIER_ADDRESS,
    })
    const invoice = byReference(party.id, own.postal_address_id)
    const reply = await clients.app.post<any>('/api/v1/app/invoice/sign', invoice)
    expect(reply.status).toBe(200)

    const pulled = await clients.si.get<any>(`/api/v1/si/get-invoice/${invoice.irn}`)
    expect(pulled.status).toBe(200)
    expect(pulled.body.data.accounting_customer_party).toEqual({
      id: party.id,
      party_name: buyer.name,
      tin: buyer.tin,
      email: 'accounts@devbuyer.example',
      telephone: '+2348099990000',
      business_description: 'Construction',
      postal_address_id: party.postal_address_id,
      postal_address: BUYER_ADDRESS,
    })
    expect(pulled.body.data.accounting_supplier_party).toMatchObject({
      party_name: supplier.name,
      postal_address_id: own.postal_address_id,
      postal_address: SUPPLIER_ADDRESS,
    })
    // The buyer TIN the record is indexed by is the resolved one: the buyer can pull it.
    expect((await readInvoiceRecord(invoice.irn))?.buyerTin).toBe(buyer.tin)
    expect((await clients.buyer.get<any>(`/api/v1/si/get-invoice/${invoice.irn}`)).status).toBe(200)
  })

  it("keeps the fields the request gives itself, the party's values filling the rest", async () => {
    const party = await customer()
    const invoice = buildInvoice()
    invoice.accounting_customer_party = { id: party.id, party_name: 'Dev Buyer Plc (Abuja branch)' }
    const reply = await clients.app.post<any>('/api/v1/app/invoice/sign', invoice)
    expect(reply.status).toBe(200)
    const pulled = await clients.si.get<any>(`/api/v1/si/get-invoice/${invoice.irn}`)
    expect(pulled.body.data.accounting_customer_party).toMatchObject({
      party_name: 'Dev Buyer Plc (Abuja branch)',
      tin: buyer.tin,
      postal_address: BUYER_ADDRESS,
    })
  })

  it("refuses an unknown id, another business's party and a test-mode party with 400 at their paths", async () => {
    const unknown = '00000000-0000-4000-8000-000000000000'
    const reply = await clients.app.post<any>('/api/v1/app/invoice/sign', byReference(unknown, unknown))
    expect(reply.status).toBe(400)
    expect(problemsOf(reply)).toEqual(
      expect.arrayContaining([
        ['accounting_customer_party/id', 'NG-PT-01'],
        ['accounting_supplier_party/postal_address_id', 'NG-PT-01'],
      ]),
    )
    // A party of another business (the buyer's own) names nothing for the supplier.
    const theirs = await clients.buyer.post<any>('/api/v1/invoice/party', {
      business_id: buyer.businessId,
      party_name: 'Their customer',
      tin: '3047291850016',
      email: 'x@example.com',
      postal_address: BUYER_ADDRESS,
    })
    const invoice = buildInvoice()
    invoice.accounting_customer_party = { id: theirs.body.data.id }
    const other = await clients.app.post<any>('/api/v1/app/invoice/sign', invoice)
    expect(other.status).toBe(400)
    expect(problemsOf(other)).toContainEqual(['accounting_customer_party/id', 'NG-PT-01'])
    // Test mode's parties are the sandbox's: live cannot name one, and the sandbox can.
    const test = await customer(sandbox.app)
    const live = buildInvoice()
    live.accounting_customer_party = { id: test.id }
    expect(problemsOf(await clients.app.post<any>('/api/v1/app/invoice/sign', live))).toContainEqual([
      'accounting_customer_party/id',
      'NG-PT-01',
    ])
    const inSandbox = buildInvoice()
    inSandbox.accounting_customer_party = { id: test.id }
    expect((await sandbox.app.post<any>('/api/v1/app/invoice/sign', inSandbox)).status).toBe(200)
  })

  it('refuses an id of no form this service issues with 400 at its path, without a read', async () => {
    const invoice = buildInvoice()
    invoice.ship_party = { id: '{{PARTY_ID}}' }
    const reply = await clients.app.post<any>('/api/v1/app/invoice/sign', invoice)
    expect(reply.status).toBe(400)
    expect(problemsOf(reply)).toContainEqual(['ship_party/id', 'NG-PT-01'])
  })
})

describe('POST /api/v1/invoice/validate: parties named by id', () => {
  it("resolves them on the authority's path too", async () => {
    const party = await customer()
    const invoice = buildInvoice()
    invoice.accounting_customer_party = { id: party.id }
    const reply = await clients.si.post<any>('/api/v1/invoice/validate', invoice)
    expect(reply.status).toBe(200)
    const unknown = buildInvoice()
    unknown.accounting_customer_party = { id: '00000000-0000-4000-8000-000000000000' }
    const refused = await clients.si.post<any>('/api/v1/invoice/validate', unknown)
    expect(refused.status).toBe(400)
    expect(problemsOf(refused)).toContainEqual(['accounting_customer_party/id', 'NG-PT-01'])
  })
})

describe('POST /api/v1/invoice/sign: parties named by id', () => {
  it("signs with the resolved party on the authority's path", async () => {
    const party = await customer()
    const invoice = buildInvoice()
    invoice.accounting_customer_party = { id: party.id }
    const reply = await clients.app.post<any>('/api/v1/invoice/sign', invoice)
    expect(reply.status).toBe(200)
    expect((await readInvoiceRecord(invoice.irn))?.buyerTin).toBe(buyer.tin)
  })
})
