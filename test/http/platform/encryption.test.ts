import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { issueApiClient, issueSwitchClient } from '#lib/platform/auth/credentials.ts'
import { ApiClient } from '#client/api-client.ts'
import { signAreaB } from '#client/signing.ts'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { invoiceOf } from '#lib/invoice/canonical.ts'
import { unpackJson } from '#lib/invoice/packed-json.ts'
import { buildInvoice, invoiceOfLines } from '../../fixtures/invoices/build.ts'
import { send, startApi, type TestApi } from '../../support/api.ts'
import { DEV, type DevClients, devClients } from '../../support/clients.ts'

let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(() => api?.close())

/** The item exactly as DynamoDB holds it: what a copy of the table would reveal. */
const rawItem = async (key: { pk: string; sk: string }) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item!
/**
 * Its text, a packed body unpacked (gzip, or zlib with the dictionary the code publishes): what a copy
 * of the table would reveal with zlib. Other bytes as they are.
 */
const rawText = (item: Record<string, unknown>) =>
  JSON.stringify(item, (_, v) => (v instanceof Uint8Array ? unpackedOrRaw(v) : v))
const unpackedOrRaw = (v: Uint8Array) => {
  try {
    return unpackJson(v)
  } catch {
    return Buffer.from(v).toString('latin1')
  }
}

const areaA = (apiKey: string, secret: string) =>
  new ApiClient(api.url, { area: 'A', credentials: { apiKey, secret } })
const STATES = '/api/v1/resource/states'

describe('client secrets at rest', () => {
  it('stores a newly issued API secret only as ciphertext, and signed requests with it still verify', async () => {
    const issued = await issueApiClient({ businessId: DEV.supplier.businessId, roles: ['SI'] })
    const item = await rawItem(keys.apiClient(issued.apiKey))
    expect(item.secrets).toEqual([
      {
        id: expect.any(String),
        secret: expect.stringMatching(/^enc:v1:[A-Za-z0-9+/=]+$/),
        createdAt: expect.any(String),
      },
    ])
    expect(rawText(item)).not.toContain(issued.secret)
    expect((await areaA(issued.apiKey, issued.secret).get(STATES)).status).toBe(200)
  })

  it('stores the development secrets (seeded through the same code) encrypted too', async () => {
    for (const { apiKey, secret } of Object.values(DEV.clients))
      expect(rawText(await rawItem(keys.apiClient(apiKey)))).not.toContain(secret)
    expect(rawText(await rawItem(keys.switchClient(DEV.switch.clientId)))).not.toContain(DEV.switch.secret)
  })

  it('refuses (401, not 500) a request whose client record holds a ciphertext copied from another client', async () => {
    const victim = await issueApiClient({ businessId: DEV.buyer.businessId, roles: ['SI'] })
    const attacker = await issueApiClient({ businessId: DEV.other.businessId, roles: ['SI'] })
    const stolen = (await rawItem(keys.apiClient(victim.apiKey))).secrets
    // Someone with write access to the table copies the victim's encrypted secret into another record.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.apiClient(attacker.apiKey),
        UpdateExpression: 'SET secrets = :s',
        ExpressionAttributeValues: { ':s': stolen },
      }),
    )
    const reply = await areaA(attacker.apiKey, victim.secret).get(STATES)
    expect(reply.status).toBe(401)
    expect(reply.body).toMatchObject({
      message: expect.stringContaining('x-api-signature does not match this request'),
    })
    // The victim's own record is untouched and still works.
    expect((await areaA(victim.apiKey, victim.secret).get(STATES)).status).toBe(200)
  })

  it('refuses (401) a request when the stored ciphertext is damaged, and still accepts the other secret', async () => {
    const issued = await issueApiClient({ businessId: DEV.buyer.businessId, roles: ['SI'] })
    const item = await rawItem(keys.apiClient(issued.apiKey))
    const [entry] = item.secrets as { secret: string }[]
    const damaged = `${entry!.secret.slice(0, -12)}AAAAAAAAAAA=`
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.apiClient(issued.apiKey),
        UpdateExpression: 'SET secrets = :s',
        ExpressionAttributeValues: { ':s': [{ ...entry, secret: damaged }] },
      }),
    )
    expect((await areaA(issued.apiKey, issued.secret).get(STATES)).status).toBe(401)
  })

  it("refuses (401, code 91) a switch whose record holds another switch client's ciphertext", async () => {
    const victim = await issueSwitchClient({ name: 'Victim switch' })
    const attacker = await issueSwitchClient({ name: 'Copying switch' })
    expect(rawText(await rawItem(keys.switchClient(victim.clientId)))).not.toContain(victim.secret)
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.switchClient(attacker.clientId),
        UpdateExpression: 'SET secrets = :s',
        ExpressionAttributeValues: { ':s': (await rawItem(keys.switchClient(victim.clientId))).secrets },
      }),
    )
    const path = '/api/v1/transactions/balance-enquiry'
    const body = JSON.stringify({
      requestId: 'REQ-ENC-0001',
      stan: '000001',
      processingCode: '310000',
      accountNumber: '0123456789',
    })
    const headers = signAreaB(
      { token: attacker.token, secret: victim.secret },
      { method: 'POST', target: path, body },
    )
    const reply = await send(`${api.url}${path}`, { method: 'POST', headers, body })
    expect(reply.status).toBe(401)
    expect(reply.body).toMatchObject({ responseCode: '91', responseStatus: 'FAILED' })
  })
})

describe('invoice notes at rest', () => {
  it('stores note and payment_terms_note encrypted, and get-invoice gives them back in plaintext', async () => {
    const invoice: Record<string, any> = {
      ...buildInvoice(),
      note: 'Gate code 4417, ask for Mrs Okafor',
      payment_terms_note: 'Pay within 7 days to Zenith 1234567890',
    }
    expect((await clients.app.post('/api/v2/app/invoice/sign', invoice)).status).toBe(200)
    const item = await rawItem(keys.invoice(invoice.irn))
    expect(rawText(item)).not.toContain('Gate code 4417')
    expect(rawText(item)).not.toContain('Zenith 1234567890')
    const pulled = await clients.buyer.get<any>(`/api/v1/si/get-invoice/${invoice.irn}`)
    expect(pulled.status).toBe(200)
    expect(pulled.body.data ?? pulled.body).toMatchObject({
      note: 'Gate code 4417, ask for Mrs Okafor',
      payment_terms_note: 'Pay within 7 days to Zenith 1234567890',
    })
  })

  it('encrypts the notes inside the packed form of a large invoice too', async () => {
    const invoice: Record<string, any> = {
      ...invoiceOfLines(1000),
      note: 'Large order, confidential pricing',
    }
    expect((await clients.app.post('/api/v2/app/invoice/sign', invoice)).status).toBe(200)
    const item = await rawItem(keys.invoice(invoice.irn))
    expect(item.invoiceGzip).toBeInstanceOf(Uint8Array)
    const unzipped = unpackJson(item.invoiceGzip as Uint8Array)
    expect(unzipped).not.toContain('confidential pricing')
    expect(JSON.parse(unzipped).note).toMatch(/^enc:v1:/)
    const pulled = await clients.si.get<any>(`/api/v1/si/get-invoice/${invoice.irn}`)
    expect(pulled.status).toBe(200)
    expect((pulled.body.data ?? pulled.body).note).toBe('Large order, confidential pricing')
  })

  it('answers 503, never 500 and never the ciphertext, when a stored note will not decrypt', async () => {
    const invoice: Record<string, any> = { ...buildInvoice(), note: 'Deliver to warehouse B' }
    expect((await clients.app.post('/api/v2/app/invoice/sign', invoice)).status).toBe(200)
    const item = await rawItem(keys.invoice(invoice.irn))
    const stored = invoiceOf(item) as Record<string, any>
    const damaged = `${stored.note.slice(0, -8)}AAAAAAA=`
    // Written back as the plain map older records hold: the damage is read through either form.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.invoice(invoice.irn),
        UpdateExpression: 'SET invoice = :invoice REMOVE invoiceGzip',
        ExpressionAttributeValues: { ':invoice': { ...stored, note: damaged } },
      }),
    )
    const pulled = await clients.buyer.get<any>(`/api/v1/si/get-invoice/${invoice.irn}`)
    expect(pulled.status).toBe(503)
    expect(pulled.body.error.message).toContain(`note of invoice ${invoice.irn}`)
    expect(JSON.stringify(pulled.body)).not.toContain(damaged.slice(10, 40))
  })
})
