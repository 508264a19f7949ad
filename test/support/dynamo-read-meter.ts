import { startDynamoProxy } from './dynamo-proxy.ts'

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
  const meter = {
    itemsRead: 0,
    requests: 0,
    reset() {
      meter.itemsRead = 0
      meter.requests = 0
    },
  }
  const proxy = await startDynamoProxy(target, {
    onAnswer({ operation, body }, answer) {
      if (!READS.has(operation) || !body.includes(`"${prefix}`) || answer.status !== 200) return undefined
      meter.requests++
      meter.itemsRead += itemsIn(operation, JSON.parse(answer.body.toString('utf8')))
      return undefined
    },
  })
  return Object.assign(meter, proxy)
}

function itemsIn(operation: string, out: Record<string, any>): number {
  if (operation === 'GetItem') return out.Item ? 1 : 0
  if (operation === 'BatchGetItem')
    return Object.values((out.Responses ?? {}) as Record<string, unknown[]>).reduce((n, l) => n + l.length, 0)
  return out.ScannedCount ?? 0
}
