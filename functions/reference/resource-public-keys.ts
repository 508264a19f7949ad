import { noAuth } from '#lib/platform/auth/authenticate.ts'
import { publicKeys } from '#lib/service/endpoints/reference.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { jwks } from '#lib/platform/signing/signer.ts'

/**
 * GET /api/v1/resource/public-keys: the JWKS of every key that has signed invoices, public so that
 * anyone holding a signed invoice can verify it.
 */
export const handler = apiHandler(publicKeys, noAuth, async () => ({
  data: await jwks(),
  headers: { 'cache-control': 'public, max-age=300' },
}))
