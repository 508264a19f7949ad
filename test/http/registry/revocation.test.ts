import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashToken } from '#lib/platform/auth/bearer.ts'
import { issueApiClient, issueMerchantToken } from '#lib/platform/auth/credentials.ts'
import { ApiClient } from '#client/api-client.ts'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { areaAClient, DEV, type DevClients, devClients } from '../../support/clients.ts'

/**
 * CONTRACT 18: revoking a key (or rolling it with overlap 0) takes effect everywhere within 5 s, and a
 * roll racing a revocation never returns a secret for the revoked key. "Elsewhere" is a write made
 * the way another container or the CLI makes it: straight to the table, not through this process's
 * credential functions (which would also drop this process's cached copy). The stage here asks for a
 * 60 s credential cache: the bound holds whatever the setting.
 */
process.env.CREDENTIAL_CACHE_SECONDS = '60'
const BOUND_MS = 5_000

let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(() => api?.close())

const STATES = '/api/v1/resource/states'
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const revokeElsewhere = (key: { pk: string; sk: string }) =>
  db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'SET active = :f',
      ExpressionAttributeValues: { ':f': false },
    }),
  )

describe('DELETE /api/v1/keys/{key}: everywhere within 5 s', () => {
  it('refuses an API key revoked in another container within 5 s', async () => {
    const issued = await issueApiClient({ businessId: DEV.supplier.businessId, roles: ['SI'] })
    const client = areaAClient(api.url, issued)
    // Read once: this container now holds the key's record.
    expect((await client.get(STATES)).status).toBe(200)
    await revokeElsewhere(keys.apiClient(issued.apiKey))
    await wait(BOUND_MS + 200)
    const refused = await client.get<any>(STATES)
    expect(refused.status).toBe(401)
    expect(refused.body.message).toMatch(/revoked/)
  })

  it('refuses a merchant token revoked in another container within 5 s', async () => {
    const { token } = await issueMerchantToken({ merchantId: 'MRC0001' })
    const merchant = new ApiClient(api.url, {
      area: 'bearer',
      token,
      headers: { 'x-merchant-id': 'MRC0001' },
    })
    expect((await merchant.get('/api/v1/merchant/transactions')).status).toBe(200)
    await revokeElsewhere(keys.bearer(hashToken(token)))
    await wait(BOUND_MS + 200)
    expect((await merchant.get('/api/v1/merchant/transactions')).status).toBe(401)
  })
})

describe('POST /api/v1/keys/{key}/roll: racing a revocation', () => {
  it('is refused (409), with no secret, when the key is revoked between its read and its write', async () => {
    const issued = await issueApiClient({ businessId: DEV.supplier.businessId, roles: ['SI'] })
    const key = keys.apiClient(issued.apiKey)
    const before = (await db().send(new GetCommand({ TableName: tableName(), Key: key }))).Item!
    // Another container's revocation lands just before the roll's write: the roll has already read
    // the key as active.
    const name = 'revoke-before-roll'
    let raced = false
    db().middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as { UpdateExpression?: string; Key?: { pk?: string } }
        if (
          !raced &&
          context.commandName === 'UpdateItemCommand' &&
          input.UpdateExpression === 'SET secrets = :new' &&
          input.Key?.pk === key.pk
        ) {
          raced = true
          await revokeElsewhere(key)
        }
        return next(args)
      },
      { step: 'initialize', name },
    )
    let reply: Awaited<ReturnType<typeof clients.admin.post<any>>>
    try {
      reply = await clients.admin.post<any>(`/api/v1/keys/${issued.apiKey}/roll`, { overlap_seconds: 0 })
    } finally {
      db().middlewareStack.remove(name)
    }
    expect(raced).toBe(true)
    expect(reply.status, reply.text).toBe(409)
    expect(reply.body.error.message).toMatch(/revoked/)
    expect(reply.text).not.toMatch(/"secret"/)
    // The key's secrets are as they were, and the key is refused.
    const after = (await db().send(new GetCommand({ TableName: tableName(), Key: key }))).Item!
    expect(after.secrets).toEqual(before.secrets)
    expect(after.active).toBe(false)
    expect((await areaAClient(api.url, issued).get(STATES)).status).toBe(401)
  })
})
