import { listKeys } from '#lib/api-keys/self-service.ts'
import { apiSignature } from '#lib/auth/api-signature.ts'
import { keyList } from '#lib/endpoints/api-keys.ts'
import { apiHandler } from '#lib/http/factory.ts'

/** GET /api/v1/keys (ADMIN): the business's keys, without secrets. */
export const handler = apiHandler(keyList, apiSignature, async ({ caller }) => {
  const listed = await listKeys(caller)
  return { message: `${listed.length} API key${listed.length === 1 ? '' : 's'}`, data: listed }
})
