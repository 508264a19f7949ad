import { ApiClient } from '#lib/client/api-client.ts'
import { DEV } from '../../scripts/local/dev-credentials.ts'

/** Signed clients for each development credential of CONTRACT section 8. */
export function devClients(url: string) {
  const areaA = (c: { apiKey: string; secret: string }) => new ApiClient(url, { area: 'A', credentials: c })
  return {
    si: areaA(DEV.clients.si),
    app: areaA(DEV.clients.app),
    admin: areaA(DEV.clients.admin),
    buyer: areaA(DEV.clients.buyer),
    other: areaA(DEV.clients.other),
    switch: new ApiClient(url, {
      area: 'B',
      credentials: { token: DEV.switch.token, secret: DEV.switch.secret },
    }),
    merchant: new ApiClient(url, {
      area: 'bearer',
      token: DEV.merchants[0].token,
      headers: { 'x-merchant-id': 'MRC0001' },
    }),
    merchant2: new ApiClient(url, {
      area: 'bearer',
      token: DEV.merchants[1].token,
      headers: { 'x-merchant-id': 'MRC0002' },
    }),
    notify: new ApiClient(url, { area: 'bearer', token: DEV.notifyAdmin.token }),
    anonymous: new ApiClient(url, { area: 'none' }),
  }
}

export type DevClients = ReturnType<typeof devClients>
export { DEV }
