import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { db } from '#lib/platform/db/client.ts'
import { startApi, type TestApi } from '../../support/api.ts'
import { type DevClients, devClients } from '../../support/clients.ts'

/**
 * CONTRACT section 14: throttling behind the API (DynamoDB here) is a 503 with Retry-After, never a
 * 500. The throttle is injected into this process's DynamoDB client, which the server running from
 * the sources shares; a Lambda bundle has its own client, so the CI's bundles pass leaves this file
 * out (.ci/run), as it does the Secrets Manager mock's.
 */
let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(() => api?.close())

const HISTORY = '/api/v1/merchant/transactions?page=1&size=1'

describe('a throttled dependency', () => {
  it.each(['ThrottlingException', 'ProvisionedThroughputExceededException', 'RequestLimitExceeded'])(
    'answers a DynamoDB %s with 503 and Retry-After, not a 500',
    async (name) => {
      const middleware = 'throttle-once'
      let thrown = false
      // The first write of the request (its count in the rate limit window) meets the throttle.
      db().middlewareStack.add(
        (next, context) => async (args) => {
          // The document client's command or the marshalled one beneath it, whichever this stack sees.
          const pk = (args.input as { Key?: { pk?: string | { S?: string } } }).Key?.pk
          const key = typeof pk === 'string' ? pk : pk?.S
          if (thrown || !String(context.commandName).startsWith('Update') || !key?.startsWith('RATE#'))
            return next(args)
          thrown = true
          throw Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), {
            name,
            $fault: 'client',
            $metadata: { httpStatusCode: 400 },
          })
        },
        { step: 'initialize', name: middleware },
      )
      try {
        const reply = await clients.merchant.get(HISTORY)
        expect(reply.status).toBe(503)
        expect(reply.headers.get('retry-after')).toMatch(/^\d+$/)
        expect(reply.body).toMatchObject({ responseStatus: 'FAILED', responseCode: '96' })
      } finally {
        db().middlewareStack.remove(middleware)
      }
    },
  )
})
