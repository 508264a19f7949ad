/**
 * Supplier search benchmark (CONTRACT 16): does a page's cost stay size + 1 items as a business's
 * signed invoices grow from 1,000 to 100,000?
 *
 *   npx tsx bench/invoice-search.ts
 *
 * Starts its own DynamoDB Local (in memory) and seeds two businesses' search lists straight with
 * BatchWriteItem (the item shapes sign writes, lib/invoice/search-index.ts listItemPut, and the
 * counters at the numbers they would hold): this measures reads, not signing. Then, for each business,
 * it calls the service behind GET /api/{v}/invoices (lib/invoice/search.ts) for the first and the
 * deepest full page of the ALL list and of each key filter (buyer, type, currency), size 50, and reads
 * its meter: "page" is DynamoDB's ScannedCount of the page's Query, "other" the counter item. Target:
 * page + other <= size + 1 for every keyed page at both sizes (median times are printed for
 * orientation: on a shared machine they move with its load, not with the volume). The windowed filters (payment_status, dates) are printed for information: their bound is the
 * window (1,000 items + the counter), not size + 1.
 */
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb'
import { startDynamoDbLocal } from '../scripts/local/dynamodb-local.ts'
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb'
import { localDynamoConfig } from '../lib/platform/db/local.ts'
import { createTableInput } from '../lib/platform/db/table.ts'

const SIZE = 50
const RUNS = 15
const SMALL = { businessId: 'BENCH-SEARCH-1K', count: 1_000 }
/** INVOICE_SEARCH_LARGE overrides the large count (a slow machine); the figures say which was run. */
const LARGE = { businessId: 'BENCH-SEARCH-100K', count: Number(process.env.INVOICE_SEARCH_LARGE ?? 100_000) }
const BUYERS = 20

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

async function main() {
  const dynamo = await startDynamoDbLocal({ heapMb: 2048 })
  try {
    process.env.TABLE_NAME = 'bench-invoice-search'
    process.env.DYNAMODB_ENDPOINT = dynamo.endpoint
    process.env.AWS_REGION ??= 'eu-west-1'
    // The service's table without its stream: DynamoDB Local's writes slow down with every stream
    // record it keeps, and nothing here reads the stream (this measures reads).
    const { StreamSpecification: _stream, ...table } = createTableInput(process.env.TABLE_NAME)
    await new DynamoDBClient(localDynamoConfig(dynamo.endpoint)).send(new CreateTableCommand(table))
    const { db, tableName } = await import('../lib/platform/db/client.ts')
    const { keys } = await import('../lib/platform/db/keys.ts')
    const { listItemPut, spacesOf } = await import('../lib/invoice/search-index.ts')
    const { searchInvoices, newSearchMeter } = await import('../lib/invoice/search.ts')
    const { SearchQuery } = await import('../lib/invoice/search-schemas.ts')

    /** Invoice i of a business: mostly 381 in NGN, a credit note every 10th, USD every 20th, 20 buyers. */
    const invoiceOf = (i: number) => ({
      irn: `INV${String(i).padStart(8, '0')}-BENCH001-20261121`,
      invoice_type_code: i % 10 === 0 ? '380' : '381',
      issue_date: `2026-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
      document_currency_code: i % 20 === 0 ? 'USD' : 'NGN',
      payment_status: i % 3 === 0 ? 'PAID' : 'PENDING',
      accounting_customer_party: {
        tin: `${String(10_000_000 + (i % BUYERS))}-0001`,
        party_name: `Buyer ${i % BUYERS}`,
      },
      legal_monetary_total: { payable_amount: 1000 + (i % 997) + 0.25 },
    })

    async function seed(businessId: string, count: number) {
      const started = performance.now()
      const counters = new Map<string, number>()
      const take = (space: string) => {
        const n = (counters.get(space) ?? 0) + 1
        counters.set(space, n)
        return n
      }
      const items: Record<string, unknown>[] = []
      for (let i = 1; i <= count; i++) {
        const invoice = invoiceOf(i) as never
        const spaces = spacesOf(invoice)
        const numbers = {
          all: take(spaces.all),
          buyer: take(spaces.buyer!),
          type: take(spaces.type),
          currency: take(spaces.currency),
        }
        const at = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString()
        items.push(listItemPut(businessId, invoice, spaces, numbers, at).Put!.Item!)
      }
      for (const [space, n] of counters)
        items.push({ ...keys.searchCounter(businessId, space), entity: 'INVOICE_SEARCH_COUNTER', n })
      const chunks: Record<string, unknown>[][] = []
      for (let i = 0; i < items.length; i += 25) chunks.push(items.slice(i, i + 25))
      let next = 0
      const lane = async () => {
        while (next < chunks.length) {
          let pending = chunks[next++]!.map((Item) => ({ PutRequest: { Item } }))
          while (pending.length) {
            const out = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }))
            pending = (out.UnprocessedItems?.[tableName()] ?? []) as typeof pending
          }
        }
      }
      await Promise.all(Array.from({ length: 8 }, lane))
      const seconds = (performance.now() - started) / 1000
      console.log(`seeded ${businessId}: ${count} invoices in ${seconds.toFixed(1)} s`)
      return counters
    }

    const seeded = new Map<string, Map<string, number>>()
    for (const { businessId, count } of [SMALL, LARGE]) seeded.set(businessId, await seed(businessId, count))

    const buyer = `${10_000_000 + 3}-0001`
    /** [label, query, space name] for each keyed page: first and deepest full page. */
    const cases = (businessId: string): [string, Record<string, string>][] => {
      const counters = seeded.get(businessId)!
      const deep = (space: string) => String(Math.floor(counters.get(space)! / SIZE))
      return [
        ['all, page 1', {}],
        ['all, deepest full page', { page: deep('ALL') }],
        ['buyer, page 1', { buyer_tin: buyer }],
        ['buyer, deepest full page', { buyer_tin: buyer, page: deep(`BUYER#${buyer}`) }],
        ['type 380, page 1', { invoice_type_code: '380' }],
        ['type 380, deepest full page', { invoice_type_code: '380', page: deep('TYPE#380') }],
        ['currency USD, page 1', { currency: 'USD' }],
        ['currency USD, deepest full page', { currency: 'USD', page: deep('CUR#USD') }],
      ]
    }
    const windowed: [string, Record<string, string>][] = [
      ['payment_status PAID (window)', { payment_status: 'PAID' }],
      ['issue dates in March (window)', { issue_date_from: '2026-03-01', issue_date_to: '2026-03-31' }],
    ]

    async function measure(businessId: string, query: Record<string, string>) {
      const parsed = SearchQuery.parse({ size: String(SIZE), ...query })
      let cost = { page: 0, other: 0, requests: 0, rows: 0 }
      const times: number[] = []
      for (let run = 0; run < RUNS; run++) {
        const meter = newSearchMeter()
        const started = performance.now()
        const { page } = await searchInvoices(businessId, parsed, meter)
        times.push(performance.now() - started)
        cost = {
          page: meter.pageItems,
          other: meter.otherItems,
          requests: meter.requests,
          rows: page.content.length,
        }
      }
      return { ...cost, ms: median(times) }
    }

    let met = 0
    let total = 0
    console.log(
      `\npage size ${SIZE}; target: items read <= ${SIZE + 1} at both sizes (median ms for orientation)`,
    )
    console.log(
      '| page | 1k: rows, items read (page + other), ms | 100k: rows, items read, ms | within target |',
    )
    console.log('|---|---|---|---|')
    const labels = cases(SMALL.businessId).map(([label]) => label)
    for (const [i, label] of labels.entries()) {
      const small = await measure(SMALL.businessId, cases(SMALL.businessId)[i]![1])
      const large = await measure(LARGE.businessId, cases(LARGE.businessId)[i]![1])
      const read = (c: typeof small) => c.page + c.other
      // The target is what the page reads; times are shown for orientation (a shared machine's are noisy).
      const ok = read(small) <= SIZE + 1 && read(large) <= SIZE + 1
      total++
      if (ok) met++
      console.log(
        `| ${label} | ${small.rows}, ${read(small)} (${small.page} + ${small.other}), ${small.ms.toFixed(1)} | ${large.rows}, ${read(large)} (${large.page} + ${large.other}), ${large.ms.toFixed(1)} | ${ok ? 'yes' : 'NO'} |`,
      )
    }
    for (const [label, query] of windowed) {
      const small = await measure(SMALL.businessId, query)
      const large = await measure(LARGE.businessId, query)
      console.log(
        `| ${label} | ${small.rows}, ${small.page + small.other}, ${small.ms.toFixed(1)} | ${large.rows}, ${large.page + large.other}, ${large.ms.toFixed(1)} | (bound: window ${1000} + 1) |`,
      )
    }
    console.log(`\n${met} of ${total} within target`)
  } finally {
    await dynamo.stop()
  }
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
