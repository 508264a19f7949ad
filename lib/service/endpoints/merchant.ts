import * as z from 'zod'
import { type EndpointDocs, endpointsOf } from '#lib/platform/http/endpoint.ts'
import { HISTORY_STATUSES } from '#lib/merchant-history/items.ts'
import { StatementQuery, StatementRecord } from '#lib/finance/statement.ts'
import { HistoryQuery } from '#lib/merchant-history/schemas.ts'
import { NumberedPage, reads } from './common.ts'

/** Area C: the merchant's transaction history (spec C.1, CONTRACT section 7). */

const merchantHistory = /* @__PURE__ */ endpointsOf({
  domain: 'merchant-history',
  stack: 'merchant',
  area: 'C',
  auth: 'merchant-bearer',
  reply: 'merchant',
})

export const merchantTransactions = /* @__PURE__ */ merchantHistory({
  functionId: 'merchant-transactions',
  routes: [{ method: 'GET', path: '/api/v1/merchant/transactions' }],
  // Pages read the striped lists and the status, time and reference indexes (lib/merchant-history).
  access: { table: [reads(['MHIST#', 'PROVREF#'], ['gsi1', 'gsi2', 'gsi3'])] },
  request: { query: HistoryQuery, queryValidation: 'handler' },
})

export const merchantStatement = /* @__PURE__ */ merchantHistory({
  functionId: 'merchant-statement',
  routes: [{ method: 'GET', path: '/api/v1/merchant/statement' }],
  access: { table: [reads(['MHIST#'])] },
  request: { query: StatementQuery },
})

export const merchantTransactionsDocs = (): EndpointDocs => ({
  summary: "The merchant's transactions",
  description:
    "The calling merchant's history, filtered and paged, newest first. `page` counts from 1 in the request and `data.page.number` from 0 in the reply (`page=1` replies `number` 0). fromDate/toDate are zone-less Africa/Lagos date-times (or dates). `reference` matches the merchant's own reference or the providerReference; with `status` or dates as well it applies to a reference of at most 1,000 transactions (a larger one is 400: page it without them). With `Accept: text/csv`, the same page as RFC 4180 CSV (size up to 1,000), the next page in a `Link` header.",
  replies: () => ({
    200: {
      description: 'One page of transactions',
      otherMedia: {
        'text/csv': 'The page as CSV: a header row, one row per transaction, amounts with 2 decimals',
      },
      headers: {
        Link: 'CSV only: the next page',
        'X-Total-Count': 'CSV only: transactions matching the filter',
      },
      data: z.object({
        content: z
          .array(
            z.object({
              amount: z.number().meta({ description: 'Naira, 2 decimals' }),
              completedAt: z
                .string()
                .nullable()
                .meta({ description: 'Lagos local date-time; null while INITIATED' }),
              merchantReference: z.string().meta({ description: "The merchant's own reference" }),
              providerReference: z.string().meta({ description: "The bank's reference, TNX + digits" }),
              queriedAccount: z.string().meta({ description: 'The debited account' }),
              status: z.enum(HISTORY_STATUSES as [string, ...string[]]),
              type: z.string().meta({ description: 'The transaction type' }),
            }),
          )
          .meta({ description: 'Newest first' }),
        page: NumberedPage(),
      }),
    },
    400: 'A query parameter is invalid: every problem is listed',
  }),
})

export const merchantStatementDocs = (): EndpointDocs => ({
  summary: "The merchant's totals for one Lagos calendar day",
  description:
    "Counts and amounts by current status of the transactions created that day (a reversal moves its transfer from successful to reversed on the transfer's day). One item read whatever the volume; it may trail the ledger by as much as the history does.",
  replies: () => ({
    200: { description: "The day's statement", data: StatementRecord },
    400: '`date` is missing or is not a YYYY-MM-DD date',
  }),
})
