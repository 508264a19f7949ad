import { merchantBearer } from '#lib/auth/merchant-bearer.ts'
import { merchantTransactions } from '#lib/endpoints/merchant.ts'
import { apiHandler } from '#lib/http/factory.ts'
import { listTransactions } from '#lib/merchant-history/service.ts'

/** GET /api/v1/merchant/transactions: the calling merchant's history, filtered and paged, newest first. */
export const handler = apiHandler(merchantTransactions, merchantBearer, async ({ query, caller }) => ({
  data: await listTransactions(caller.merchantId, query),
}))
