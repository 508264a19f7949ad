import { noAuth } from '#lib/platform/auth/authenticate.ts'
import { publicKeys } from '#lib/service/endpoints/reference.ts'
import { apiHandler } from '#lib/platform/http/factory.ts'
import { inMode } from '#lib/platform/mode.ts'
import { publishedKeys } from '#lib/platform/signing/published-keys.ts'

/**
 * GET /api/v1/resource/public-keys[?mode=test]: the JWKS of the mode asked for, read from the table
 * only (the deployment publishes its keys: lib/platform/signing/publish-keys.ts), so this function
 * never holds a private key. Public, so that anyone holding a signed invoice can verify it; no
 * credential says the mode, so the query does.
 */
export const handler = apiHandler(publicKeys, noAuth, async ({ query }) => ({
  data: { keys: await inMode(query.mode, publishedKeys) },
  headers: { 'cache-control': 'public, max-age=300' },
}))
