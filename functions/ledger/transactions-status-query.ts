import { switchSignature } from '#lib/platform/auth/switch-signature.ts'
import { statusQuery as declaration } from '#lib/service/endpoints/ledger.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { statusQuery } from '#lib/ledger/status-query.ts'

/**
 * POST /api/v1/transactions/status-query: the first reply of a transfer or reversal by requestId,
 * or a final 25 for a requestId never received.
 */
export const handler = apiHandler(declaration, switchSignature, async ({ body, caller }) => ({
  data: await statusQuery(caller.switchClientId, body),
}))
