/**
 * Hostile input against the local server (CONTRACT 18, issue 32): the 64 KB body of 20,000 empty
 * invoice lines, and a sign with 20,000 unknown keys, each answered with at most 100 problems. Before
 * the bounds the first took about 10 s and replied 19.7 MB. Prints the median latency of ROUNDS
 * (default 20) requests of each, after WARMUP (3), and the size of the reply; the target is the
 * 20,000-line body under 200 ms.
 *
 * Run: npx tsx bench/hostile-input.ts
 */
import { ApiClient } from '../client/api-client.ts'
import { startDynamoDbLocal } from '../scripts/local/dynamodb-local.ts'
import { ensureTable } from '../scripts/local/table.ts'
import { buildInvoice, newIrn } from '../test/fixtures/invoices/build.ts'

const ROUNDS = Number(process.env.ROUNDS ?? 20)
const WARMUP = Number(process.env.WARMUP ?? 3)
const TARGET_MS = 200

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

async function measure(name: string, send: () => Promise<{ status: number; text: string; body: any }>) {
  const times: number[] = []
  let last = { status: 0, text: '', body: undefined as any }
  for (let i = 0; i < WARMUP + ROUNDS; i++) {
    const started = performance.now()
    last = await send()
    if (i >= WARMUP) times.push(performance.now() - started)
  }
  const listed = (last.body?.errors ?? []).length + (last.body?.warnings ?? []).length
  console.log(
    `${name}: ${last.status}, median ${median(times).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms, reply ${last.text.length} bytes, ${listed} problems listed, truncated ${JSON.stringify(last.body?.truncated)}`,
  )
  return median(times)
}

async function main() {
  const dynamo = await startDynamoDbLocal({ heapMb: 512 })
  let server: { close(): Promise<void>; url: string } | undefined
  try {
    process.env.TABLE_NAME = 'bench-hostile-input'
    process.env.DYNAMODB_ENDPOINT = dynamo.endpoint
    process.env.STAGE = 'local'
    process.env.AWS_REGION ??= 'eu-west-1'
    process.env.LOG_LEVEL ??= 'ERROR'
    await ensureTable(dynamo.endpoint, process.env.TABLE_NAME)
    const { seedLocal } = await import('../scripts/local/seed.ts')
    await seedLocal()
    const { DEV } = await import('../scripts/local/dev-credentials.ts')
    const { startServer } = await import('../scripts/local/server.ts')
    server = await startServer(0)
    const client = new ApiClient(server.url, { area: 'A', credentials: DEV.clients.app })

    const emptyLines = { ...buildInvoice(), invoice_line: Array.from({ length: 20_000 }, () => ({})) }
    console.log(`20,000 empty lines: a body of ${JSON.stringify(emptyLines).length} bytes`)
    const lines = await measure('POST /api/v1/app/invoice/validate, 20,000 empty lines', () =>
      client.post<any>('/api/v1/app/invoice/validate', emptyLines),
    )
    await measure('POST /api/v1/app/invoice/sign, 20,000 unknown keys', () => {
      const invoice: Record<string, unknown> = buildInvoice({ irn: newIrn() })
      for (let i = 0; i < 20_000; i++) invoice[`unknown_${i}`] = i
      return client.post<any>('/api/v1/app/invoice/sign', invoice)
    })
    console.log(
      `target: the 20,000-line body under ${TARGET_MS} ms: ${lines < TARGET_MS ? 'met' : 'NOT met'} (${lines.toFixed(1)} ms)`,
    )
  } finally {
    await server?.close()
    await dynamo.stop()
  }
}

await main()
