import { sign } from 'node:crypto'
import { DependencyDown } from '#lib/platform/errors.ts'
import { logger } from '#lib/platform/log.ts'
import { keySourceKind, type SigningKey, signingKey } from './key-source.ts'
import { publishedKeys, publishKey } from './published-keys.ts'
import type { PublicJwk } from './jwk.ts'

export interface Signature {
  /** Ed25519 over the exact bytes given, base64url. */
  signature: string
  kid: string
}

let ready: Promise<SigningKey> | undefined

/**
 * The container's key, published in the JWKS before its first use: a signature is never handed out
 * that the published keys cannot verify. Loaded and published once per container.
 */
async function publishedSigningKey(): Promise<SigningKey> {
  if (!ready) {
    ready = signingKey().then(async (key) => {
      await publishKey(key.jwk)
      return key
    })
    ready.catch(() => {
      ready = undefined
    })
  }
  try {
    // signingKey() again: it asks for the secret at every use (key-source.ts), and returns the key
    // loaded once.
    const [key] = await Promise.all([signingKey(), ready])
    return key
  } catch (error) {
    logger.error('invoice signing key unavailable', { error })
    throw new DependencyDown(
      'The invoice signing key is not available: retry shortly; if it persists the service key is misconfigured',
      { cause: error },
    )
  }
}

export async function signBytes(bytes: Buffer): Promise<Signature> {
  const key = await publishedSigningKey()
  return { signature: sign(null, bytes, key.privateKey).toString('base64url'), kid: key.jwk.kid }
}

/**
 * The JWKS: every key published in the table. Where this function can load the key (locally, or in
 * AWS when it is given the secret) it publishes it first, so a fresh deployment shows its key before
 * anything is signed; without the secret it reads the table only, and a key that cannot be loaded
 * (logged) does not stop the published ones being served.
 */
export async function jwks(): Promise<{ keys: PublicJwk[] }> {
  if (keySourceKindSafe() !== undefined) await publishedSigningKey().catch(() => undefined)
  return { keys: await publishedKeys() }
}

function keySourceKindSafe(): SigningKey['source'] | undefined {
  try {
    return keySourceKind()
  } catch {
    // A deployed public-keys function is meant to have no key source at all.
    return undefined
  }
}
