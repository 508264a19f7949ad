import * as z from 'zod'
import { SEARCH_COUNTER_PREFIX, SEARCH_LIST_PREFIX } from '#lib/platform/db/keys.ts'
import { type EndpointDocs, endpointsOf } from '#lib/platform/http/endpoint.ts'
import { SEARCH_PAYMENT_STATUSES, SearchPath, SearchQuery } from '#lib/invoice/search-schemas.ts'
import { Adjustments, ANY, Irn, IsoDateTime, NumberedPage, reads } from './common.ts'

/** Supplier search and export (CONTRACT 16; keys and costs in docs/capacity.md, "Supplier search"). */

const invoiceSearch = /* @__PURE__ */ endpointsOf({
  domain: 'invoice-search',
  stack: 'invoicing',
  area: 'A',
  auth: 'api-signature',
  reply: 'envelope',
  versions: ['v1', 'v2'],
})

export const searchInvoices = /* @__PURE__ */ invoiceSearch({
  functionId: 'invoice-search',
  routes: [
    { method: 'GET', path: '/invoices' },
    // The authority's search names the business in its path: another business's id is 404.
    { method: 'GET', path: '/api/v1/invoice/{business_id}', profile: 'authority' },
  ],
  roles: ANY,
  // The counters (INVSEQ#) and the list (INVLIST#, its filter spaces on gsi1-3); an irn is looked up
  // by its invoice record (IRN#).
  access: {
    table: [reads([SEARCH_COUNTER_PREFIX, SEARCH_LIST_PREFIX, 'IRN#'], ['gsi1', 'gsi2', 'gsi3'])],
  },
  request: { params: SearchPath, query: SearchQuery, queryValidation: 'handler' },
})

export const searchInvoicesDocs = (): EndpointDocs => ({
  summary: "Search the business's signed invoices",
  description:
    "The caller's business's signed invoices, newest first, filtered and paged like the merchant history: `page` counts from 1 in the request and `data.page.number` from 0 in the reply. An invoice is listed as soon as its sign reply is sent. No filter, or one of `buyer_tin`, `invoice_type_code` and `currency`: a page reads at most `size` + 1 items whatever the volume. `payment_status`, the issue dates, or two key filters together are applied to one window of the newest 1,000 invoices of the narrowest key filter given; when more remain below it, the reply's `Link` header has a `next-window` link (`before=<number>`), and `X-Search-Window: partial`. With `Accept: text/csv`, the same page as RFC 4180 CSV (size up to 1,000).",
  replies: () => ({
    200: {
      description: 'One page of invoice summaries',
      otherMedia: {
        'text/csv': 'The page as CSV: a header row, one row per invoice, amounts with 2 decimals',
      },
      headers: {
        Link: 'The next page (CSV), and the next window of a windowed search (`rel="next-window"`)',
        'X-Total-Count': 'CSV only: invoices matching the filter',
        'X-Search-Window': '`partial` when a windowed search did not reach the oldest invoice',
      },
      data: z.object({
        content: z
          .array(
            z.object({
              irn: Irn(),
              invoice_type_code: z.string(),
              issue_date: z.string(),
              currency: z.string(),
              buyer_tin: z.string().nullable(),
              buyer_name: z.string().nullable(),
              payable_amount: z.number().meta({ description: '2 decimals' }),
              payment_status: z.enum(SEARCH_PAYMENT_STATUSES),
              signed_at: IsoDateTime(),
              adjustments: Adjustments(),
            }),
          )
          .meta({ description: 'Newest first' }),
        page: NumberedPage(),
      }),
    },
    400: 'A query parameter is invalid: every problem is listed',
    404: "At the authority's path (GET /api/v1/invoice/{business_id}): the business_id is not the caller's business",
  }),
})
