import { listKeys } from '#lib/registry/self-service-keys.ts'
import { apiSignature } from '#lib/platform/auth/api-signature.ts'
import { keyList } from '#lib/service/endpoints/api-keys.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'

/** GET /api/v1/keys (ADMIN): the business's keys, without secrets. */
export const handler = apiHandler(keyList, apiSignature, async ({ caller }) => {
  const listed = await listKeys(caller)
  return { message: `${listed.length} API key${listed.length === 1 ? '' : 's'}`, data: listed }
})
