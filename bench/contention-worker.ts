/**
 * One "Lambda container" of bench/contention.ts: a child process that runs the local API Gateway
 * stand-in (scripts/local/server.ts, the same handler modules Lambda runs) and sends it ONE request at
 * a time, as API Gateway gives a container one event at a time. So nothing in-process (the ledger's
 * per-merchant queue) can help it against the other workers: they meet only in DynamoDB.
 *
 * The parent sends `{ run }` messages over IPC; the worker answers each with its measurements.
 */
import { ApiClient } from '#client/api-client.ts'
import { db } from '#lib/platform/db/client.ts'
import { buildInvoice } from '../test/fixtures/invoices/build.ts'
import { DEV } from '../scripts/local/dev-credentials.ts'

export interface RunOrder {
  id: number
  kind: 'transfer' | 'sign'
  durationMs: number
  /** transfer: the merchant paid and the account debited (this worker's own). */
  merchantId?: string
  accountNumber?: string
  /** sign: the business signing, and its APP credentials. */
  business?: { businessId: string; serviceId: string; tin: string; apiKey: string; secret: string }
}

export interface RunResult {
  id: number
  latenciesMs: number[]
  statuses: Record<string, number>
  /** TransactWriteItems calls this worker sent during the run. */
  transactions: number
  successes: number
}

let transactions = 0
// Counts every TransactWriteItems the handlers send: "transaction attempts per success".
db().middlewareStack.add(
  (next, context) => async (args) => {
    if (context.commandName === 'TransactWriteCommand' || context.commandName === 'TransactWriteItemsCommand')
      transactions++
    return next(args)
  },
  { step: 'initialize', name: 'benchTransactionCounter' },
)

const { startServer } = await import('../scripts/local/server.ts')
const server = await startServer(0)
const switchClient = new ApiClient(server.url, {
  area: 'B',
  credentials: { token: DEV.switch.token, secret: DEV.switch.secret },
})

let sequence = 0
const unique = () => `${process.pid}-${Date.now().toString(36)}-${++sequence}`

/** The dev supplier's valid invoice, moved to another business by swapping its identifiers. */
function invoiceOf(business: NonNullable<RunOrder['business']>): string {
  return JSON.stringify(buildInvoice())
    .replaceAll(DEV.supplier.serviceId, business.serviceId)
    .replaceAll(DEV.supplier.businessId, business.businessId)
    .replaceAll(DEV.supplier.tin, business.tin)
}

async function run(order: RunOrder): Promise<RunResult> {
  const latenciesMs: number[] = []
  const statuses: Record<string, number> = {}
  const before = transactions
  let successes = 0
  const app = order.business
    ? new ApiClient(server.url, {
        area: 'A',
        credentials: { apiKey: order.business.apiKey, secret: order.business.secret },
      })
    : undefined
  const deadline = Date.now() + order.durationMs
  while (Date.now() < deadline) {
    const started = performance.now()
    let status: number
    try {
      if (order.kind === 'transfer') {
        const id = unique()
        const reply = await switchClient.post('/api/v1/transactions/transfer', {
          requestId: `BENCH-${id}`,
          stan: '123456',
          processingCode: '400000',
          merchantId: order.merchantId,
          merchantReference: `ORD-${id}`,
          accountNumber: order.accountNumber,
          amount: 1,
          currency: 'NGN',
          productCode: 'BENCH',
        })
        status = reply.status
      } else {
        const reply = await app!.post('/api/v1/app/invoice/sign', invoiceOf(order.business!))
        status = reply.status
      }
    } catch {
      status = 0
    }
    latenciesMs.push(performance.now() - started)
    statuses[status] = (statuses[status] ?? 0) + 1
    if (status === 200) successes++
  }
  return { id: order.id, latenciesMs, statuses, transactions: transactions - before, successes }
}

process.on('message', (message: { run?: RunOrder; stop?: true }) => {
  if (message.stop) {
    void server.close().then(() => process.exit(0))
    return
  }
  if (message.run) void run(message.run).then((result) => process.send!({ result }))
})
process.send!({ ready: true })
