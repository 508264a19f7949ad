import { merchantBearer } from '#lib/platform/auth/merchant-bearer.ts'
import { merchantStatement } from '#lib/service/endpoints/merchant.ts'
import { statementOf } from '#lib/finance/statement.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'

/** GET /api/v1/merchant/statement: the calling merchant's totals for one Lagos calendar day. */
export const handler = apiHandler(merchantStatement, merchantBearer, async ({ query, caller }) => ({
  data: await statementOf(caller.merchantId, query.date),
}))
