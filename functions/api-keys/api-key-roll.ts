import { rollKey } from '#lib/registry/self-service-keys.ts'
import { actorOf } from '#lib/platform/audit/trail.ts'
import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { keyRoll } from '#lib/service/endpoints/api-keys.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { sealedReplies } from '#lib/platform/http/sealed-reply.ts'

/** POST /api/v1/keys/{key}/roll (ADMIN): 201, data = the key's new secret, shown this once. */
export const handler = apiHandler(
  keyRoll,
  apiSignature,
  async ({ body, params, caller }) => ({
    status: 201,
    message: 'API key rolled: keep the new secret, it is not shown again',
    data: await rollKey(caller, params.key, body.overlap_seconds, actorOf(caller)),
  }),
  { sealedReplies },
)
