import type { Caller } from '#lib/auth/caller.ts'
import { merchantBearer } from '#lib/auth/merchant-bearer.ts'
import { CSV_CONTENT_TYPE, historyCsv, nextPageLink, prefersCsv } from '#lib/finance/csv.ts'
import { apiHandler } from '#lib/http/factory.ts'
import { parseOrThrow } from '#lib/http/validation.ts'
import { HistoryCsvQuery, HistoryQuery } from '#lib/merchant-history/schemas.ts'
import { listTransactions } from '#lib/merchant-history/service.ts'

const merchantOf = (caller: Caller) => {
  if (caller.scheme !== 'merchant-bearer')
    throw new Error(`Area C handler reached with a ${caller.scheme} caller`)
  return caller.merchantId
}

/**
 * GET /api/v1/merchant/transactions: the calling merchant's history, filtered and paged, newest
 * first. With `Accept: text/csv` the same page as CSV (pages of up to 1,000), the next page in a
 * `Link` header. The query is parsed here, not by the factory, because its page limit depends on
 * the format asked for.
 */
export const handler = apiHandler({ auth: merchantBearer }, async ({ caller, headers, event }) => {
  const csv = prefersCsv(headers.accept)
  const query = parseOrThrow(csv ? HistoryCsvQuery : HistoryQuery, event.queryStringParameters ?? {}, 'query')
  const page = await listTransactions(merchantOf(caller), query)
  if (!csv) return { data: page }
  const link = nextPageLink(event.rawPath, event.rawQueryString, page.page)
  return {
    raw: { contentType: CSV_CONTENT_TYPE, body: historyCsv(page.content) },
    headers: {
      'x-total-count': String(page.page.totalElements),
      ...(link ? { link } : {}),
    },
  }
})
