import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { searchInvoices } from '#lib/service/endpoints/invoice-search.ts'
import { nextPageLink, prefersCsv } from '#lib/finance/csv.ts'
import { CSV_CONTENT_TYPE } from '#lib/platform/text/csv.ts'
import { NotFound } from '#lib/platform/errors.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { parseOrThrow } from '#lib/platform/http/validation.ts'
import { searchInvoices as search } from '#lib/invoice/search.ts'
import { searchCsv } from '#lib/invoice/search-csv.ts'
import { SearchCsvQuery, SearchQuery } from '#lib/invoice/search-schemas.ts'

/**
 * GET /api/{v}/invoices: the caller's business's signed invoices, filtered and paged, newest first;
 * with `Accept: text/csv` the same page as CSV (pages of up to 1,000). The query is parsed here
 * (`queryValidation: 'handler'`) because its page limit depends on the format asked for.
 */
export const handler = apiHandler(searchInvoices, apiSignature, async ({ caller, headers, event }) => {
  // The authority's path names the business (GET /api/v1/invoice/{business_id}): only the caller's own
  // is found, so another business's id is 404 like any record of another business.
  const named = event.pathParameters?.business_id
  if (named !== undefined && named !== caller.businessId) {
    throw new NotFound('No business of the caller has this business_id: use your own business id')
  }
  const csv = prefersCsv(headers.accept)
  const query = parseOrThrow(csv ? SearchCsvQuery : SearchQuery, event.queryStringParameters ?? {}, 'query')
  const { page, window } = await search(caller.businessId, query)
  const links: string[] = []
  if (window) {
    const params = new URLSearchParams(event.rawQueryString ?? '')
    params.set('before', String(window.continueBefore))
    params.set('page', '1')
    links.push(`<${event.rawPath}?${params.toString()}>; rel="next-window"`)
  }
  const windowHeaders: Record<string, string> = window ? { 'x-search-window': 'partial' } : {}
  if (!csv)
    return { data: page, headers: { ...windowHeaders, ...(links.length ? { link: links.join(', ') } : {}) } }
  const next = nextPageLink(event.rawPath, event.rawQueryString, {
    page: query.page,
    size: query.size,
    totalPages: page.page.totalPages,
  })
  if (next) links.unshift(next)
  return {
    raw: { contentType: CSV_CONTENT_TYPE, body: searchCsv(page.content) },
    headers: {
      'x-total-count': String(page.page.totalElements),
      ...windowHeaders,
      ...(links.length ? { link: links.join(', ') } : {}),
    },
  }
})
