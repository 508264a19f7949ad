import { createHash, createPrivateKey, createPublicKey, generateKeyPair, type KeyObject } from 'node:crypto'
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager'
import { checkAwsCall } from '#lib/platform/aws-guard.ts'
import { readOrCreateSealedPemFile } from '#lib/platform/crypto/sealed-file.ts'
import { keysDir, pemFromSecretText, readPemSecret } from '#lib/platform/keys/pem-store.ts'
import { DependencyDown } from '#lib/platform/errors.ts'
import { logger } from '#lib/platform/log.ts'
import { SECRET_ENV, secretOfMode } from '#lib/platform/iam/access.ts'
import { currentMode, type Mode } from '#lib/platform/mode.ts'

/**
 * The service's RSA-2048 "authority" key pairs for QR codes (CONTRACT sections 5 and 18). One per
 * deployment and mode: a test-mode QR code is encrypted for the test key, so the live key never
 * reads it, nor the reverse. The private keys never leave the service.
 *
 * - In AWS (env QR_KEY_SECRET_ARN, and TEST_QR_KEY_SECRET_ARN for test): the PEM private key
 *   (PKCS#8 or PKCS#1; or JSON `{"privateKey": "<PEM>"}`) is read from Secrets Manager once per
 *   container.
 * - Locally: a PEM file `qr-authority-rsa2048.pem` (test: `qr-authority-rsa2048-test.pem`) under env
 *   KEYS_DIR (default `<project>/.local/keys`, gitignored), generated on first use (atomically: see
 *   lib/platform/keys/pem-store.ts).
 */
export interface AuthorityKey {
  publicKey: KeyObject
  privateKey: KeyObject
  /** First 16 characters of the base64url SHA-256 of the public key's SPKI DER: tells keys apart. */
  keyId: string
  source: 'secrets-manager' | 'file'
  /** The secret ARN or the file path the key came from. */
  location: string
}

export const AUTHORITY_KEY_FILE = 'qr-authority-rsa2048.pem'
export const TEST_AUTHORITY_KEY_FILE = 'qr-authority-rsa2048-test.pem'
const KEY_FILES: Record<Mode, string> = { live: AUTHORITY_KEY_FILE, test: TEST_AUTHORITY_KEY_FILE }
const MODULUS_BITS = 2048

/** A fresh PKCS#8 PEM RSA-2048 private key: what the deployment's secret must hold. */
export async function newAuthorityKeyPem(): Promise<string> {
  // Not util.promisify: a named import from node:util makes the bundle copy the module's properties
  // when it loads, which loads Node's lazy parts of it (parseArgs, diff, workers), about 3 ms.
  const privateKey = await new Promise<KeyObject>((resolve, reject) =>
    generateKeyPair('rsa', { modulusLength: MODULUS_BITS }, (error, _publicKey, key) =>
      error ? reject(error) : resolve(key),
    ),
  )
  return privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
}

function fromPem(pem: string, source: AuthorityKey['source'], location: string): AuthorityKey {
  const privateKey = createPrivateKey(pem)
  const bits = privateKey.asymmetricKeyDetails?.modulusLength
  if (privateKey.asymmetricKeyType !== 'rsa' || bits !== MODULUS_BITS) {
    throw new Error(
      `The QR authority key at ${location} must be RSA-${MODULUS_BITS} (found ${privateKey.asymmetricKeyType} ${bits ?? ''})`,
    )
  }
  const publicKey = createPublicKey(privateKey)
  const spki = publicKey.export({ type: 'spki', format: 'der' })
  const keyId = createHash('sha256').update(spki).digest('base64url').slice(0, 16)
  return { publicKey, privateKey, keyId, source, location }
}

/** The mode's key file in `dir`, created atomically if absent (exported for the race test). */
export async function keyFromFile(dir: string, mode: Mode = 'live'): Promise<AuthorityKey> {
  const { pem, file } = await readOrCreateSealedPemFile(dir, KEY_FILES[mode], newAuthorityKeyPem)
  return fromPem(pem, 'file', file)
}

const EXPECTED = `an RSA-${MODULUS_BITS} key`

/** A secret's text: a PEM private key, or JSON `{"privateKey": "<PEM>"}`. */
export function keyFromSecret(text: string, secretArn: string): AuthorityKey {
  return fromPem(pemFromSecretText(text, secretArn, EXPECTED), 'secrets-manager', secretArn)
}

async function fromSecretsManager(secretArn: string): Promise<AuthorityKey> {
  const client = new SecretsManagerClient({})
  try {
    return fromPem(await readPemSecret(client, secretArn, EXPECTED), 'secrets-manager', secretArn)
  } finally {
    client.destroy()
  }
}

const loaded = new Map<Mode, Promise<AuthorityKey>>()

/**
 * The key of `mode` (by default the mode of the work running now), loaded once per container (a
 * failed load is retried on the next call).
 */
export function authorityKey(mode: Mode = currentMode()): Promise<AuthorityKey> {
  // At every use: locally one process serves every function (see lib/platform/signing/key-source.ts).
  try {
    checkAwsCall({ service: 'secretsmanager', action: 'GetSecretValue', secret: 'qr-authority-key' })
  } catch (error) {
    return Promise.reject(error)
  }
  let loading = loaded.get(mode)
  if (!loading) {
    const env = SECRET_ENV[secretOfMode('qr-authority-key', mode)]
    const secretArn = process.env[env]
    loading = secretArn
      ? fromSecretsManager(secretArn)
      : process.env.AWS_LAMBDA_FUNCTION_NAME
        ? // A deployed function never makes up its own key: QR codes would not decrypt in other containers.
          Promise.reject(new Error(`${env} is not set: a deployed function never generates its own QR key`))
        : keyFromFile(keysDir(), mode)
    loaded.set(mode, loading)
    loading.catch(() => loaded.delete(mode))
  }
  return loading
}

/** For request paths: a key that cannot be loaded is a dependency down (503), never a 500. */
export async function requireAuthorityKey(mode: Mode = currentMode()): Promise<AuthorityKey> {
  try {
    return await authorityKey(mode)
  } catch (error) {
    logger.error('QR authority key unavailable', { error })
    throw new DependencyDown(
      'The QR authority key is not available: retry shortly; if it persists the service key is misconfigured',
      {
        cause: error,
      },
    )
  }
}
