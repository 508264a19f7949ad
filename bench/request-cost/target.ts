/**
 * One checkout of the API under measurement, run by bench/request-cost.ts in its own process:
 * `tsx bench/request-cost/target.ts <checkout root>`. It creates and seeds a table in the bench's
 * DynamoDB Local with that checkout's own code, counts every DynamoDB command its document client
 * sends (SDK middleware at the initialize step: one count per call, whatever the retries) and the
 * round trips they make (a call started while none is in flight begins one; calls a request starts
 * side by side, as Promise.all does, share it), starts
 * that checkout's local server, and prints one JSON line: the server's URL and a control URL whose
 * GET answers the counts since the last GET (and resets them).
 *
 * The environment (TABLE_NAME, DYNAMODB_ENDPOINT, DATA_KEY_ARN, AWS_ENDPOINT_URL_KMS, KEYS_DIR...)
 * comes from the bench, so the checkout's code is used exactly as it is, with no hook of its own.
 *
 * With `--cost` (bench/cost.ts) it also asks every call for ReturnConsumedCapacity INDEXES and adds
 * up the read and write units reported (table and indexes), the bytes of the items read and written,
 * and the calls that failed (a failed write reports no units: the bench prices it from its item's
 * size), and it counts the bytes the server logs (stdout and stderr, swallowed) and the handler
 * durations its request lines give (`durationMs`). The counts answer the same control GET.
 * The webhook consumers run on demand (the control's /workers/..., below).
 */
import { appendFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const root = process.argv[2]
if (!root) throw new Error('usage: tsx bench/request-cost/target.ts <checkout root> [--cost]')
const cost = process.argv.includes('--cost')
const from = (path: string) => import(pathToFileURL(join(root, path)).href)

const { ensureTable } = await from('scripts/local/table.ts')
await ensureTable(process.env.DYNAMODB_ENDPOINT, process.env.TABLE_NAME)

const { db } = await from('lib/platform/db/client.ts')
const counts: Record<string, number> = {}
let inFlight = 0
let roundTrips = 0
db().middlewareStack.add(
  (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => async (args: unknown) => {
    const name = (context.commandName ?? 'unknown').replace(/Command$/, '')
    counts[name] = (counts[name] ?? 0) + 1
    if (inFlight === 0) roundTrips++
    inFlight++
    try {
      return await next(args)
    } finally {
      inFlight--
    }
  },
  { step: 'initialize', name: 'request-cost-counter' },
)

/** What --cost adds up between two control GETs: zero, as each GET leaves it. */
const noUsage = () => ({
  readUnits: 0,
  writeUnits: 0,
  /** Of the write units, those of the indexes. */
  indexWriteUnits: 0,
  /** Of the write units, the rate limit leases' (RATE#, lib/platform/auth/rate-lease.ts): bench/cost.ts amortises them. */
  rateWriteUnits: 0,
  readBytes: 0,
  writtenBytes: 0,
  /** The largest item written (a floor's item size). */
  largestWritten: 0,
  /** Items whose write failed its condition (or its transaction): bytes, priced from their size. */
  failedWrites: [] as number[],
  logBytes: 0,
  logLines: 0,
  handlerMs: [] as number[],
  /**
   * Items written, by the first part of their key (`IRN`, `RCPT`, `INVSEQ`...) and call: how many, and
   * their write units by size (1 per KB, x2 in a transaction; an index's copy not counted) and the
   * bytes of the largest (how far it is from a unit's edge). For where a request's units go
   * (bench/cost.ts BREAKDOWN=1).
   */
  byKey: {} as Record<string, { items: number; units: number; largest: number }>,
})
const usage = noUsage()
const WRITES = /^(Put|Update|Delete|BatchWrite|TransactWrite)/
type Capacity = {
  CapacityUnits?: number
  Table?: { CapacityUnits?: number }
  GlobalSecondaryIndexes?: Record<string, Capacity>
}
/** Items in a call's input (written) or output (read), for their sizes. */
const writtenItems = (input: Record<string, any>): unknown[] => [
  ...(input.Item ? [input.Item] : []),
  ...(input.TransactItems ?? []).flatMap((t: Record<string, any>) => (t.Put ? [t.Put.Item] : [])),
  ...Object.values((input.RequestItems ?? {}) as Record<string, unknown>).flatMap((requests) =>
    Array.isArray(requests) ? requests.flatMap((r) => (r.PutRequest ? [r.PutRequest.Item] : [])) : [],
  ),
]
const readItems = (output: Record<string, any>): unknown[] => [
  ...(output.Item ? [output.Item] : []),
  ...(output.Items ?? []),
  ...(output.Responses && !Array.isArray(output.Responses)
    ? Object.values(output.Responses as Record<string, unknown[]>).flat()
    : (output.Responses ?? []).flatMap((r: Record<string, unknown>) => (r?.Item ? [r.Item] : []))),
]
/**
 * COST_TRACE=<file>: one line per DynamoDB call, its command, the kind of each item it names (the
 * key's prefix), and the units it used on the table and on each index. To see where a route's units
 * go; the counts are not written with it.
 */
const trace = process.env.COST_TRACE
const kindOf = (key: unknown) =>
  String((key as { pk?: unknown } | undefined)?.pk ?? '?').replace(/[#:].*$/, '#')
function traceCall(command: string, input: Record<string, any>, reported: Capacity[]) {
  const items = [
    input.Key,
    input.Item && { pk: input.Item.pk },
    ...(input.TransactItems ?? []).map((t: Record<string, any>) => {
      const op = Object.values(t)[0] as Record<string, any>
      return op.Key ?? { pk: op.Item?.pk }
    }),
  ].filter(Boolean)
  const units = reported.map((c) => ({
    table: c.Table?.CapacityUnits ?? c.CapacityUnits,
    indexes: Object.fromEntries(
      Object.entries(c.GlobalSecondaryIndexes ?? {}).map(([n, i]) => [n, i.CapacityUnits]),
    ),
  }))
  appendFileSync(trace!, `${JSON.stringify({ command, items: items.map(kindOf), units })}\n`)
}
let transactionCapacity: (input: Record<string, any>) => Promise<Capacity[]> = async () => []
if (cost) {
  const { valueSize } = await from('lib/platform/db/item-size.ts')
  const size = (items: unknown[]) => items.reduce((n: number, item) => n + valueSize(item), 0)
  const { transactionUnits } = await import('../cost/pricing.ts')
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb')
  const { DynamoDBDocumentClient, GetCommand } = await import('@aws-sdk/lib-dynamodb')
  // Uncounted reads of what a transaction left (its updated items' sizes), beside the counted client.
  const { localDynamoConfig } = await from('lib/platform/db/local.ts')
  const { config } = await from('lib/platform/config.ts')
  const looker = DynamoDBDocumentClient.from(
    new DynamoDBClient({ region: config().region, ...localDynamoConfig(config().dynamoEndpoint) }),
  )
  /** An item's indexes: those whose two key attributes it holds (gsiNpk, gsiNsk; lib/platform/db/table.ts). */
  const indexesOf = (item: Record<string, unknown>) =>
    ['gsi1', 'gsi2', 'gsi3'].filter((i) => item[`${i}pk`] !== undefined && item[`${i}sk`] !== undefined)
  /**
   * A committed transaction's units by the published rules (bench/cost/pricing.ts transactionUnits):
   * a Put's item as sent; an Update's or a ConditionCheck's item as it stands after the commit (read
   * back, uncounted); a Delete's as 1 KB on no index. An update that moves an item off an index, or
   * onto another key of it, is priced as the item's copy on the indexes it is on after.
   */
  transactionCapacity = async (input) => {
    const items = await Promise.all(
      (input.TransactItems as Record<string, any>[]).map(async (t) => {
        const op = Object.values(t)[0] as Record<string, any>
        const item: Record<string, unknown> | undefined = t.Put
          ? op.Item
          : t.Delete
            ? undefined
            : (
                await looker.send(
                  new GetCommand({ TableName: op.TableName, Key: op.Key, ConsistentRead: true }),
                )
              ).Item
        return item ? { bytes: valueSize(item), indexes: indexesOf(item) } : { bytes: 1, indexes: [] }
      }),
    )
    const { table, indexes } = transactionUnits(items)
    const total = table + Object.values(indexes).reduce((a, b) => a + b, 0)
    return [
      {
        CapacityUnits: total,
        Table: { CapacityUnits: table },
        GlobalSecondaryIndexes: Object.fromEntries(
          Object.entries(indexes).map(([name, units]) => [name, { CapacityUnits: units }]),
        ),
      },
    ]
  }
  const tally = (command: string, input: Record<string, any>) => {
    const transact = command.startsWith('TransactWrite')
    const parts: { key: Record<string, unknown>; item?: unknown }[] = [
      ...(input.Item ? [{ key: input.Item, item: input.Item }] : input.Key ? [{ key: input.Key }] : []),
      ...(input.TransactItems ?? []).flatMap((t: Record<string, any>) =>
        Object.values(t).map((op: Record<string, any>) => ({ key: op.Item ?? op.Key, item: op.Item })),
      ),
      ...Object.values((input.RequestItems ?? {}) as Record<string, any[]>).flatMap((requests) =>
        requests.map((r) => ({ key: r.PutRequest?.Item ?? r.DeleteRequest?.Key, item: r.PutRequest?.Item })),
      ),
    ]
    for (const { key, item } of parts) {
      const sort = String(key?.sk ?? '')
        .split('#')[0]!
        .replace(/\d[\d:.TZ-]*/g, 'n')
      const name = `${command.replace(/Command$/, '')} ${String(key?.pk ?? '?').split('#')[0]}#${sort}`
      usage.byKey[name] ??= { items: 0, units: 0, largest: 0 }
      const entry = usage.byKey[name]
      const bytes = item ? valueSize(item) : 0
      entry.items++
      entry.units += Math.max(1, Math.ceil(bytes / 1024)) * (transact ? 2 : 1)
      entry.largest = Math.max(entry.largest, bytes)
    }
  }
  db().middlewareStack.add(
    (next: (args: unknown) => Promise<{ output: Record<string, any> }>, context: { commandName?: string }) =>
      async (args: { input: Record<string, any> }) => {
        const write = WRITES.test(context.commandName ?? '')
        args.input.ReturnConsumedCapacity = 'INDEXES'
        const written = write ? size(writtenItems(args.input)) : 0
        try {
          const result = await next(args)
          const transact = context.commandName === 'TransactWriteItemsCommand'
          // DynamoDB Local prices a transaction as one item of their total size: priced item by item here.
          const reported = transact
            ? await transactionCapacity(args.input)
            : ([result.output.ConsumedCapacity ?? []].flat() as Capacity[])
          const units = reported.reduce((n, c) => n + (c.CapacityUnits ?? 0), 0)
          if (write) usage.writeUnits += units
          if (write && String(args.input.Key?.pk ?? '').startsWith('RATE#')) usage.rateWriteUnits += units
          if (write)
            for (const c of reported)
              for (const index of Object.values(c.GlobalSecondaryIndexes ?? {}))
                usage.indexWriteUnits += index.CapacityUnits ?? 0
          else usage.readUnits += units
          usage.writtenBytes += written
          if (write) tally(context.commandName ?? '', args.input)
          if (write)
            for (const item of writtenItems(args.input))
              usage.largestWritten = Math.max(usage.largestWritten, valueSize(item))
          usage.readBytes += size(readItems(result.output))
          if (trace) traceCall(context.commandName ?? '', args.input, reported)
          return result
        } catch (error) {
          if (write) usage.failedWrites.push(Math.max(1, written))
          throw error
        }
      },
    { step: 'initialize', name: 'cost-capacity' },
  )
}

await (await from('scripts/local/seed.ts')).seedLocal()
const server = await (await from('scripts/local/server.ts')).startServer(0)

// The ready line goes out before the logs are swallowed; then every byte the server logs is counted.
const ready = process.stdout.write.bind(process.stdout)
const realStderr = process.stderr.write.bind(process.stderr)
if (cost) {
  const counted = (chunk: unknown) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8')
    usage.logBytes += Buffer.byteLength(text)
    for (const line of text.split('\n')) {
      if (!line) continue
      usage.logLines++
      // An error the server logs is shown: a bench must not price a failure as if it were a reply.
      if (line.includes('"level":"ERROR"')) realStderr(`${line}\n`)
      const ms = /"durationMs":(\d+(?:\.\d+)?)/.exec(line)?.[1]
      if (ms && line.includes('"message":"request"')) usage.handlerMs.push(Number(ms))
    }
    return true
  }
  for (const stream of [process.stdout, process.stderr]) stream.write = counted as typeof stream.write
}

/**
 * The webhook consumers (scripts/local/workers.ts), run only while a bench asks: POST
 * /workers/start before the requests that need a delivery or a queued recovery, /workers/drained
 * before counting, /workers/stop after. Their calls go through the same counted client, so they run
 * for no other request.
 */
const WEBHOOK_CONSUMERS = ['webhook-fan-out', 'webhook-deliver', 'webhook-deliver-test', 'webhook-recover']
let workers: { drained(): Promise<void>; stop(): Promise<void> } | undefined
async function onWorkers(action: string): Promise<void> {
  if (action === 'start' && !workers) {
    const { startWorkers } = await from('scripts/local/workers.ts')
    workers = await startWorkers({
      endpoint: process.env.DYNAMODB_ENDPOINT,
      tableName: process.env.TABLE_NAME,
      only: WEBHOOK_CONSUMERS,
    })
  } else if (action === 'drained') await workers?.drained()
  else if (action === 'stop') {
    await workers?.drained()
    await workers?.stop()
    workers = undefined
  }
}

const control = createServer((req, res) => {
  const action = /^\/workers\/(start|drained|stop)$/.exec(req.url ?? '')?.[1]
  if (action) {
    onWorkers(action).then(
      () => res.writeHead(204).end(),
      (error: Error) => res.writeHead(500).end(error.message),
    )
    return
  }
  res.writeHead(200, { 'content-type': 'application/json' })
  res.end(JSON.stringify({ calls: counts, roundTrips, ...(cost ? { usage } : {}) }))
  for (const name of Object.keys(counts)) delete counts[name]
  roundTrips = 0
  Object.assign(usage, noUsage())
})
await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve))
const { port } = control.address() as AddressInfo
ready(`${JSON.stringify({ url: server.url, control: `http://127.0.0.1:${port}` })}\n`)
