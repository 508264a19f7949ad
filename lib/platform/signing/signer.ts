import { sign } from 'node:crypto'
import { DependencyDown } from '#lib/platform/errors.ts'
import { logger } from '#lib/platform/log.ts'
import { currentMode, type Mode } from '#lib/platform/mode.ts'
import { type SigningKey, signingKey } from './key-source.ts'
import { publishKey } from './published-keys.ts'

export interface Signature {
  /** Ed25519 over the exact bytes given, base64url. */
  signature: string
  kid: string
}

const ready = new Map<Mode, Promise<SigningKey>>()

/**
 * The container's key of the work's mode (CONTRACT 18: a test-mode invoice is signed with the test
 * key), published in that mode's JWKS before its first use: a signature is never handed out that the
 * published keys cannot verify. Loaded and published once per container and mode. The deployment
 * publishes its keys up front too (the local seed, `keys provision` in AWS), so the JWKS is never
 * empty; this covers a key replaced since.
 */
async function publishedSigningKey(): Promise<SigningKey> {
  const mode = currentMode()
  let publishing = ready.get(mode)
  if (!publishing) {
    publishing = signingKey(mode).then(async (key) => {
      await publishKey(key.jwk)
      return key
    })
    ready.set(mode, publishing)
    publishing.catch(() => ready.delete(mode))
  }
  try {
    // signingKey() again: it asks for the secret at every use (key-source.ts), and returns the key
    // loaded once.
    const [key] = await Promise.all([signingKey(mode), publishing])
    return key
  } catch (error) {
    logger.error('invoice signing key unavailable', { error, mode })
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
