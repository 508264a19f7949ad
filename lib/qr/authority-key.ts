import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPair,
  type KeyObject,
  randomBytes,
} from 'node:crypto'
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager'
import { DependencyDown } from '#lib/http/errors.ts'
import { logger } from '#lib/log.ts'

/**
 * The service's RSA-2048 "authority" key pair for QR codes (CONTRACT section 5). One per deployment;
 * the private key never leaves the service.
 *
 * - In AWS (env QR_KEY_SECRET_ARN set): the PEM private key (PKCS#8 or PKCS#1; or JSON
 *   `{"privateKey": "<PEM>"}`) is read from Secrets Manager once per container.
 * - Locally: a PEM file `qr-authority-rsa2048.pem` under env KEYS_DIR (default `<project>/.local/keys`,
 *   gitignored), generated on first use. Several processes (parallel test files, a local server) may
 *   start at once, so it is created atomically: written to a private temp file, then hard-linked to its
 *   final name, which fails if another process won; the loser reads the winner's key.
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
const MODULUS_BITS = 2048

const projectRoot = () => fileURLToPath(new URL('../../', import.meta.url))
export const keysDir = () => process.env.KEYS_DIR || join(projectRoot(), '.local', 'keys')

/** A fresh PKCS#8 PEM RSA-2048 private key: what the deployment's secret must hold. */
export async function newAuthorityKeyPem(): Promise<string> {
  const { privateKey } = await promisify(generateKeyPair)('rsa', { modulusLength: MODULUS_BITS })
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

const errorCode = (error: unknown) => (error as { code?: string }).code

/** The key file in `dir`, created atomically if absent (exported for the race test). */
export async function keyFromFile(dir: string): Promise<AuthorityKey> {
  const file = join(dir, AUTHORITY_KEY_FILE)
  try {
    return fromPem(await readFile(file, 'utf8'), 'file', file)
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error
  }
  await mkdir(dir, { recursive: true, mode: 0o700 })
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`
  await writeFile(temp, await newAuthorityKeyPem(), { mode: 0o600, flag: 'wx' })
  try {
    await link(temp, file)
  } catch (error) {
    // Another process linked its key first: theirs is the key, ours is discarded.
    if (errorCode(error) !== 'EEXIST') throw error
  } finally {
    await unlink(temp).catch(() => undefined)
  }
  return fromPem(await readFile(file, 'utf8'), 'file', file)
}

/** A secret's text: a PEM private key, or JSON `{"privateKey": "<PEM>"}`. */
export function keyFromSecret(text: string, secretArn: string): AuthorityKey {
  let pem = text
  if (text.trimStart().startsWith('{')) {
    try {
      pem = String((JSON.parse(text) as { privateKey?: unknown }).privateKey ?? '')
    } catch {
      pem = ''
    }
  }
  if (!pem.includes('PRIVATE KEY')) {
    throw new Error(`The secret ${secretArn} holds no PEM private key: put an RSA-${MODULUS_BITS} key in it`)
  }
  return fromPem(pem, 'secrets-manager', secretArn)
}

async function fromSecretsManager(secretArn: string): Promise<AuthorityKey> {
  const client = new SecretsManagerClient({})
  try {
    const out = await client.send(new GetSecretValueCommand({ SecretId: secretArn }))
    const text = out.SecretString ?? (out.SecretBinary ? Buffer.from(out.SecretBinary).toString('utf8') : '')
    return keyFromSecret(text, secretArn)
  } finally {
    client.destroy()
  }
}

let loading: Promise<AuthorityKey> | undefined

/** The key, loaded once per container (a failed load is retried on the next call). */
export function authorityKey(): Promise<AuthorityKey> {
  if (!loading) {
    const secretArn = process.env.QR_KEY_SECRET_ARN
    loading = secretArn
      ? fromSecretsManager(secretArn)
      : process.env.AWS_LAMBDA_FUNCTION_NAME
        ? // A deployed function never makes up its own key: QR codes would not decrypt in other containers.
          Promise.reject(
            new Error('QR_KEY_SECRET_ARN is not set: a deployed function never generates its own QR key'),
          )
        : keyFromFile(keysDir())
    loading.catch(() => {
      loading = undefined
    })
  }
  return loading
}

/** For request paths: a key that cannot be loaded is a dependency down (503), never a 500. */
export async function requireAuthorityKey(): Promise<AuthorityKey> {
  try {
    return await authorityKey()
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
