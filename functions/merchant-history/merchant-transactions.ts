import { merchantBearer } from '#lib/platform/auth/merchant-bearer.ts'
import { merchantTransactions } from '#lib/service/endpoints/merchant.ts'
import { historyCsv, nextPageLink, prefersCsv } from '#lib/finance/csv.ts'
import { CSV_CONTENT_TYPE } from '#lib/platform/text/csv.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { parseOrThrow } from '#lib/platform/http/validation.ts'
import { HistoryCsvQuery, HistoryQuery } from '#lib/merchant-history/schemas.ts'
import { listTransactions } from '#lib/merchant-history/service.ts'

/**
 * GET /api/v1/merchant/transactions: the calling merchant's history, filtered and paged, newest
 * first. With `Accept: text/csv` the same page as CSV (pages of up to 1,000), the next page in a
 * `Link` header. The declaration leaves the query to the handler (`queryValidation: 'handler'`)
 * because its page limit depends on the format asked for.
 */
export const handler = apiHandler(
  merchantTransactions,
  merchantBearer,
  async ({ caller, headers, event }) => {
    const csv = prefersCsv(headers.accept)
    const query = parseOrThrow(
      csv ? HistoryCsvQuery : HistoryQuery,
      event.queryStringParameters ?? {},
      'query',
    )
    const page = await listTransactions(caller.merchantId, query)
    if (!csv) return { data: page }
    const link = nextPageLink(event.rawPath, event.rawQueryString, {
      page: query.page,
      size: query.size,
      totalPages: page.page.totalPages,
    })
    return {
      raw: { contentType: CSV_CONTENT_TYPE, body: historyCsv(page.content) },
      headers: {
        'x-total-count': String(page.page.totalElements),
        ...(link ? { link } : {}),
      },
    }
  },
)
