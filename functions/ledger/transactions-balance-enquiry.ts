import { switchSignature } from '#lib/platform/auth/switch-signature.ts'
import { balanceEnquiry as declaration } from '#lib/service/endpoints/ledger.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { balanceEnquiry } from '#lib/ledger/service.ts'

/** POST /api/v1/transactions/balance-enquiry: the account's available balance (a read: nothing is recorded). */
export const handler = apiHandler(declaration, switchSignature, async ({ body }) => ({
  data: await balanceEnquiry(body),
}))
