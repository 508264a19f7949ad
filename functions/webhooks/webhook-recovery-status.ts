import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { recoveryStatus } from '#lib/service/endpoints/webhooks.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { recoveryStatus as statusOf } from '#lib/webhooks/recovery.ts'

/** GET /api/v1/webhooks/{id}/recover/{task} (ADMIN): the task's state and counts. */
export const handler = apiHandler(recoveryStatus, apiSignature, async ({ params, caller }) => {
  const data = await statusOf(caller.businessId, params.id, params.task)
  return { message: `Recovery ${data.id} is ${data.state}`, data }
})
