import type { APIGatewayProxyEventV2 } from 'aws-lambda'
import { describe, expect, it } from 'vitest'
import { noAuth } from '#lib/platform/auth/authenticate.ts'
import { adminBearer } from '#lib/platform/auth/admin-bearer.ts'
import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { appSign } from '#lib/service/endpoints/invoice.ts'
import { transfer } from '#lib/service/endpoints/ledger.ts'
import { publicKeys } from '#lib/service/endpoints/reference.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { functionsOf, routeKey, routes } from '#lib/service/routes.ts'

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
      const url = new URL(`../../../${served[0]!.handler}`, import.meta.url).href
      const module = (await import(url)) as { handler: { authScheme: string } }
      expect(module.handler.authScheme).toBe(served[0]!.auth)
    },
  )

  it('refuses with a logged 500, never running the handler, when another route reaches a routed function', async () => {
    // API Gateway sends a function only its own routes: one built from another declaration is a build
    // mistake, never a request served under the wrong declaration's checks.
    const route = routes.find((r) => r.functionId === 'resource-states')!
    let ran = false
    const misbuilt = apiHandler(publicKeys, noAuth, () => {
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
    expect(reply.body).not.toContain('resource-public-keys')
  })

  it('does not compile a handler whose verifier is of another scheme than its declaration', () => {
    // The check is the compiler's (npm run typecheck): each line below must fail to type-check, or
    // its @ts-expect-error is itself an error. Never called: building them is enough for the types.
    const wrong = () => [
      // @ts-expect-error: a switch-signature endpoint built with the api-signature verifier
      apiHandler(transfer, apiSignature, () => ({})),
      // @ts-expect-error: a public endpoint built with a bearer verifier
      apiHandler(publicKeys, adminBearer, () => ({})),
      // @ts-expect-error: an api-signature endpoint built with no authentication at all
      apiHandler(appSign, noAuth, () => ({})),
    ]
    expect(typeof wrong).toBe('function')
  })
})
