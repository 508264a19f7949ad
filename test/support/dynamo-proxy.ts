import { createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * An HTTP proxy in front of DynamoDB Local for tests that watch or step into the API's DynamoDB
 * requests, whether the API runs from the sources or from its Lambda bundles (startApi's
 * `dynamoEndpoint`). Each request is passed on unchanged; `onRequest` sees its operation and body
 * before it goes on, `onAnswer` DynamoDB's answer before it is sent back, and may hold it (never sent).
 */
export interface DynamoExchange {
  /** The operation, from X-Amz-Target: `GetItem`, `TransactWriteItems`... */
  operation: string
  body: string
}

export interface DynamoProxyHooks {
  onRequest?(exchange: DynamoExchange): Promise<void> | void
  /** Return 'hold' to keep the answer from the API. */
  onAnswer?(exchange: DynamoExchange, answer: { status: number; body: Buffer }): 'hold' | undefined
}

export interface DynamoProxy {
  endpoint: string
  close(): Promise<void>
}

export async function startDynamoProxy(target: string, hooks: DynamoProxyHooks): Promise<DynamoProxy> {
  const upstream = new URL(target)
  const server = createServer((incoming, reply) => {
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', async () => {
      const body = Buffer.concat(chunks)
      const exchange = {
        operation: String(incoming.headers['x-amz-target'] ?? '').split('.')[1] ?? '',
        body: body.toString('utf8'),
      }
      await hooks.onRequest?.(exchange)
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
            const answer = { status: response.statusCode ?? 500, body: Buffer.concat(parts) }
            if (hooks.onAnswer?.(exchange, answer) === 'hold') return
            reply.writeHead(answer.status, response.headers)
            reply.end(answer.body)
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
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
