import { revokeKey } from '#lib/api-keys/self-service.ts'
import { actorOf } from '#lib/audit/trail.ts'
import { apiSignature } from '#lib/auth/api-signature.ts'
import { keyRevoke } from '#lib/endpoints/api-keys.ts'
import { apiHandler } from '#lib/http/factory.ts'

/** DELETE /api/v1/keys/{key} (ADMIN): 204; requests signed with the key are refused from now on. */
export const handler = apiHandler(keyRevoke, apiSignature, async ({ params, caller }) => {
  await revokeKey(caller, params.key, actorOf(caller))
  return { status: 204 }
})
