import { createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A counting proxy in front of DynamoDB Local, for tests that bound what a request reads: the API
 * (and its workers) talk to DynamoDB through it, whether it runs from the sources or from its Lambda
 * bundles, and it counts the items DynamoDB read for every read request whose body names a key
 * starting with `prefix` (a Query's or Scan's ScannedCount, a GetItem's item, a BatchGetItem's items).
 * Everything is passed on unchanged.
 */
export interface ReadMeter {
  /** The endpoint to give startApi (`dynamoEndpoint`). */
  endpoint: string
  /** Items read, and read requests made, since the last reset. */
  itemsRead: number
  requests: number
  reset(): void
  close(): Promise<void>
}

const READS = new Set(['GetItem', 'BatchGetItem', 'Query', 'Scan'])

export async function startReadMeter(target: string, prefix: string): Promise<ReadMeter> {
  const upstream = new URL(target)
  const meter = {
    itemsRead: 0,
    requests: 0,
    reset() {
      meter.itemsRead = 0
      meter.requests = 0
    },
  }
  const server = createServer((incoming, reply) => {
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', () => {
      const body = Buffer.concat(chunks)
      const operation = String(incoming.headers['x-amz-target'] ?? '').split('.')[1] ?? ''
      const counted = READS.has(operation) && body.toString('utf8').includes(`"${prefix}`)
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
            const text = Buffer.concat(parts)
            if (counted && response.statusCode === 200) {
              meter.requests++
              meter.itemsRead += itemsIn(operation, JSON.parse(text.toString('utf8')))
            }
            reply.writeHead(response.statusCode ?? 500, response.headers)
            reply.end(text)
          })
        },
      )
      out.on('error', (error) => reply.destroy(error))
      out.end(body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return Object.assign(meter, {
    endpoint: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  })
}

function itemsIn(operation: string, out: Record<string, any>): number {
  if (operation === 'GetItem') return out.Item ? 1 : 0
  if (operation === 'BatchGetItem')
    return Object.values((out.Responses ?? {}) as Record<string, unknown[]>).reduce((n, l) => n + l.length, 0)
  return out.ScannedCount ?? 0
}
