import { accountServicer } from '#lib/finance/account-servicer.ts'
import { merchantBearer } from '#lib/platform/auth/merchant-bearer.ts'
import { merchantStatement } from '#lib/service/endpoints/merchant.ts'
import { statementOf } from '#lib/finance/statement.ts'
import {
  negotiateFormat,
  STATEMENT_MEDIA,
  statementCamt053,
  statementCsv,
  statementJson,
  statementMt940,
} from '#lib/finance/statement-formats.ts'
import { periodOf, statementPage } from '#lib/finance/statement-range.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'

/**
 * GET /api/v1/merchant/statement. `date` alone, asking for JSON: the day's totals (CONTRACT 12).
 * Otherwise the statement of entries over `from`..`to` (at most 31 days; `date` is one day) in the
 * format `format=` or Accept asks for (CONTRACT 20), a page of at most 2,000 entries, the next page
 * in a `Link` header (and `data.page.next` in JSON).
 */
export const handler = apiHandler(
  merchantStatement,
  merchantBearer,
  async ({ query, caller, headers, event }) => {
    const format = negotiateFormat(query.format, headers.accept)
    const ranged = query.from !== undefined || query.to !== undefined || query.cursor !== undefined
    if (query.date !== undefined && !ranged && query.format === undefined && format === 'json')
      return { data: await statementOf(caller.merchantId, query.date) }
    const page = await statementPage(caller.merchantId, periodOf(query), query.cursor)
    const link = page.next ? nextLink(event.rawPath, event.rawQueryString, page.next) : undefined
    const linkHeader = link ? { link } : undefined
    if (format === 'json') return { data: statementJson(page), headers: linkHeader }
    const body =
      format === 'csv'
        ? statementCsv(page)
        : format === 'camt053'
          ? statementCamt053(page, accountServicer())
          : statementMt940(page)
    return { raw: { contentType: STATEMENT_MEDIA[format], body }, headers: linkHeader }
  },
)

/** The same query with the next page's cursor (RFC 8288), relative to the request's URL. */
function nextLink(path: string, rawQuery: string | undefined, cursor: string): string {
  const params = new URLSearchParams(rawQuery ?? '')
  params.set('cursor', cursor)
  return `<${path}?${params.toString()}>; rel="next"`
}
