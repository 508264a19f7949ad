import type { Caller } from '#lib/auth/caller.ts'
import { merchantBearer } from '#lib/auth/merchant-bearer.ts'
import { StatementQuery, statementOf } from '#lib/finance/statement.ts'
import { apiHandler } from '#lib/http/factory.ts'

const merchantOf = (caller: Caller) => {
  if (caller.scheme !== 'merchant-bearer')
    throw new Error(`Area C handler reached with a ${caller.scheme} caller`)
  return caller.merchantId
}

/** GET /api/v1/merchant/statement: the calling merchant's totals for one Lagos calendar day. */
export const handler = apiHandler(
  { auth: merchantBearer, query: StatementQuery },
  async ({ query, caller }) => ({
    data: await statementOf(merchantOf(caller), query.date),
  }),
)
