// The Encryption SDK's own packages rather than its `client-node` roll-up: they ship ES modules,
// so a function bundles only the encryptor, decryptor and keyrings it uses. The roll-up is CommonJS
// and drags in every keyring, the branch key store and the whole DynamoDB command set (BENCHMARKS.md).
import { buildDecrypt } from '@aws-crypto/decrypt-node'
import { buildEncrypt } from '@aws-crypto/encrypt-node'
import {
  AlgorithmSuiteIdentifier,
  CommitmentPolicy,
  type KeyringNode,
} from '@aws-crypto/material-management-node'
import { checkAwsCall } from '#lib/platform/aws-guard.ts'
import { keyring } from './keyring.ts'
import { materialsFor } from './materials.ts'

/**
 * Field-level envelope encryption with the AWS Encryption SDK. A stored value is
 * `enc:v1:<Base64 of the ESDK message>`; the message carries its own wrapped data key, so any
 * keyring holding the wrapping key (KMS or the local AES key) opens it. The encryption context binds
 * a value to its record and field: decrypt checks every expected pair, so a ciphertext copied into
 * another record fails.
 */

export type FieldContext = Record<string, string>

const PREFIX = 'enc:v1:'
/** Key commitment on encrypt and decrypt (the SDK default, stated so nobody weakens it). */
const CLIENT_OPTIONS = {
  commitmentPolicy: CommitmentPolicy.REQUIRE_ENCRYPT_REQUIRE_DECRYPT,
  maxEncryptedDataKeys: 3,
}
const { encrypt } = buildEncrypt(CLIENT_OPTIONS)
const { decrypt } = buildDecrypt(CLIENT_OPTIONS)
/**
 * Committing AES-256-GCM without the ECDSA signature suite: the values are written and read by the
 * same trusted service, and an unsigned message is half the size and much faster to open.
 */
const SUITE = AlgorithmSuiteIdentifier.ALG_AES256_GCM_IV12_TAG16_HKDF_SHA512_COMMIT_KEY

export class DecryptionFailed extends Error {
  override name = 'DecryptionFailed'
}

export const isEncrypted = (stored: unknown): stored is string =>
  typeof stored === 'string' && stored.startsWith(PREFIX)

/**
 * The local key files' record (lib/platform/crypto/sealed-file.ts): they stand in for Secrets Manager, and
 * their readers ask for the secret instead (lib/platform/signing/key-source.ts, lib/qr/authority-key.ts).
 */
const LOCAL_KEY_FILE_RECORD = 'key-file'

/**
 * Asked before every seal and open, whether the data key or the value is cached or not: a role
 * without the grant gets no value in AWS, however warm another function's container is locally.
 */
function checkDataKeyUse(action: 'Decrypt' | 'GenerateDataKey', context: FieldContext) {
  if (context.record !== LOCAL_KEY_FILE_RECORD) {
    checkAwsCall({ service: 'kms', action, record: context.record ?? '' })
  }
}

export async function encryptField(
  plaintext: string,
  context: FieldContext,
  ring?: KeyringNode,
): Promise<string> {
  checkDataKeyUse('GenerateDataKey', context)
  const { result } = await encrypt(materialsFor(ring ?? (await keyring())), Buffer.from(plaintext, 'utf8'), {
    encryptionContext: context,
    suiteId: SUITE,
  })
  return `${PREFIX}${result.toString('base64')}`
}

// Decrypted values kept per container for SECRET_CACHE_SECONDS (default 60), so verifying a
// signature does not open an ESDK message (or call KMS) on every request. Keyed by the ciphertext
// and the context it was verified against.
const cache = new Map<string, { value: string; until: number }>()
const MAX_CACHED = 10_000
const cacheSeconds = () => {
  const n = Number(process.env.SECRET_CACHE_SECONDS ?? 60)
  return Number.isFinite(n) && n >= 0 ? n : 60
}

/** Empties the decrypted-value cache (tests, benchmarks, key rotation). */
export const clearFieldCache = () => cache.clear()

export interface DecryptOptions {
  /** Keep the plaintext in the per-container cache (client secrets; not bulky notes). */
  cache?: boolean
  keyring?: KeyringNode
}

/**
 * The plaintext of a stored value: a plaintext value (not migrated yet) is returned as is; a
 * ciphertext must open under the keyring and carry exactly the expected context pairs, or this
 * throws DecryptionFailed (the message never includes the value).
 */
export async function decryptField(
  stored: string,
  context: FieldContext,
  options: DecryptOptions = {},
): Promise<string> {
  if (!isEncrypted(stored)) return stored
  checkDataKeyUse('Decrypt', context)
  const cacheKey = `${JSON.stringify(context)}\n${stored}`
  if (options.cache) {
    const hit = cache.get(cacheKey)
    if (hit && hit.until > Date.now()) return hit.value
  }
  let opened: Awaited<ReturnType<typeof decrypt>>
  try {
    opened = await decrypt(
      materialsFor(options.keyring ?? (await keyring())),
      Buffer.from(stored.slice(PREFIX.length), 'base64'),
    )
  } catch (error) {
    throw new DecryptionFailed(`The stored value could not be decrypted (${(error as Error).message})`)
  }
  const bound = opened.messageHeader.encryptionContext
  const mismatch = Object.entries(context).find(([name, value]) => bound[name] !== value)
  if (mismatch) {
    throw new DecryptionFailed(
      `The stored value belongs to another record: its encryption context ${mismatch[0]} does not match`,
    )
  }
  const value = opened.plaintext.toString('utf8')
  if (options.cache) {
    const seconds = cacheSeconds()
    if (seconds > 0) {
      if (cache.size >= MAX_CACHED) cache.clear()
      cache.set(cacheKey, { value, until: Date.now() + seconds * 1000 })
    }
  }
  return value
}
