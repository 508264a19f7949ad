import {
  getLocalCryptographicMaterialsCache,
  NodeCachingMaterialsManager,
} from '@aws-crypto/caching-materials-manager-node'
import {
  type KeyringNode,
  NodeDecryptionMaterial,
  NodeDefaultCryptographicMaterialsManager,
  NodeEncryptionMaterial,
} from '@aws-crypto/material-management-node'

/**
 * Data keys from the Encryption SDK's own caching materials manager, so a warm container makes no
 * KMS call per request: one GenerateDataKey serves up to MAX_MESSAGES values or MAX_AGE_MS, and one
 * Decrypt opens every value written under that data key for MAX_AGE_MS (docs/operations.md, "Caches and their
 * staleness bounds").
 *
 * The SDK's cache is keyed by the encryption context, and ours differs per record (record, id,
 * field), so it would never hit. The manager below therefore asks the cache for materials under the
 * context's `record` pair alone (the data key's KMS encryption context: one data key per kind of
 * record, api-client, switch-client or invoice) and hands the SDK that data key bound to the value's
 * own context. The per-record binding is kept: the message header carries the whole context and is
 * authenticated with a key derived from the data key and the message id, and decryptField checks
 * those pairs. KMS (CloudTrail, and the key policy's conditions on kms:EncryptionContext:record in
 * infra/constructs/api-function.ts) still sees the kind of record; no longer the id and field.
 * Values written before this (no KEY_SCOPE pair) open as before.
 */

/** The context a data key is generated and unwrapped under (KMS or the local AES key). */
const sharedContext = (context: Context) => ({ record: context.record ?? '' })
/** Marks a value whose data key was wrapped under sharedContext, not under the value's own context. */
export const KEY_SCOPE = 'data-key-scope'
const SHARED = 'shared-v1'

/** One data key for at most 5 minutes and 10,000 values (the SDK allows 2^32). */
export const MAX_AGE_MS = 5 * 60 * 1000
export const MAX_MESSAGES = 10_000
const CACHE_CAPACITY = 100

type Context = Record<string, string>

/** The same data key and wrapped copies, bound to another encryption context. */
function rebind<M extends NodeEncryptionMaterial | NodeDecryptionMaterial>(source: M, context: Context): M {
  const copy = (
    source instanceof NodeEncryptionMaterial
      ? new NodeEncryptionMaterial(source.suite, context)
      : new NodeDecryptionMaterial(source.suite, context)
  ) as M
  const [dataKeyTrace, ...wrapTraces] = source.keyringTrace
  const dataKey = source.getUnencryptedDataKey()
  copy.setUnencryptedDataKey(dataKey instanceof Uint8Array ? new Uint8Array(dataKey) : dataKey, dataKeyTrace!)
  if (source instanceof NodeEncryptionMaterial && copy instanceof NodeEncryptionMaterial) {
    source.encryptedDataKeys.forEach((edk, i) => {
      copy.addEncryptedDataKey(edk, wrapTraces[i]!.flags)
    })
  }
  // The source is a clone the caching manager made for this call: zero its copy of the key.
  source.zeroUnencryptedDataKey()
  return copy
}

class SharedDataKeyMaterialsManager extends NodeDefaultCryptographicMaterialsManager {
  readonly #cached: NodeCachingMaterialsManager

  constructor(keyring: KeyringNode) {
    super(keyring)
    this.#cached = new NodeCachingMaterialsManager({
      backingMaterials: keyring,
      cache: getLocalCryptographicMaterialsCache(CACHE_CAPACITY),
      maxAge: MAX_AGE_MS,
      maxMessagesEncrypted: MAX_MESSAGES,
    })
  }

  override async getEncryptionMaterials(
    request: Parameters<NodeDefaultCryptographicMaterialsManager['getEncryptionMaterials']>[0],
  ): Promise<NodeEncryptionMaterial> {
    const shared = await this.#cached.getEncryptionMaterials({
      ...request,
      encryptionContext: sharedContext(request.encryptionContext),
    })
    return rebind(shared, { ...request.encryptionContext, [KEY_SCOPE]: SHARED })
  }

  override async decryptMaterials(
    request: Parameters<NodeDefaultCryptographicMaterialsManager['decryptMaterials']>[0],
  ): Promise<NodeDecryptionMaterial> {
    // Written before shared data keys: its data key is wrapped under its own context.
    if (request.encryptionContext[KEY_SCOPE] !== SHARED) return super.decryptMaterials(request)
    const shared = await this.#cached.decryptMaterials({
      ...request,
      encryptionContext: sharedContext(request.encryptionContext),
    })
    return rebind(shared, request.encryptionContext)
  }
}

const managers = new WeakMap<KeyringNode, SharedDataKeyMaterialsManager>()

/** The materials manager of a keyring, one per keyring per container (its cache lives in it). */
export function materialsFor(keyring: KeyringNode): SharedDataKeyMaterialsManager {
  let manager = managers.get(keyring)
  if (!manager) {
    manager = new SharedDataKeyMaterialsManager(keyring)
    managers.set(keyring, manager)
  }
  return manager
}
