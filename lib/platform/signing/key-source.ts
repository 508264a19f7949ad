import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto'
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager'
import { checkAwsCall } from '#lib/platform/aws-guard.ts'
import { readOrCreateSealedPemFile } from '#lib/platform/crypto/sealed-file.ts'
import { keysDir, readPemSecret } from '#lib/platform/keys/pem-store.ts'
import { currentMode, type Mode } from '#lib/platform/mode.ts'
import { SECRET_ENV, secretOfMode } from '#lib/platform/iam/access.ts'
import { type PublicJwk, publicJwkOf } from './jwk.ts'

/**
 * The service's Ed25519 invoice-signing keys (CONTRACT sections 5 and 18), one per mode: test-mode
 * invoices are signed with a key of their own, so no test signature verifies against a live key.
 * Each from one of two places:
 *
 * - In AWS (env SIGNING_KEY_SECRET_ARN, and TEST_SIGNING_KEY_SECRET_ARN for test): a PKCS#8 PEM
 *   private key (or JSON `{"privateKey": "<PEM>"}`) read from Secrets Manager once per container.
 *   Only the functions that sign are given the secrets.
 * - Locally: `invoice-signing-ed25519.pem` (test: `invoice-signing-ed25519-test.pem`) under env
 *   KEYS_DIR (default `<project>/.local/keys`, gitignored), generated on first use (atomically: see
 *   lib/platform/keys/pem-store.ts).
 *
 * Inside Lambda without the secret it refuses to start rather than sign with a throwaway key.
 */
export interface SigningKey {
  privateKey: KeyObject
  publicKey: KeyObject
  /** The public key as published in the JWKS; `kid` is its RFC 7638 thumbprint. */
  jwk: PublicJwk
  source: 'secrets-manager' | 'file'
  location: string
}

export const SIGNING_KEY_FILE = 'invoice-signing-ed25519.pem'
export const TEST_SIGNING_KEY_FILE = 'invoice-signing-ed25519-test.pem'
const KEY_FILES: Record<Mode, string> = { live: SIGNING_KEY_FILE, test: TEST_SIGNING_KEY_FILE }
/** The environment variable holding each mode's secret ARN. */
const secretEnv = (mode: Mode) => SECRET_ENV[secretOfMode('signing-key', mode)]

type Env = Record<string, string | undefined>

export function signingKeyFromPem(pem: string, source: SigningKey['source'], location: string): SigningKey {
  const privateKey = createPrivateKey(pem)
  if (privateKey.asymmetricKeyType !== 'ed25519') {
    throw new Error(`The signing key at ${location} must be Ed25519 (found ${privateKey.asymmetricKeyType})`)
  }
  const publicKey = createPublicKey(privateKey)
  return { privateKey, publicKey, jwk: publicJwkOf(publicKey), source, location }
}

/** A fresh Ed25519 private key as PKCS#8 PEM: what the deployment's secret must hold. */
export const newSigningKeyPem = (): string =>
  generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()

async function fromFile(env: Env, mode: Mode): Promise<SigningKey> {
  const { pem, file } = await readOrCreateSealedPemFile(keysDir(env), KEY_FILES[mode], newSigningKeyPem)
  return signingKeyFromPem(pem, 'file', file)
}

async function fromSecretsManager(secretArn: string, client: SecretsManagerClient): Promise<SigningKey> {
  const pem = await readPemSecret(client, secretArn, 'a PKCS#8 Ed25519 key')
  return signingKeyFromPem(pem, 'secrets-manager', secretArn)
}

/** Where the mode's key comes from in this environment, without loading it. */
function keySourceKind(env: Env, mode: Mode): SigningKey['source'] {
  if (env[secretEnv(mode)]) return 'secrets-manager'
  if (env.AWS_LAMBDA_FUNCTION_NAME) {
    throw new Error(`${secretEnv(mode)} is not set: a deployed function never signs with a generated key`)
  }
  return 'file'
}

/**
 * A loader that reads the key once and then hands back the same key (a failed load is retried on
 * the next call, so a transient Secrets Manager error does not poison the container).
 */
export function createKeySource(
  env: Env = process.env,
  client?: SecretsManagerClient,
  mode: Mode = 'live',
): () => Promise<SigningKey> {
  let loading: Promise<SigningKey> | undefined
  return () => {
    // Asked at every use, not only at the first load: locally one process serves every function, and
    // a function whose role may not read the secret must not sign with a key another one loaded.
    try {
      checkAwsCall({ service: 'secretsmanager', action: 'GetSecretValue', secret: 'signing-key' })
    } catch (error) {
      return Promise.reject(error)
    }
    if (!loading) {
      loading = (async () => {
        if (keySourceKind(env, mode) === 'file') return fromFile(env, mode)
        const sm = client ?? new SecretsManagerClient({})
        try {
          return await fromSecretsManager(env[secretEnv(mode)]!, sm)
        } finally {
          if (!client) sm.destroy()
        }
      })()
      loading.catch(() => {
        loading = undefined
      })
    }
    return loading
  }
}

const sources: Record<Mode, () => Promise<SigningKey>> = {
  live: createKeySource(process.env, undefined, 'live'),
  test: createKeySource(process.env, undefined, 'test'),
}

/** The container's key of `mode` (by default the mode of the work running now). */
export const signingKey = (mode: Mode = currentMode()): Promise<SigningKey> => sources[mode]()
