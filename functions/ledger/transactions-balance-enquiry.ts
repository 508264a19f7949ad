import { switchSignature } from '#lib/auth/switch-signature.ts'
import { balanceEnquiry as declaration } from '#lib/endpoints/ledger.ts'
import { apiHandler } from '#lib/http/factory.ts'
import { balanceEnquiry } from '#lib/ledger/service.ts'

/** POST /api/v1/transactions/balance-enquiry: the account's available balance (a read: nothing is recorded). */
export const handler = apiHandler(declaration, switchSignature, async ({ body }) => ({
  data: await balanceEnquiry(body),
}))
