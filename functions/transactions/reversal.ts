import { switchSignature } from '#lib/auth/switch-signature.ts'
import { apiHandler } from '#lib/http/factory.ts'
import { AnyJson, parseBankBody, ReversalRequest } from '#lib/ledger/schemas.ts'
import { reversal, switchClientOf } from '#lib/ledger/service.ts'

/** POST /api/v1/transactions/reversal: credits a successful transfer back, exactly once. */
export const handler = apiHandler({ auth: switchSignature, body: AnyJson }, async ({ body, caller }) => ({
  data: await reversal(switchClientOf(caller), parseBankBody(ReversalRequest, body)),
}))
