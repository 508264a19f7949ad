import { issueKey } from '#lib/registry/self-service-keys.ts'
import { actorOf } from '#lib/platform/audit/trail.ts'
import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { keyIssue } from '#lib/service/endpoints/api-keys.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { sealedReplies } from '#lib/platform/http/sealed-reply.ts'

/** POST /api/v1/keys (ADMIN): 201, data = the new key with its secret, shown this once. */
export const handler = apiHandler(
  keyIssue,
  apiSignature,
  async ({ body, caller }) => ({
    status: 201,
    message: 'API key issued: keep the secret, it is not shown again',
    data: await issueKey(caller, body, actorOf(caller)),
  }),
  // The secret is in the reply: with an Idempotency-Key, the stored reply is sealed.
  { sealedReplies },
)
