import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { issueApiClient, issueMerchantToken, secretContext } from '#lib/platform/auth/credentials.ts'
import { hashToken } from '#lib/platform/auth/bearer.ts'
import { ApiClient } from '#client/api-client.ts'
import { encryptField } from '#lib/platform/crypto/fields.ts'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { readHead, writeList } from '#lib/reference/store.ts'
import { buildInvoice } from '../../fixtures/invoices/build.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { DEV } from '../../support/clients.ts'

/**
 * The staleness bounds of the per-container caches (docs/operations.md, "Caches and their staleness bounds"):
 * changes made the way another container or the CLI makes them (straight to the table, not through
 * this process's credential functions, which would also drop this process's cached copy) must take
 * effect within the bound. Short bounds keep the test quick; production defaults are 60 s.
 */
const BOUND_SECONDS = 1
process.env.CREDENTIAL_CACHE_SECONDS = String(BOUND_SECONDS)
process.env.CODE_LIST_CACHE_SECONDS = String(BOUND_SECONDS)
const afterTheBound = () => new Promise((resolve) => setTimeout(resolve, BOUND_SECONDS * 1000 + 150))

let api: TestApi
beforeAll(async () => {
  api = await startApi()
})
afterAll(() => api?.close())

const STATES = '/api/v1/resource/states'
const update = (key: { pk: string; sk: string }, expression: string, values: Record<string, unknown>) =>
  db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: key,
      UpdateExpression: expression,
      ExpressionAttributeValues: values,
    }),
  )

describe('credential cache (CREDENTIAL_CACHE_SECONDS)', () => {
  it('refuses an API key revoked elsewhere within the bound', async () => {
    const issued = await issueApiClient({ businessId: DEV.supplier.businessId, roles: ['SI'] })
    const client = new ApiClient(api.url, {
      area: 'A',
      credentials: { apiKey: issued.apiKey, secret: issued.secret },
    })
    expect((await client.get(STATES)).status).toBe(200)
    await update(keys.apiClient(issued.apiKey), 'SET active = :f', { ':f': false })
    await afterTheBound()
    const reply = await client.get<{ message: string }>(STATES)
    expect(reply.status).toBe(401)
    expect(reply.body.message).toMatch(/revoked/)
  })

  it('refuses a merchant token revoked elsewhere within the bound', async () => {
    const { token } = await issueMerchantToken({ merchantId: 'MRC0001' })
    const merchant = new ApiClient(api.url, {
      area: 'bearer',
      token,
      headers: { 'x-merchant-id': 'MRC0001' },
    })
    expect((await merchant.get('/api/v1/merchant/transactions')).status).toBe(200)
    await update(keys.bearer(hashToken(token)), 'SET active = :f', { ':f': false })
    await afterTheBound()
    expect((await merchant.get('/api/v1/merchant/transactions')).status).toBe(401)
  })

  it('accepts a secret rotated elsewhere at once (a mismatch re-reads the cached record)', async () => {
    const issued = await issueApiClient({ businessId: DEV.supplier.businessId, roles: ['SI'] })
    const old = new ApiClient(api.url, {
      area: 'A',
      credentials: { apiKey: issued.apiKey, secret: issued.secret },
    })
    expect((await old.get(STATES)).status).toBe(200)
    // What `client rotate` in another process writes: the old secret plus a new one, encrypted.
    const secret = randomBytes(32).toString('base64url')
    const key = keys.apiClient(issued.apiKey)
    const stored = (await db().send(new GetCommand({ TableName: tableName(), Key: key }))).Item!
    const entry = {
      id: 'rotated1',
      secret: await encryptField(secret, secretContext({ record: 'api-client', id: issued.apiKey })),
      createdAt: new Date().toISOString(),
    }
    await update(key, 'SET secrets = :s', { ':s': [...stored.secrets, entry] })
    const rotated = new ApiClient(api.url, {
      area: 'A',
      credentials: { apiKey: issued.apiKey, secret },
    })
    expect((await rotated.get(STATES)).status).toBe(200)
    expect((await old.get(STATES)).status).toBe(200)
  })
})

describe('code list cache (CODE_LIST_CACHE_SECONDS)', () => {
  it('applies a currency list changed elsewhere within the bound', async () => {
    const app = new ApiClient(api.url, { area: 'A', credentials: DEV.clients.app })
    const validate = () => app.post<any>('/api/v1/app/invoice/validate', buildInvoice())
    expect((await validate()).status).toBe(200)

    // What `reference load` in another process writes: new rows, then the META item pointing at them.
    const head = (await readHead('currencies'))!
    const revision = `test${Date.now().toString(36)}`
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.referenceChunk('currencies', revision, 0),
          data: JSON.stringify([{ code: 'USD', name: 'US Dollar' }]),
        },
      }),
    )
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.referenceMeta('currencies'),
          ...head,
          revision,
          chunkCount: 1,
          records: 1,
          etag: `"${revision}"`,
        },
      }),
    )
    try {
      await afterTheBound()
      const reply = await validate()
      expect(reply.status).toBe(400)
      expect(reply.body.errors.map((e: { code: string }) => e.code)).toContain('NG-CL-02')
    } finally {
      const rows = JSON.parse(
        readFileSync(new URL('../../../data/reference/currencies.json', import.meta.url), 'utf8'),
      ) as unknown[]
      await writeList('currencies', rows, {
        version: head.version,
        sourceDate: head.sourceDate,
        complete: head.complete,
        source: head.source,
      })
    }
    expect((await validate()).status).toBe(200)
  })
})
