import { inMode, MODES } from '#lib/platform/mode.ts'
import { signingKey } from './key-source.ts'
import { publishKey } from './published-keys.ts'
import type { PublicJwk } from './jwk.ts'

/**
 * Publishes the deployment's current signing key of each mode in that mode's JWKS (CONTRACT 18: the
 * JWKS lists the current key from the start, before anything is signed). Run where the private keys
 * can be read: the local seed (scripts/local/seed.ts), and in AWS `keys provision`
 * (scripts/cli/keys.ts), which publishes from the secrets it provisions.
 */
export async function publishSigningKeys(): Promise<Record<string, PublicJwk>> {
  const published: Record<string, PublicJwk> = {}
  for (const mode of MODES) {
    const { jwk } = await signingKey(mode)
    await inMode(mode, () => publishKey(jwk))
    published[mode] = jwk
  }
  return published
}
