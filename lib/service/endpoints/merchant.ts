import * as z from 'zod'
import { type EndpointDocs, endpointsOf } from '#lib/platform/http/endpoint.ts'
import { HISTORY_STATUSES } from '#lib/merchant-history/items.ts'
import { StatementRecord } from '#lib/finance/statement.ts'
import { MAX_STATEMENT_DAYS, STATEMENT_PAGE_ENTRIES, StatementQuery } from '#lib/finance/statement-range.ts'
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
  // The day totals and the statement entries (MHIST#<merchant>#STMT), both under the history's prefix.
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

const Money = (what: string) => z.number().meta({ description: `${what}, naira with 2 decimals` })

/** The JSON statement of entries (lib/finance/statement-formats.ts statementJson). */
const StatementOfEntries = z.object({
  merchantId: z.string(),
  currency: z.literal('NGN'),
  from: z.string().meta({ description: 'First Lagos calendar day' }),
  to: z.string().meta({ description: 'Last Lagos calendar day (inclusive)' }),
  openingBalance: Money('The balance before the first entry of this page'),
  entries: z.array(
    z.object({
      seq: z.int().meta({ description: "The entry's number in the merchant's statement (1, 2, 3...)" }),
      bookedAt: z.string().meta({ description: 'ISO 8601 with offset, e.g. 2026-01-23T11:00:00+01:00' }),
      valueAt: z.string().meta({ description: 'When the ledger did it, ISO 8601 with offset' }),
      type: z.enum(['TRANSFER', 'REVERSAL']),
      creditDebit: z.enum(['CREDIT', 'DEBIT']),
      amount: Money('Signed: a credit positive, a debit (reversal) negative'),
      currency: z.literal('NGN'),
      balanceAfter: Money('The balance after this entry'),
      providerReference: z.string(),
      merchantReference: z.string(),
      accountNumber: z.string().meta({ description: 'The payer account, as text (leading zeros kept)' }),
    }),
  ),
  closingBalance: Money('openingBalance + the entries, to the kobo'),
  totals: z.object({
    count: z.int(),
    credits: z.object({ count: z.int(), amount: z.number() }),
    debits: z.object({ count: z.int(), amount: z.number() }),
  }),
  page: z.object({
    number: z.int().meta({ description: '1-based' }),
    last: z.boolean(),
    next: z
      .string()
      .nullable()
      .meta({ description: 'The cursor of the next page (also in the Link header)' }),
  }),
})

export const merchantStatementDocs = (): EndpointDocs => ({
  summary: "The merchant's statement: a day's totals, or the entries of up to 31 days",
  description: `Two forms. \`date\` alone (JSON): the totals of one Lagos calendar day (CONTRACT 12), one item read whatever the volume: transfers created that day by status as created, and the reversals made that day (a reversal never changes an earlier day). \`from\` and \`to\` (at most ${MAX_STATEMENT_DAYS} days; or \`date\` with a format): the statement of entries (CONTRACT 20): the opening balance, every entry (a credit per successful transfer, a debit of its own per reversal on the day it happened) and the closing balance, opening + entries = closing to the kobo. The format is \`format=json|csv|camt053|mt940\` or the Accept header (application/json, text/csv, application/xml for ISO 20022 camt.053.001.08, text/plain for SWIFT MT940); a format Accept does not allow is 406. Pages of at most ${STATEMENT_PAGE_ENTRIES} entries, each balanced on its own, the next in a \`Link\` header (\`cursor\`). A past period's export never changes. It may trail the ledger by as much as the history does.`,
  replies: () => ({
    200: {
      description: "The day's totals (date alone), or one page of the statement of entries",
      data: z.union([StatementRecord, StatementOfEntries]),
      otherMedia: {
        'text/csv':
          'The statement as CSV: an opening balance row, one row per entry, a closing balance row; a currency column, ISO 8601 times with offset, account numbers as ="0123456789"',
        'application/xml': 'ISO 20022 camt.053.001.08 (BankToCustomerStatementV08)',
        'text/plain': 'SWIFT MT940',
      },
      headers: { Link: 'The next page of the statement, when there is one' },
    },
    400: 'A query parameter is invalid (STATEMENT_PERIOD_MISSING, STATEMENT_PERIOD_REVERSED, STATEMENT_PERIOD_TOO_LONG past 31 days, STATEMENT_CURSOR_INVALID): every problem is listed',
    406: 'format= and Accept disagree, or Accept names no statement format (STATEMENT_FORMAT_NOT_ACCEPTABLE)',
  }),
})
