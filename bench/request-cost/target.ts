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
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const root = process.argv[2]
if (!root) throw new Error('usage: tsx bench/request-cost/target.ts <checkout root>')
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

await (await from('scripts/local/seed.ts')).seedLocal()
const server = await (await from('scripts/local/server.ts')).startServer(0)

const control = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' })
  res.end(JSON.stringify({ calls: counts, roundTrips }))
  for (const name of Object.keys(counts)) delete counts[name]
  roundTrips = 0
})
await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve))
const { port } = control.address() as AddressInfo
process.stdout.write(`${JSON.stringify({ url: server.url, control: `http://127.0.0.1:${port}` })}\n`)
