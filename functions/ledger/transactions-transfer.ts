import { switchSignature } from '#lib/platform/auth/switch-signature.ts'
import { transfer as declaration } from '#lib/service/endpoints/ledger.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { transfer } from '#lib/ledger/service.ts'

/**
 * POST /api/v1/transactions/transfer: a debit transfer to a merchant. Approved (00) and declined (51)
 * transfers are both recorded and both answer 200; the reply's responseCode says which.
 */
export const handler = apiHandler(declaration, switchSignature, async ({ body, caller }) => ({
  data: await transfer(caller.switchClientId, body),
}))
