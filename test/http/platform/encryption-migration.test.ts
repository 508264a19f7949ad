import { mkdtempSync } from 'node:fs'
import { readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb'
import canonicalize from 'canonicalize'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { issueApiClient, issueSwitchClient } from '#lib/platform/auth/credentials.ts'
import { ApiClient } from '#client/api-client.ts'
import { signAreaB } from '#client/signing.ts'
import { clearFieldCache } from '#lib/platform/crypto/fields.ts'
import { LOCAL_DATA_KEY_FILE, RETIRED_KEY_PREFIX, resetKeyring } from '#lib/platform/crypto/keyring.ts'
import { readOrCreateSealedPemFile } from '#lib/platform/crypto/sealed-file.ts'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { newSigningKeyPem, SIGNING_KEY_FILE } from '#lib/platform/signing/key-source.ts'
import { buildInvoice, invoiceOfLines } from '../../fixtures/invoices/build.ts'
import { send, startApi, type TestApi } from '../../support/api.ts'
import { cliOutput } from '../../support/cli.ts'
import { DEV, type DevClients, devClients } from '../../support/clients.ts'

// This file rotates the local data key: it gets a key directory of its own, so the shared
// .local/keys of the other test files is never touched. Read lazily, so setting it here is enough.
const keysDir = mkdtempSync(join(tmpdir(), 'enc-migration-'))
process.env.KEYS_DIR = keysDir

let api: TestApi
let clients: DevClients
const signingPem = newSigningKeyPem()
beforeAll(async () => {
  // A signing key file from before encryption: plain PEM.
  await writeFile(join(keysDir, SIGNING_KEY_FILE), signingPem, { mode: 0o600 })
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(async () => {
  await api?.close()
  await rm(keysDir, { recursive: true, force: true })
})

async function cli(...args: string[]) {
  const stdout = await cliOutput(api, ...args, '--json')
  return JSON.parse(stdout.slice(stdout.indexOf('{'), stdout.lastIndexOf('}') + 1))
}

const rawItem = async (key: { pk: string; sk: string }) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item!
const rawText = (item: Record<string, unknown>) =>
  JSON.stringify(item, (_, v) => (v instanceof Uint8Array ? Buffer.from(v).toString('latin1') : v))
const setAttribute = (key: { pk: string; sk: string }, name: string, value: unknown) =>
  db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'SET #a = :v',
      ExpressionAttributeNames: { '#a': name },
      ExpressionAttributeValues: { ':v': value },
    }),
  )

const STATES = '/api/v1/resource/states'
const BALANCE = '/api/v1/transactions/balance-enquiry'
const NOTE = 'Deliver after 6pm; the gate code is 4417'
const TERMS = 'Net 15, account 0123456789'

/** Values stored the way the service stored them before issue 7: everything in plaintext. */
const old = {
  client: { apiKey: '', secret: '' },
  switchClient: { clientId: '', token: '', secret: '' },
  inline: buildInvoice(),
  gzipped: invoiceOfLines(1000),
}

async function seedPlaintext() {
  const client = await issueApiClient({ businessId: DEV.supplier.businessId, roles: ['SI'] })
  old.client = { apiKey: client.apiKey, secret: client.secret }
  await setAttribute(keys.apiClient(client.apiKey), 'secrets', [
    { id: 'old00001', secret: client.secret, createdAt: '2026-01-01T00:00:00.000Z' },
  ])
  old.switchClient = await issueSwitchClient({ name: 'Old switch' })
  await setAttribute(keys.switchClient(old.switchClient.clientId), 'secrets', [
    { id: 'old00002', secret: old.switchClient.secret, createdAt: '2026-01-01T00:00:00.000Z' },
  ])
  old.inline = { ...old.inline, note: NOTE, payment_terms_note: TERMS }
  old.gzipped = { ...old.gzipped, note: NOTE }
  for (const invoice of [old.inline, old.gzipped])
    expect((await clients.app.post('/api/v2/app/invoice/sign', invoice)).status).toBe(200)
  await setAttribute(keys.invoice(old.inline.irn), 'invoice', old.inline)
  const gz = new Uint8Array(gzipSync(Buffer.from(canonicalize(old.gzipped)!, 'utf8')))
  await setAttribute(keys.invoice(old.gzipped.irn), 'invoiceGzip', gz)
}

const protectedKeys = () => [
  keys.apiClient(old.client.apiKey),
  keys.switchClient(old.switchClient.clientId),
  keys.invoice(old.inline.irn),
  keys.invoice(old.gzipped.irn),
]

/** Every old credential and note still works through the API. */
async function expectServiceWorks() {
  const a = new ApiClient(api.url, { area: 'A', credentials: old.client })
  expect((await a.get(STATES)).status).toBe(200)
  const body = JSON.stringify({
    requestId: `REQ-MIG-${Date.now()}`,
    stan: '000001',
    processingCode: '310000',
    accountNumber: '0123456789',
  })
  const headers = signAreaB(old.switchClient, { method: 'POST', target: BALANCE, body })
  const balance = await send(`${api.url}${BALANCE}`, { method: 'POST', headers, body })
  expect(balance.status).not.toBe(401)
  for (const invoice of [old.inline, old.gzipped]) {
    const pulled = await clients.si.get<any>(`/api/v1/si/get-invoice/${invoice.irn}`)
    expect(pulled.status).toBe(200)
    expect((pulled.body.data ?? pulled.body).note).toBe(NOTE)
  }
}

describe('encryption migrate', () => {
  beforeAll(seedPlaintext)

  it('serves plaintext (not yet migrated) values as before', async () => {
    expect(rawText(await rawItem(keys.apiClient(old.client.apiKey)))).toContain(old.client.secret)
    await expectServiceWorks()
  })

  it('encrypts every plaintext value once, reports counts, and a second run changes nothing', async () => {
    const first = await cli('encryption', 'migrate')
    expect(first.apiClients).toMatchObject({ encrypted: 1, changedMeanwhile: 0 })
    expect(first.switchClients).toMatchObject({ encrypted: 1, changedMeanwhile: 0 })
    expect(first.invoices).toMatchObject({ encrypted: 2, changedMeanwhile: 0 })
    expect(first.keyFiles).toMatchObject({ encrypted: 1, changedMeanwhile: 0 })
    for (const counts of Object.values(first) as {
      scanned: number
      encrypted: number
      alreadyEncrypted: number
    }[])
      expect(counts.scanned).toBe(counts.encrypted + counts.alreadyEncrypted)

    const after = await Promise.all(protectedKeys().map(rawItem))
    const text = after.map(rawText).join('\n')
    for (const secret of [old.client.secret, old.switchClient.secret, NOTE, TERMS])
      expect(text).not.toContain(secret)
    expect(await readFile(join(keysDir, SIGNING_KEY_FILE), 'utf8')).toMatch(/^enc:v1:/)

    const second = await cli('encryption', 'migrate')
    for (const [kind, counts] of Object.entries(second) as [string, { scanned: number }][])
      expect(counts, kind).toEqual({
        scanned: counts.scanned,
        encrypted: 0,
        alreadyEncrypted: counts.scanned,
        changedMeanwhile: 0,
      })
    expect(await Promise.all(protectedKeys().map(rawItem))).toEqual(after)
    await expectServiceWorks()
    // The sealed key file is the same key.
    expect((await readOrCreateSealedPemFile(keysDir, SIGNING_KEY_FILE, () => 'unused')).pem).toBe(signingPem)
  })

  it('rotates the local key: everything re-encrypted, readable without the old key, nothing left in plaintext', async () => {
    const oldKey = await readFile(join(keysDir, LOCAL_DATA_KEY_FILE), 'utf8')
    const before = await Promise.all(protectedKeys().map(rawItem))
    const result = await cli('encryption', 'rotate-local-key')
    expect(result).toMatchObject({
      completed: true,
      retiredFile: expect.stringContaining(RETIRED_KEY_PREFIX),
    })
    expect(result.report.invoices).toMatchObject({ encrypted: expect.any(Number), changedMeanwhile: 0 })
    expect(result.report.keyFiles).toMatchObject({ encrypted: 1 })
    expect(await readFile(join(keysDir, LOCAL_DATA_KEY_FILE), 'utf8')).not.toBe(oldKey)

    const after = await Promise.all(protectedKeys().map(rawItem))
    for (const [i, item] of after.entries()) expect(item).not.toEqual(before[i])
    // The old key is retired and, once every value moved, deleted: nothing needs it any more.
    await rm(join(keysDir, result.retiredFile))
    expect((await readdir(keysDir)).filter((n) => n.startsWith(LOCAL_DATA_KEY_FILE))).toEqual([
      LOCAL_DATA_KEY_FILE,
    ])
    // The running server restarts (forgets the key and its decrypted values), as the help says.
    resetKeyring()
    clearFieldCache()
    await expectServiceWorks()
    expect((await readOrCreateSealedPemFile(keysDir, SIGNING_KEY_FILE, () => 'unused')).pem).toBe(signingPem)
    // Migrating afterwards finds every value already encrypted.
    const again = await cli('encryption', 'migrate')
    expect(Object.values(again).every((c) => (c as { encrypted: number }).encrypted === 0)).toBe(true)
  })
})
