import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { areaBCanonical, decodeSignature, hmac } from '#lib/platform/auth/canonical.ts'
import { setWebhook } from '#lib/platform/auth/credentials.ts'

/**
 * A party's webhook endpoint for transmit and health tests: a node:http server on 127.0.0.1 that
 * records what it receives and verifies each POST's Area B signature (CONTRACT section 6) with the
 * secret the party holds, as a real receiver would.
 */
export interface ReceivedRequest {
  method: string
  target: string
  headers: IncomingMessage['headers']
  body: string
  /** For POSTs: the Area B signature recomputed with the receiver's secret matched X-Signature. */
  signatureValid: boolean
}

export interface WebhookReceiver {
  url: string
  received: ReceivedRequest[]
  posts(): ReceivedRequest[]
  close(): Promise<void>
}

export interface ReceiverOptions {
  /** The HMAC secret the receiving party expects deliveries to be signed with. */
  secret: string
  /** Path and query of the webhook URL. */
  target?: string
  /** Status for HEAD probes (default 200) and for POST deliveries (default 202). */
  headStatus?: number
  postStatus?: number
  /** Never answer HEAD (to exercise the probe's time limit). */
  hang?: boolean
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

export async function startWebhookReceiver(options: ReceiverOptions): Promise<WebhookReceiver> {
  const received: ReceivedRequest[] = []
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req)
      const method = req.method ?? 'GET'
      const target = req.url ?? '/'
      let signatureValid = false
      if (method === 'POST') {
        const signature = decodeSignature(String(req.headers['x-signature'] ?? ''))
        const canonical = areaBCanonical({
          method,
          target,
          timestamp: String(req.headers['x-timestamp'] ?? ''),
          nonce: String(req.headers['x-nonce'] ?? ''),
          body,
        })
        signatureValid = signature?.equals(hmac(options.secret, canonical)) ?? false
      }
      received.push({ method, target, headers: req.headers, body, signatureValid })
      if (options.hang && method === 'HEAD') return
      res.writeHead(method === 'POST' ? (options.postStatus ?? 202) : (options.headStatus ?? 200))
      res.end()
    })()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}${options.target ?? '/webhooks/einvoice'}`,
    received,
    posts: () => received.filter((r) => r.method === 'POST'),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** A URL nothing listens on: a port that was free a moment ago (connection refused). */
export async function deadWebhookUrl(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return `http://127.0.0.1:${port}/webhooks/einvoice`
}

/** Removes a client's webhook, as `npm run cli -- client set-webhook --clear` does. */
export const clearWebhook = (apiKey: string): Promise<void> => setWebhook(apiKey, undefined)
