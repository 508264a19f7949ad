import { createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A proxy in front of DynamoDB Local that lets a test step into one request: the API talks to
 * DynamoDB through it (startApi's `dynamoEndpoint`), and a hook set for a DynamoDB operation whose
 * body contains a marker (a requestId) runs `before` the request is passed on and decides, `after`
 * DynamoDB has answered, whether the answer is sent back or held (never sent: the function hangs past
 * its commit, as when a Lambda times out or its connection drops before it replies). Everything else
 * is passed on unchanged.
 */
export interface Interception {
  operation: string
  marker: string
  before?: () => Promise<void>
  /** true: the answer is held until close(). */
  hold?: boolean
}

export interface DynamoInterceptor {
  endpoint: string
  /** Sets the hook for the next matching request (once). */
  intercept(hook: Interception): Promise<void>
  close(): Promise<void>
}

export async function startDynamoInterceptor(target: string): Promise<DynamoInterceptor> {
  const upstream = new URL(target)
  let hook: (Interception & { matched: () => void }) | undefined
  const server = createServer((incoming, reply) => {
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', async () => {
      const body = Buffer.concat(chunks)
      const operation = String(incoming.headers['x-amz-target'] ?? '').split('.')[1] ?? ''
      const mine =
        hook && hook.operation === operation && body.toString('utf8').includes(hook.marker) ? hook : undefined
      if (mine) hook = undefined
      if (mine?.before) await mine.before()
      const out = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: incoming.method,
          path: incoming.url,
          headers: incoming.headers,
        },
        (response) => {
          const parts: Buffer[] = []
          response.on('data', (part: Buffer) => parts.push(part))
          response.on('end', () => {
            mine?.matched()
            if (mine?.hold) return
            reply.writeHead(response.statusCode ?? 500, response.headers)
            reply.end(Buffer.concat(parts))
          })
        },
      )
      out.on('error', (error) => reply.destroy(error))
      out.end(body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    endpoint: `http://127.0.0.1:${port}`,
    intercept: (set) =>
      new Promise<void>((resolve) => {
        hook = { ...set, matched: resolve }
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
