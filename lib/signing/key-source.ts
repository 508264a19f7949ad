import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
} from 'node:crypto'
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager'
import { type PublicJwk, publicJwkOf } from './jwk.ts'

/**
 * The service's Ed25519 invoice-signing key (CONTRACT section 5), from one of two places:
 *
 * - In AWS (env SIGNING_KEY_SECRET_ARN set): a PKCS#8 PEM private key (or JSON `{"privateKey": "<PEM>"}`)
 *   read from Secrets Manager once per container. Only the functions that sign are given the secret.
 * - Locally: `invoice-signing-ed25519.pem` under env KEYS_DIR (default `<project>/.local/keys`,
 *   gitignored), generated on first use. Parallel test processes may all find it missing at once, so
 *   it is created atomically: written to a private temp file, then hard-linked to its final name,
 *   which fails for every process but the first; the others read the winner's key.
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

type Env = Record<string, string | undefined>

const projectRoot = () => fileURLToPath(new URL('../../', import.meta.url))
const keysDir = (env: Env) => env.KEYS_DIR || join(projectRoot(), '.local', 'keys')
const errorCode = (error: unknown) => (error as { code?: string }).code

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

async function fromFile(env: Env): Promise<SigningKey> {
  const dir = keysDir(env)
  const file = join(dir, SIGNING_KEY_FILE)
  try {
    return signingKeyFromPem(await readFile(file, 'utf8'), 'file', file)
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error
  }
  await mkdir(dir, { recursive: true, mode: 0o700 })
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`
  await writeFile(temp, newSigningKeyPem(), { mode: 0o600, flag: 'wx' })
  try {
    await link(temp, file)
  } catch (error) {
    // Another process linked its key first: theirs is the key, ours is discarded.
    if (errorCode(error) !== 'EEXIST') throw error
  } finally {
    await unlink(temp).catch(() => undefined)
  }
  return signingKeyFromPem(await readFile(file, 'utf8'), 'file', file)
}

async function fromSecretsManager(secretArn: string, client: SecretsManagerClient): Promise<SigningKey> {
  const out = await client.send(new GetSecretValueCommand({ SecretId: secretArn }))
  const text = out.SecretString ?? (out.SecretBinary ? Buffer.from(out.SecretBinary).toString('utf8') : '')
  const pem = text.trimStart().startsWith('{')
    ? String((JSON.parse(text) as { privateKey?: unknown }).privateKey ?? '')
    : text
  if (!pem.includes('PRIVATE KEY')) {
    throw new Error(`The secret ${secretArn} holds no PEM private key: put a PKCS#8 Ed25519 key in it`)
  }
  return signingKeyFromPem(pem, 'secrets-manager', secretArn)
}

/** Where the key comes from in this environment, without loading it. */
export function keySourceKind(env: Env = process.env): SigningKey['source'] {
  if (env.SIGNING_KEY_SECRET_ARN) return 'secrets-manager'
  if (env.AWS_LAMBDA_FUNCTION_NAME) {
    throw new Error('SIGNING_KEY_SECRET_ARN is not set: a deployed function never signs with a generated key')
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
): () => Promise<SigningKey> {
  let loading: Promise<SigningKey> | undefined
  return () => {
    if (!loading) {
      loading = (async () => {
        if (keySourceKind(env) === 'file') return fromFile(env)
        const sm = client ?? new SecretsManagerClient({})
        try {
          return await fromSecretsManager(env.SIGNING_KEY_SECRET_ARN!, sm)
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

/** The container's key. */
export const signingKey = createKeySource()
