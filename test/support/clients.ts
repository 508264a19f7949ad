import { ApiClient, type ClientReply } from '#client/api-client.ts'
import { DEV, DEV_TEST } from '../../scripts/local/dev-credentials.ts'
import { withoutCode } from './api.ts'
import { checkReply } from './contract.ts'

/** The project's client, with every reply held to the OpenAPI document (test/support/contract.ts). */
class CheckedClient extends ApiClient {
  override async request<T = unknown>(
    method: string,
    target: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<ClientReply<T>> {
    const reply = await super.request<T>(method, target, body, extraHeaders)
    const url = new URL(target, this.baseUrl).href
    checkReply(method, url, reply)
    return { ...reply, body: withoutCode(url, reply) as T }
  }
}

/** A signed Area A client for any key (one a test issued), its replies held to the document too. */
export const areaAClient = (url: string, credentials: { apiKey: string; secret: string }) =>
  new CheckedClient(url, { area: 'A', credentials })

/** Signed clients for each development credential of CONTRACT section 8. */
export function devClients(url: string) {
  const areaA = (c: { apiKey: string; secret: string }) => areaAClient(url, c)
  return {
    si: areaA(DEV.clients.si),
    app: areaA(DEV.clients.app),
    admin: areaA(DEV.clients.admin),
    buyer: areaA(DEV.clients.buyer),
    other: areaA(DEV.clients.other),
    switch: new CheckedClient(url, {
      area: 'B',
      credentials: { token: DEV.switch.token, secret: DEV.switch.secret },
    }),
    merchant: new CheckedClient(url, {
      area: 'bearer',
      token: DEV.merchants[0].token,
      headers: { 'x-merchant-id': 'MRC0001' },
    }),
    merchant2: new CheckedClient(url, {
      area: 'bearer',
      token: DEV.merchants[1].token,
      headers: { 'x-merchant-id': 'MRC0002' },
    }),
    notify: new CheckedClient(url, { area: 'bearer', token: DEV.notifyAdmin.token }),
    anonymous: new CheckedClient(url, { area: 'none' }),
  }
}

export type DevClients = ReturnType<typeof devClients>
export { DEV }

/** Signed clients for the test-mode twins of CONTRACT section 15 (the same business and merchant, in the sandbox). */
export function testModeClients(url: string) {
  const areaA = (c: { apiKey: string; secret: string }) => areaAClient(url, c)
  return {
    si: areaA(DEV_TEST.clients.si),
    app: areaA(DEV_TEST.clients.app),
    admin: areaA(DEV_TEST.clients.admin),
    switch: new CheckedClient(url, {
      area: 'B',
      credentials: { token: DEV_TEST.switch.token, secret: DEV_TEST.switch.secret },
    }),
    merchant: new CheckedClient(url, {
      area: 'bearer',
      token: DEV_TEST.merchant.token,
      headers: { 'x-merchant-id': DEV_TEST.merchant.merchantId },
    }),
  }
}

export type TestModeClients = ReturnType<typeof testModeClients>
export { DEV_TEST }
