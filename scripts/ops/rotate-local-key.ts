import { link, rename } from 'node:fs/promises'
import { join } from 'node:path'
import { keysDir, readOrCreatePemFile } from '#lib/platform/keys/pem-store.ts'
import { clearFieldCache } from '#lib/platform/crypto/fields.ts'
import {
  dataKeyDir,
  keyringFor,
  LOCAL_DATA_KEY_FILE,
  localKeyOf,
  localKeyring,
  newLocalKeyText,
  RETIRED_KEY_PREFIX,
  resetKeyring,
} from '#lib/platform/crypto/keyring.ts'
import { type MigrationReport, reencryptUnder, transformAll } from './encryption-migrate.ts'

type Env = Record<string, string | undefined>

/** The next key while a rotation is under way; a rerun after an interruption reuses it. */
export const NEXT_KEY_FILE = `${LOCAL_DATA_KEY_FILE}.next`

export interface RotationResult {
  report: MigrationReport
  /** False when some item changed during the pass: nothing was switched, run the command again. */
  completed: boolean
  /** The old key's file name once retired. */
  retiredFile?: string
}

/**
 * Local key rotation: make (or reuse) the next key, re-encrypt every table value and every sealed
 * key file under it, then make it the current key. The old key stays beside it as
 * `data-key.aes256.retired-<time>`, decrypt-only, until its owner deletes it. In AWS the KMS key
 * rotates itself (rotation is enabled on it) and nothing needs re-encrypting, so this refuses there.
 */
export async function rotateLocalKey(
  keyFileNames: string[],
  env: Env = process.env,
  onScanned?: (items: number) => void,
): Promise<RotationResult> {
  if (env.DATA_KEY_ARN) {
    throw new Error(
      'DATA_KEY_ARN is set: the KMS key rotates its own key material yearly; there is no local key to rotate',
    )
  }
  const dir = dataKeyDir(env)
  const from = await keyringFor(env)
  const { pem: nextText } = await readOrCreatePemFile(dir, NEXT_KEY_FILE, newLocalKeyText)
  const to = localKeyring(localKeyOf(nextText))
  const report = await transformAll(
    reencryptUnder(from, to),
    { dir: keysDir(env), names: keyFileNames },
    onScanned,
  )
  const changedMeanwhile = Object.values(report).some((counts) => counts.changedMeanwhile > 0)
  if (changedMeanwhile) return { report, completed: false }
  const retiredFile = `${RETIRED_KEY_PREFIX}${new Date().toISOString().replace(/[:.]/g, '-')}`
  // Linked first and then replaced by a rename: the current key file is never missing, so no reader
  // can mistake the moment for a first run and generate a key of its own.
  await link(join(dir, LOCAL_DATA_KEY_FILE), join(dir, retiredFile))
  await rename(join(dir, NEXT_KEY_FILE), join(dir, LOCAL_DATA_KEY_FILE))
  resetKeyring()
  clearFieldCache()
  return { report, completed: true, retiredFile }
}
