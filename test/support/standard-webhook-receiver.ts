import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { EVENT_SCHEMAS, EVENT_TYPES, type EventType } from '#lib/events/schemas.ts'

/**
 * An integrator's webhook endpoint for the event tests: a real HTTP server on 127.0.0.1 that checks
 * every POST with the `standardwebhooks` package (an implementation of the spec independent of
 * lib/webhooks) and the secret the subscription was given, and answers what `answer` says.
 */
export interface ReceivedEvent {
  id: string
  timestamp: string
  body: string
  event: { id: string; type: string; created_at: string; business_id: string; data: Record<string, unknown> }
  /** The standardwebhooks verifier accepted the signature. */
  verified: boolean
  /** The body is what the OpenAPI document publishes for its type (`webhooks`, lib/events/schemas.ts). */
  asPublished: boolean
  /** What the receiver answered. */
  answered: number
}

export interface EventReceiver {
  url: string
  received: ReceivedEvent[]
  /** Accepted deliveries, deduplicated by webhook-id as a receiver should. */
  unique(): ReceivedEvent[]
  secret: string | undefined
  answer: (n: number, id: string) => number
  close(): Promise<void>
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

export async function startEventReceiver(path = '/hooks'): Promise<EventReceiver> {
  const receiver: EventReceiver = {
    url: '',
    received: [],
    secret: undefined,
    answer: () => 204,
    unique() {
      const seen = new Map<string, ReceivedEvent>()
      for (const r of this.received) if (r.answered < 300 && !seen.has(r.id)) seen.set(r.id, r)
      return [...seen.values()]
    },
    close: async () => {},
  }
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req)
      const headers = {
        'webhook-id': String(req.headers['webhook-id'] ?? ''),
        'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
        'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
      }
      let verified = false
      try {
        if (receiver.secret) {
          new Webhook(receiver.secret).verify(body, headers)
          verified = true
        }
      } catch {
        verified = false
      }
      const n = receiver.received.filter((r) => r.id === headers['webhook-id']).length
      const answered = receiver.answer(n, headers['webhook-id'])
      const event = JSON.parse(body)
      const type = event.type as EventType
      receiver.received.push({
        id: headers['webhook-id'],
        timestamp: headers['webhook-timestamp'],
        body,
        event,
        verified,
        asPublished: EVENT_TYPES.includes(type) && EVENT_SCHEMAS[type].strict().safeParse(event).success,
        answered,
      })
      res.writeHead(answered).end()
    })()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  return receiver
}

/** Polls until `check` passes (or the time is up, when it throws what check threw). */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs
  for (;;) {
    try {
      return await check()
    } catch (error) {
      if (Date.now() > until) throw error
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
}
