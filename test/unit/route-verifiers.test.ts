import type { APIGatewayProxyEventV2 } from 'aws-lambda'
import { describe, expect, it } from 'vitest'
import { noAuth } from '#lib/auth/authenticate.ts'
import { unrouted } from '#lib/endpoints/meta.ts'
import { apiHandler } from '#lib/http/factory.ts'
import { functionsOf, routeKey, routes } from '#lib/routes.ts'

/**
 * A handler module names its auth verifier (so the function bundles only that scheme's code); the
 * route table names each route's scheme. These must agree for every function.
 */
describe('the verifier each function is built with', () => {
  it.each([...functionsOf(routes)].map(([functionId, served]) => [functionId, served] as const))(
    '%s: is the auth scheme the route table gives its routes',
    async (_, served) => {
      const schemes = new Set(served.map((r) => r.auth))
      expect(schemes.size, 'one function serves routes of one auth scheme').toBe(1)
      const url = new URL(`../../${served[0]!.handler}`, import.meta.url).href
      const module = (await import(url)) as { handler: { authScheme: string } }
      expect(module.handler.authScheme).toBe(served[0]!.auth)
    },
  )

  it('refuses with a logged 500, never running the handler, when a route reaches a function built for another scheme', async () => {
    const route = routes.find((r) => r.auth === 'api-signature' && r.method === 'GET')!
    let ran = false
    const misbuilt = apiHandler({ ...unrouted, functionId: route.functionId }, noAuth, () => {
      ran = true
      return { data: 'should not be reached' }
    })
    const event = {
      version: '2.0',
      routeKey: routeKey(route),
      rawPath: route.path,
      rawQueryString: '',
      headers: {},
      isBase64Encoded: false,
      requestContext: { requestId: 'r-1', http: { method: 'GET', path: route.path } },
    } as unknown as APIGatewayProxyEventV2
    const reply = await misbuilt(event, { awsRequestId: 'r-1' } as Parameters<typeof misbuilt>[1])
    expect(ran).toBe(false)
    expect(reply.statusCode).toBe(500)
    // The generic record: the build mistake is in the log, not in the reply.
    expect(reply.body).toContain('An unexpected error occurred')
    expect(reply.body).not.toContain('verifier')
  })
})
