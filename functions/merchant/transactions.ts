import { merchantBearer } from '#lib/auth/merchant-bearer.ts'
import type { Caller } from '#lib/auth/caller.ts'
import { apiHandler } from '#lib/http/factory.ts'
import { HistoryQuery } from '#lib/merchant-history/schemas.ts'
import { listTransactions } from '#lib/merchant-history/service.ts'

const merchantOf = (caller: Caller) => {
  if (caller.scheme !== 'merchant-bearer')
    throw new Error(`Area C handler reached with a ${caller.scheme} caller`)
  return caller.merchantId
}

/** GET /api/v1/merchant/transactions: the calling merchant's history, filtered and paged, newest first. */
export const handler = apiHandler(
  { auth: merchantBearer, query: HistoryQuery },
  async ({ query, caller }) => ({
    data: await listTransactions(merchantOf(caller), query),
  }),
)
