import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { recoveryStart } from '#lib/service/endpoints/webhooks.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { actorOf } from '#lib/platform/audit/trail.ts'
import { startRecovery } from '#lib/webhooks/recovery.ts'

/** POST /api/v1/webhooks/{id}/recover (ADMIN): 202, a background task sending the missed events again. */
export const handler = apiHandler(recoveryStart, apiSignature, async ({ params, body, caller }) => {
  const data = await startRecovery(caller.businessId, params.id, body, actorOf(caller))
  return { status: 202, message: `Recovery ${data.id} started`, data }
})
