import * as z from 'zod'
import { type EndpointDocs, endpoint } from '#lib/http/endpoint.ts'
import { HISTORY_STATUSES } from '#lib/merchant-history/items.ts'
import { HistoryQuery } from '#lib/merchant-history/schemas.ts'

/** Area C: the merchant's transaction history (spec C.1, CONTRACT section 7). */

export const merchantTransactions = /* @__PURE__ */ endpoint({
  functionId: 'merchant-transactions',
  request: { query: HistoryQuery },
})

export const merchantTransactionsDocs = (): EndpointDocs => ({
  summary: "The merchant's transactions",
  description:
    "The calling merchant's history, filtered and paged, newest first. fromDate/toDate are zone-less Africa/Lagos date-times (or dates).",
  replies: () => ({
    200: {
      description: 'One page of transactions',
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
        page: z.object({
          size: z.int().meta({ description: 'Page size' }),
          number: z.int().meta({ description: 'The page asked for (1-based, as the request)' }),
          totalElements: z.int(),
          totalPages: z.int(),
        }),
      }),
    },
    400: 'A query parameter is invalid: every problem is listed',
  }),
})
