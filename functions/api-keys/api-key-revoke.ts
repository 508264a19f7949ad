import { revokeKey } from '#lib/registry/self-service-keys.ts'
import { actorOf } from '#lib/platform/audit/trail.ts'
import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { keyRevoke } from '#lib/service/endpoints/api-keys.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'

/** DELETE /api/v1/keys/{key} (ADMIN): 204; requests signed with the key are refused from now on. */
export const handler = apiHandler(keyRevoke, apiSignature, async ({ params, caller }) => {
  await revokeKey(caller, params.key, actorOf(caller))
  return { status: 204 }
})
