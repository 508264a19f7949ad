import { switchSignature } from '#lib/auth/switch-signature.ts'
import { apiHandler } from '#lib/http/factory.ts'
import { AnyJson, parseBankBody, TransferRequest } from '#lib/ledger/schemas.ts'
import { switchClientOf, transfer } from '#lib/ledger/service.ts'

/**
 * POST /api/v1/transactions/transfer: a debit transfer to a merchant. Approved (00) and declined (51)
 * transfers are both recorded and both answer 200; the reply's responseCode says which.
 */
export const handler = apiHandler({ auth: switchSignature, body: AnyJson }, async ({ body, caller }) => ({
  data: await transfer(switchClientOf(caller), parseBankBody(TransferRequest, body)),
}))
