import { readOrCreatePemFile } from '#lib/platform/keys/pem-store.ts'
import { decryptField, encryptField } from './fields.ts'

/**
 * A local private-key file (signing key, QR authority key) kept encrypted under the data key, so a
 * copy of the key directory without the data key file, or a backup of one file, reveals nothing.
 * A file written before encryption existed (plain PEM) is still read; `encryption migrate` seals it.
 */

export const keyFileContext = (fileName: string) => ({ record: 'key-file', id: fileName, field: 'pem' })

export async function readOrCreateSealedPemFile(
  dir: string,
  fileName: string,
  generate: () => string | Promise<string>,
): Promise<{ pem: string; file: string }> {
  const context = keyFileContext(fileName)
  const { pem: stored, file } = await readOrCreatePemFile(dir, fileName, async () =>
    encryptField(await generate(), context),
  )
  return { pem: await decryptField(stored.trim(), context), file }
}
