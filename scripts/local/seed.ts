import { readFile } from 'node:fs/promises'
import { bundledLists } from '#lib/reference/manifest.ts'
import { writeList } from '#lib/reference/store.ts'
import type { ReferenceListName } from '#lib/reference/lists.ts'
import { seedDevelopmentCredentials } from './dev-credentials.ts'
import { seedLedger } from './ledger-seed.ts'
import { seedTaxpayers } from './taxpayers.ts'
import { publishSigningKeys } from '#lib/platform/signing/publish-keys.ts'

const dataDir = new URL('../../data/reference/', import.meta.url)

/** Loads one bundled list (data/reference) into the table. */
export async function loadBundledList(name: ReferenceListName) {
  const meta = bundledLists[name]
  const rows = JSON.parse(await readFile(new URL(meta.file, dataDir), 'utf8')) as unknown[]
  return writeList(name, rows, {
    version: meta.version,
    sourceDate: meta.sourceDate,
    complete: meta.complete,
    source: meta.source,
  })
}

export async function seedReferenceLists(): Promise<void> {
  await Promise.all((Object.keys(bundledLists) as ReferenceListName[]).map((name) => loadBundledList(name)))
}

/**
 * Everything a fresh local table needs: the reference lists, the development credentials, taxpayers,
 * accounts and merchants, and both modes' signing keys in the JWKS.
 */
export async function seedLocal(): Promise<void> {
  await Promise.all([
    seedReferenceLists(),
    seedDevelopmentCredentials(),
    seedTaxpayers(),
    seedLedger(),
    publishedKeys(),
  ])
}

/**
 * The signing keys in the JWKS, when they can be read. A key that cannot be (KEYS_DIR unusable) does
 * not stop the server: the sign path and the health check report it, as they would in AWS.
 */
async function publishedKeys(): Promise<void> {
  await publishSigningKeys().catch((error: unknown) => {
    console.error(`Signing keys not published in the JWKS: ${(error as Error).message}`)
  })
}
