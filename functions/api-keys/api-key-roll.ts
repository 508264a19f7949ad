import { rollKey } from '#lib/api-keys/self-service.ts'
import { actorOf } from '#lib/audit/trail.ts'
import { apiSignature } from '#lib/auth/api-signature.ts'
import { keyRoll } from '#lib/endpoints/api-keys.ts'
import { apiHandler } from '#lib/http/factory.ts'
import { sealedReplies } from '#lib/http/sealed-reply.ts'

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
