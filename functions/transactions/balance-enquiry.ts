import { switchSignature } from '#lib/auth/switch-signature.ts'
import { apiHandler } from '#lib/http/factory.ts'
import { AnyJson, BalanceEnquiryRequest, parseBankBody } from '#lib/ledger/schemas.ts'
import { balanceEnquiry } from '#lib/ledger/service.ts'

/** POST /api/v1/transactions/balance-enquiry: the account's available balance (a read: nothing is recorded). */
export const handler = apiHandler({ auth: switchSignature, body: AnyJson }, async ({ body }) => ({
  data: await balanceEnquiry(parseBankBody(BalanceEnquiryRequest, body)),
}))
