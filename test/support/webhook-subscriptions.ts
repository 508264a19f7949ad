import { expect } from 'vitest'
import type { ApiClient } from '#client/api-client.ts'
import { type EventReceiver, startEventReceiver } from './standard-webhook-receiver.ts'

/** Subscribes `url` to `events` as `client`'s business; the subscription must be made (201). */
export async function subscribe(client: ApiClient, url: string, events: string[]) {
  const reply = await client.post<any>('/api/v1/webhooks', { url, events })
  expect(reply.status, JSON.stringify(reply.body)).toBe(201)
  return reply.body.data as { id: string; secret: string }
}

/** Event receivers made on demand, every one of them closed by `closeAll` (a file's afterAll). */
export function receiverPool() {
  const open: EventReceiver[] = []
  return {
    async receiver(): Promise<EventReceiver> {
      const r = await startEventReceiver()
      open.push(r)
      return r
    },
    async closeAll() {
      for (const r of open.splice(0)) await r.close()
    },
  }
}
