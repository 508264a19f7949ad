import { createHash, randomBytes } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { KmsKeyringNode } from '@aws-crypto/kms-keyring-node'
import { type KeyringNode, MultiKeyringNode } from '@aws-crypto/material-management-node'
import { RawAesKeyringNode, RawAesWrappingSuiteIdentifier } from '@aws-crypto/raw-aes-keyring-node'
import { keysDir, readOrCreatePemFile } from '#lib/platform/keys/pem-store.ts'

/**
 * THE ONLY place that knows where data keys come from. In AWS (env DATA_KEY_ARN set) every value is
 * wrapped by the customer-managed KMS key of the data stack; locally by a raw AES-256 key kept in a
 * file under KEYS_DIR (default `<project>/.local/keys`, gitignored), generated once on first use.
 */

type Env = Record<string, string | undefined>

/**
 * The local data key's folder: env DATA_KEY_DIR if set, else KEYS_DIR (default `.local/keys`) beside
 * the signing and QR key files it seals.
 */
export const dataKeyDir = (env: Env = process.env) => env.DATA_KEY_DIR || keysDir(env)

/** The local data key file: 32 random bytes, Base64, one line. */
export const LOCAL_DATA_KEY_FILE = 'data-key.aes256'
const NAMESPACE = 'einvoice-local'

/** A raw AES keyring for one local key; its name is the key's fingerprint, so two keys never collide. */
export function localKeyring(key: Buffer): RawAesKeyringNode {
  if (key.length !== 32) throw new Error('The local data key must be 32 bytes (Base64 in the key file)')
  const fingerprint = createHash('sha256').update(key).digest('hex').slice(0, 16)
  return new RawAesKeyringNode({
    keyNamespace: NAMESPACE,
    keyName: `data-key-${fingerprint}`,
    unencryptedMasterKey: new Uint8Array(key),
    wrappingSuite: RawAesWrappingSuiteIdentifier.AES256_GCM_IV12_TAG16_NO_PADDING,
  })
}

export const newLocalKeyText = () => `${randomBytes(32).toString('base64')}\n`
export const localKeyOf = (text: string) => Buffer.from(text.trim(), 'base64')

/** The local key, created atomically (several test processes may start at once). */
export async function readLocalKey(env: Env = process.env): Promise<Buffer> {
  const { pem } = await readOrCreatePemFile(dataKeyDir(env), LOCAL_DATA_KEY_FILE, newLocalKeyText)
  return localKeyOf(pem)
}

/**
 * Keys replaced by `encryption rotate-local-key`, kept (decrypt only) until their owner deletes them,
 * so a value the rotation could not reach (written meanwhile by a running local server) still opens.
 */
export const RETIRED_KEY_PREFIX = `${LOCAL_DATA_KEY_FILE}.retired-`

async function retiredLocalKeys(dir: string): Promise<Buffer[]> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) =>
    n.startsWith(RETIRED_KEY_PREFIX),
  )
  return Promise.all(names.sort().map(async (name) => localKeyOf(await readFile(join(dir, name), 'utf8'))))
}

/** The keyring for this configuration. */
export async function keyringFor(env: Env = process.env): Promise<KeyringNode> {
  if (env.DATA_KEY_ARN) return new KmsKeyringNode({ generatorKeyId: env.DATA_KEY_ARN })
  if (env.AWS_LAMBDA_FUNCTION_NAME) {
    throw new Error('DATA_KEY_ARN is not set: a deployed function never encrypts with a local key file')
  }
  const current = localKeyring(await readLocalKey(env))
  const retired = await retiredLocalKeys(dataKeyDir(env))
  return retired.length ? rotatingKeyring(current, retired.map(localKeyring)) : current
}

/** A keyring that encrypts under `current` and decrypts under it or any of `previous` (key rotation). */
export const rotatingKeyring = (current: KeyringNode, previous: KeyringNode[]): KeyringNode =>
  new MultiKeyringNode({ generator: current, children: previous })

let shared: Promise<KeyringNode> | undefined

/** The process's keyring, built once per container. */
export function keyring(): Promise<KeyringNode> {
  shared ??= keyringFor().catch((error: unknown) => {
    shared = undefined
    throw error
  })
  return shared
}

/** Forgets the process keyring (after the local key file was rotated). */
export function resetKeyring(): void {
  shared = undefined
}
