/**
 * Merchant history benchmark (Area C): does the cost of a page stay flat as a merchant's history grows?
 *
 *   npx tsx bench/history.ts
 *
 * Starts its own DynamoDB Local (in memory), seeds 1,000 and 100,000 transactions for two merchants
 * with the same bulk seeder as `npm run cli -- seed-transactions` (the item shapes live transfers
 * write), then times the service call behind GET /api/v1/merchant/transactions for each filter, page
 * size 50. "page items" is DynamoDB's ScannedCount for the page's own Query; "other" counts the head,
 * date-boundary and reversal-block items read to place the page; "requests" counts the round trips
 * (one Query per stripe a page spans, side by side). Target: page items <= size + 1, and
 * the median time at 100,000 under 1.5x the median at 1,000.
 *
 * Then, on the same histories (issue 16): a CSV page of 1,000 against a JSON page of 1,000, and the
 * daily statement's requests, items read and time at 1,000 and 100,000 transfers (target ratio < 1.2).
 */
import { startDynamoDbLocal } from '../scripts/local/dynamodb-local.ts'
import { ensureTable } from '../scripts/local/table.ts'

const RUNS = 41
const WARMUP = 3
const SIZE = 50
const SMALL = { merchantId: 'BENCH-1K', count: 1_000 }
const LARGE = { merchantId: 'BENCH-100K', count: 100_000 }

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

async function main() {
  const dynamo = await startDynamoDbLocal({ heapMb: 2048 })
  try {
    process.env.TABLE_NAME = 'bench-history'
    process.env.DYNAMODB_ENDPOINT = dynamo.endpoint
    process.env.AWS_REGION ??= 'eu-west-1'
    await ensureTable(dynamo.endpoint, process.env.TABLE_NAME)
    const { seedTransactions } = await import('../scripts/ops/seed-transactions.ts')
    const { HistoryQuery } = await import('../lib/merchant-history/schemas.ts')
    const { listTransactions } = await import('../lib/merchant-history/service.ts')
    const { newMeter } = await import('../lib/merchant-history/repository.ts')
    type Seeded = Awaited<ReturnType<typeof seedTransactions>>

    const to = new Date()
    const from = new Date(to.getTime() - 90 * 24 * 60 * 60 * 1000)
    const seeded = new Map<string, Seeded>()
    for (const { merchantId, count } of [SMALL, LARGE]) {
      const started = performance.now()
      const result = await seedTransactions({
        merchantId,
        count,
        from,
        to,
        seed: 11,
        reversedShare: 0.06,
        returnItems: true,
        concurrency: 8,
      })
      seeded.set(merchantId, result)
      const seconds = (performance.now() - started) / 1000
      console.log(
        `seeded ${merchantId}: ${count} transactions (${JSON.stringify(result.counts)}) in ${seconds.toFixed(1)} s, ${Math.round(count / seconds)} per second`,
      )
    }

    type Item = NonNullable<Seeded['items']>[number]
    /** The filters, each as the query string the API would receive, and which items it should return. */
    const filters = (merchantId: string): [string, Record<string, string>, (items: Item[]) => Item[]][] => {
      const items = seeded.get(merchantId)!.items!
      const n = items.length
      // The middle tenth of the history by time: 100 items of the small one, 10,000 of the large one.
      const fromDate = items[Math.floor(n * 0.45)]!.createdAt
      const toDate = items[Math.floor(n * 0.55)]!.createdAt
      const inRange = (i: Item) => i.createdAt >= fromDate && i.createdAt <= toDate
      const successful = items.filter((i) => i.status === 'SUCCESSFUL').length
      const reversed = items.filter((i) => i.status === 'REVERSED').length
      // Deep pages: the last full page, so that both sizes read a whole page of 50.
      const lastFull = (count: number) => Math.floor(count / SIZE)
      const page = (p: number) => (list: Item[]) => list.slice((p - 1) * SIZE, p * SIZE)
      const newestFirst = (filter: (i: Item) => boolean) => (list: Item[]) => list.filter(filter).reverse()
      const mid = items[Math.floor(n / 2)]!
      const third = items[Math.floor(n / 3)]!
      const of =
        (filter: (i: Item) => boolean, p = 1) =>
        (list: Item[]) =>
          page(p)(newestFirst(filter)(list))
      return [
        ['ALL, page 1', {}, of(() => true)],
        ['SUCCESSFUL, page 1', { status: 'SUCCESSFUL' }, of((i) => i.status === 'SUCCESSFUL')],
        ['FAILED, page 1', { status: 'FAILED' }, of((i) => i.status === 'FAILED')],
        ['REVERSED, page 1', { status: 'REVERSED' }, of((i) => i.status === 'REVERSED')],
        ['reference (merchantReference)', { reference: mid.merchantReference }, () => [mid]],
        ['reference (providerReference)', { reference: third.providerReference }, () => [third]],
        ['date range (middle tenth), page 1', { fromDate, toDate }, of(inRange)],
        [
          'date range + SUCCESSFUL, page 1',
          { fromDate, toDate, status: 'SUCCESSFUL' },
          of((i) => inRange(i) && i.status === 'SUCCESSFUL'),
        ],
        ['deep page: ALL, last page', { page: String(lastFull(n)) }, of(() => true, lastFull(n))],
        [
          'deep page: REVERSED, last full page',
          { status: 'REVERSED', page: String(lastFull(reversed)) },
          of((i) => i.status === 'REVERSED', lastFull(reversed)),
        ],
        [
          'deep page: SUCCESSFUL, last full page',
          { status: 'SUCCESSFUL', page: String(lastFull(successful)) },
          of((i) => i.status === 'SUCCESSFUL', lastFull(successful)),
        ],
      ]
    }

    const rows: string[][] = []
    let pageTargetMet = true
    let ratioTargetMet = true
    const labels = filters(SMALL.merchantId).map(([label]) => label)
    for (const [index, label] of labels.entries()) {
      const cases = [SMALL, LARGE].map(({ merchantId }) => {
        const [, params, expected] = filters(merchantId)[index]!
        return {
          merchantId,
          query: HistoryQuery.parse({ size: String(SIZE), ...params }),
          expected: expected(seeded.get(merchantId)!.items!).map((i) => i.providerReference),
          times: [] as number[],
          meter: newMeter(),
          returned: 0,
        }
      })
      // Small and large alternate, so that whatever else the machine is doing weighs on both alike.
      for (let run = 0; run < WARMUP + RUNS; run++) {
        for (const c of cases) {
          const meter = newMeter()
          const started = performance.now()
          const page = await listTransactions(c.merchantId, c.query, meter)
          const elapsed = performance.now() - started
          if (run === 0) {
            const got = page.content.map((t) => t.providerReference)
            if (JSON.stringify(got) !== JSON.stringify(c.expected)) {
              throw new Error(
                `${label} for ${c.merchantId}: the page differs from the seeded data (${got.length} vs ${c.expected.length} items)`,
              )
            }
          }
          c.meter = meter
          c.returned = page.content.length
          if (run >= WARMUP) c.times.push(elapsed)
        }
      }
      const [small, large] = cases.map((c) => ({ ...c, ms: median(c.times) })) as [
        (typeof cases)[number] & { ms: number },
        (typeof cases)[number] & { ms: number },
      ]
      if (small.meter.pageItems > SIZE + 1 || large.meter.pageItems > SIZE + 1) pageTargetMet = false
      const ratio = large.ms / small.ms
      if (ratio >= 1.5) ratioTargetMet = false
      rows.push([
        label,
        small.ms.toFixed(2),
        `${small.meter.pageItems} + ${small.meter.otherItems}`,
        String(small.meter.requests),
        large.ms.toFixed(2),
        `${large.meter.pageItems} + ${large.meter.otherItems}`,
        String(large.meter.requests),
        `${ratio.toFixed(2)}x`,
      ])
    }

    const header = [
      'filter (size 50)',
      '1k: median ms',
      '1k: items read (page + other)',
      '1k: requests',
      '100k: median ms',
      '100k: items read (page + other)',
      '100k: requests',
      'time ratio 100k/1k',
    ]
    console.log(
      `\nmedian of ${RUNS} runs after ${WARMUP} warm-up runs of the service call, each page checked against the seeded data:\n`,
    )
    console.log(`| ${header.join(' | ')} |`)
    console.log(`|${header.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`)
    for (const row of rows) console.log(`| ${row.join(' | ')} |`)
    console.log(
      `\npage items read <= size + 1 (${SIZE + 1}) for every filter: ${pageTargetMet ? 'met' : 'NOT met'}`,
    )
    console.log(
      `median time ratio 100,000 / 1,000 < 1.5 for every filter: ${ratioTargetMet ? 'met' : 'NOT met'}`,
    )

    await financeFigures(SMALL.merchantId, LARGE.merchantId, seeded)
  } finally {
    await dynamo.stop()
  }
}

/**
 * Issue 16's figures, in the same run and on the same seeded histories:
 * - a CSV page of 1,000 against a JSON page of 1,000 (the same service call, then either the Area C
 *   JSON envelope or the CSV text), alternating, with the time ratio;
 * - the statement at 1,000 and 100,000 transfers: requests sent and items returned while reading it,
 *   counted on the DynamoDB client itself, and its median time, with the ratio (target under 1.2).
 */
async function financeFigures(
  small: string,
  large: string,
  seeded: Map<string, { items?: { createdAt: string; status: string; amountKobo: number }[] }>,
) {
  const { HistoryCsvQuery } = await import('../lib/merchant-history/schemas.ts')
  const { listTransactions } = await import('../lib/merchant-history/service.ts')
  const { historyCsv } = await import('../lib/finance/csv.ts')
  const { statementOf } = await import('../lib/finance/statement.ts')
  const { dayOf } = await import('../lib/finance/daily-totals.ts')
  const { db } = await import('../lib/platform/db/client.ts')

  // CSV against JSON, page 1 of ALL and a deep page, 1,000 rows each.
  const query = (page: number) => HistoryCsvQuery.parse({ size: '1000', page: String(page) })
  const render = {
    json: (page: Awaited<ReturnType<typeof listTransactions>>) =>
      JSON.stringify({ responseStatus: 'SUCCESS', responseCode: '00', data: page }),
    csv: (page: Awaited<ReturnType<typeof listTransactions>>) => historyCsv(page.content),
  }
  const formatRows: string[][] = []
  for (const [label, page] of [
    ['ALL, page 1', 1],
    ['ALL, page 50', 50],
  ] as const) {
    const times = {
      json: [] as number[],
      csv: [] as number[],
      jsonRender: [] as number[],
      csvRender: [] as number[],
    }
    let bytes = { json: 0, csv: 0 }
    for (let run = 0; run < WARMUP + RUNS; run++) {
      for (const format of ['json', 'csv'] as const) {
        const started = performance.now()
        const result = await listTransactions(large, query(page))
        const read = performance.now()
        const body = render[format](result)
        const done = performance.now()
        if (result.content.length !== 1000)
          throw new Error(`${label}: ${result.content.length} rows, not 1,000`)
        if (run >= WARMUP) {
          times[format].push(done - started)
          times[format === 'json' ? 'jsonRender' : 'csvRender'].push(done - read)
        }
        bytes = { ...bytes, [format]: Buffer.byteLength(body) }
      }
    }
    const [json, csv] = [median(times.json), median(times.csv)]
    formatRows.push([
      label,
      json.toFixed(2),
      csv.toFixed(2),
      `${(csv / json).toFixed(2)}x`,
      `${median(times.jsonRender).toFixed(2)} / ${median(times.csvRender).toFixed(2)}`,
      `${bytes.json} / ${bytes.csv}`,
    ])
  }
  const formatHeader = [
    'page of 1,000 (100k merchant)',
    'JSON: median ms',
    'CSV: median ms',
    'time ratio CSV/JSON',
    'rendering only ms (JSON / CSV)',
    'bytes (JSON / CSV)',
  ]
  console.log(`\nCSV against JSON, page size 1,000, median of ${RUNS} runs (read + render), alternating:\n`)
  console.log(`| ${formatHeader.join(' | ')} |`)
  console.log(`|${formatHeader.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`)
  for (const row of formatRows) console.log(`| ${row.join(' | ')} |`)

  // The statement of each merchant's busiest day: the seeder writes the day totals as the indexer
  // does, and the statement's count is checked against the seeded items of that day.
  const busiest = (merchantId: string) => {
    const perDay = new Map<string, { SUCCESSFUL: number[]; FAILED: number[]; REVERSED: number[] }>()
    for (const item of seeded.get(merchantId)!.items!) {
      const day = perDay.get(dayOf(item.createdAt)) ?? { SUCCESSFUL: [], FAILED: [], REVERSED: [] }
      day[item.status as 'SUCCESSFUL'].push(item.amountKobo)
      perDay.set(dayOf(item.createdAt), day)
    }
    const total = (d: { SUCCESSFUL: number[]; FAILED: number[]; REVERSED: number[] }) =>
      d.SUCCESSFUL.length + d.FAILED.length + d.REVERSED.length
    return [...perDay.entries()].sort((a, b) => total(b[1]) - total(a[1]))[0]!
  }
  const days = new Map<string, { date: string; count: number }>()
  for (const merchantId of [small, large]) {
    const [date, d] = busiest(merchantId)
    days.set(merchantId, { date, count: d.SUCCESSFUL.length + d.FAILED.length + d.REVERSED.length })
  }
  // Every request the client sends, and the items in the replies, counted below the service code.
  const counter = { requests: 0, items: 0 }
  db().middlewareStack.add(
    (next) => async (args) => {
      counter.requests++
      const out = await next(args)
      const reply = out.output as { Item?: unknown; Items?: unknown[] }
      counter.items += reply.Item ? 1 : (reply.Items?.length ?? 0)
      return out
    },
    { step: 'initialize', name: 'benchRequestCounter' },
  )
  const statement = Object.fromEntries(
    [small, large].map((m) => [m, { times: [] as number[], requests: 0, items: 0, count: 0 }]),
  )
  for (let run = 0; run < WARMUP + RUNS * 5; run++) {
    for (const merchantId of [small, large]) {
      const before = { ...counter }
      const started = performance.now()
      const reply = await statementOf(merchantId, days.get(merchantId)!.date)
      const elapsed = performance.now() - started
      if (reply.count !== days.get(merchantId)!.count)
        throw new Error(`${merchantId}: statement count differs`)
      const s = statement[merchantId]!
      s.requests = counter.requests - before.requests
      s.items = counter.items - before.items
      s.count = reply.count
      if (run >= WARMUP) s.times.push(elapsed)
    }
  }
  const [a, b] = [statement[small]!, statement[large]!]
  const ratio = median(b.times) / median(a.times)
  console.log(`\nstatement of the busiest day, median of ${RUNS * 5} runs, alternating:\n`)
  console.log('| merchant | transfers in history | on that day | requests | items read | median ms |')
  console.log('|---|---:|---:|---:|---:|---:|')
  for (const [merchantId, s] of [
    [small, a],
    [large, b],
  ] as const) {
    const total = seeded.get(merchantId)!.items!.length
    console.log(
      `| ${merchantId} | ${total} | ${s.count} | ${s.requests} | ${s.items} | ${median(s.times).toFixed(2)} |`,
    )
  }
  console.log(
    `\nstatement time ratio 100,000 / 1,000: ${ratio.toFixed(2)}x (target < 1.2: ${ratio < 1.2 ? 'met' : 'NOT met'})`,
  )
  console.log(
    `statement items read the same at both sizes (${a.items} and ${b.items}): ${a.items === b.items && a.requests === 1 && b.requests === 1 ? 'met' : 'NOT met'}`,
  )
}

void main().catch((error) => {
  console.error(error)
  process.exit(1)
})
