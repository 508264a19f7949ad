import { switchSignature } from '#lib/platform/auth/switch-signature.ts'
import { reversal as declaration } from '#lib/service/endpoints/ledger.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { reversal } from '#lib/ledger/service.ts'

/** POST /api/v1/transactions/reversal: credits a successful transfer back, exactly once. */
export const handler = apiHandler(declaration, switchSignature, async ({ body, caller }) => ({
  data: await reversal(caller.switchClientId, body),
}))
