import type { APIGatewayProxyEventV2 } from 'aws-lambda'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Caller } from '#lib/platform/auth/caller.ts'
import { claimIdempotencyKey, completeIdempotencyKey } from '#lib/platform/http/idempotency.ts'
import { routes } from '#lib/service/routes.ts'
import { startApi, type TestApi } from '../../support/api.ts'

/**
 * CONTRACT 18: nothing answers 500 after its write committed. A reply too large for DynamoDB's
 * 400 KB item is kept by reference, in parts beside the Idempotency-Key record, and a retry gets it
 * back whole. No route's reply reaches that size through the API any more (every list and field is
 * bounded), so the layer is driven directly, on the test's DynamoDB Local table.
 */

let api: TestApi
beforeAll(async () => {
  api = await startApi()
})
afterAll(() => api?.close())

const route = routes.find((r) => r.functionId === 'app-invoice-sign' && r.path.startsWith('/api/v1/'))!
const caller = {
  scheme: 'api-signature',
  apiKeyId: 'large-reply-test',
  businessId: 'B',
  roles: ['APP'],
} as unknown as Caller

describe('the Idempotency-Key record of a large reply', () => {
  it('keeps a 1.4 MB reply in parts and replays it whole', async () => {
    const event = {
      headers: { 'idempotency-key': `large-${Date.now()}` },
      rawPath: route.path,
    } as unknown as APIGatewayProxyEventV2
    const body = Buffer.from('{}')
    const first = await claimIdempotencyKey(route, caller, event, body, 10_000)
    expect(first?.claim).toBeDefined()
    // Two-byte characters: 1.4 MB of UTF-8, split on byte boundaries that fall inside characters.
    const reply = JSON.stringify({ text: 'é'.repeat(700_000) })
    await completeIdempotencyKey(first!.claim!, { statusCode: 200, headers: { a: 'b' }, body: reply })
    const again = await claimIdempotencyKey(route, caller, event, body, 10_000)
    expect(again?.replay?.statusCode).toBe(200)
    expect(again?.replay?.body).toBe(reply)
    expect(again?.replay?.headers).toMatchObject({ a: 'b', 'idempotent-replayed': 'true' })
  })
})
