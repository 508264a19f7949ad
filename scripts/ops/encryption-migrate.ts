import { rename, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { KeyringNode } from '@aws-crypto/material-management-node'
import { UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { secretContext } from '#lib/platform/auth/credentials.ts'
import { db, tableName } from '#lib/platform/db/client.ts'
import { isConditionFailed } from '#lib/platform/db/errors.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { scanPages } from '#lib/platform/db/query.ts'
import { NOTE_FIELDS, noteContext } from '#lib/invoice/notes.ts'
import { packValue, unpackValue } from '#lib/invoice/packed-json.ts'
import {
  DecryptionFailed,
  decryptField,
  encryptField,
  type FieldContext,
  isEncrypted,
} from '#lib/platform/crypto/fields.ts'
import { keyFileContext } from '#lib/platform/crypto/sealed-file.ts'

/**
 * Offline passes over every protected value (an admin command, never a request path: it Scans).
 * `migrate` encrypts what is still plaintext; `reencrypt` moves every value to a new keyring (local
 * key rotation). Each item is rewritten with a condition that it still holds what was read, so a
 * concurrent change is never overwritten: it is counted as `changedMeanwhile` and a rerun picks it up.
 * Both passes are idempotent: a value already in the target form is left alone.
 */

/** Returns the new stored form of a value, or undefined when it is already as wanted. */
export type Transform = (stored: string, context: FieldContext) => Promise<string | undefined>

export const encryptPlaintext: Transform = async (stored, context) =>
  isEncrypted(stored) ? undefined : encryptField(stored, context)

/** Re-encrypts under `to` whatever does not open under `to` alone; `from` must open the rest. */
export function reencryptUnder(from: KeyringNode, to: KeyringNode): Transform {
  return async (stored, context) => {
    if (!isEncrypted(stored)) return encryptField(stored, context, to)
    try {
      await decryptField(stored, context, { keyring: to })
      return undefined
    } catch (error) {
      if (!(error instanceof DecryptionFailed)) throw error
    }
    return encryptField(await decryptField(stored, context, { keyring: from }), context, to)
  }
}

export interface KindCounts {
  /** Items (or key files) holding protected values. */
  scanned: number
  /** Items rewritten by this run. */
  encrypted: number
  /** Items that needed nothing. */
  alreadyEncrypted: number
  /** Items changed by someone else between the read and the write: run the command again. */
  changedMeanwhile: number
}

export type MigrationReport = Record<'apiClients' | 'switchClients' | 'invoices' | 'keyFiles', KindCounts>

const emptyCounts = (): KindCounts => ({ scanned: 0, encrypted: 0, alreadyEncrypted: 0, changedMeanwhile: 0 })

type Item = Record<string, unknown>
type Secret = { id: string; secret: string; createdAt: string }

const sameKey = (item: Item, key: { pk: string; sk: string }) => item.pk === key.pk && item.sk === key.sk

/** The item's kind and the attribute that holds its protected values, or undefined. */
function protectedAttribute(item: Item): { kind: keyof MigrationReport; attribute: string } | undefined {
  if (
    typeof item.apiKey === 'string' &&
    Array.isArray(item.secrets) &&
    sameKey(item, keys.apiClient(item.apiKey))
  )
    return { kind: 'apiClients', attribute: 'secrets' }
  if (
    typeof item.clientId === 'string' &&
    Array.isArray(item.secrets) &&
    sameKey(item, keys.switchClient(item.clientId))
  )
    return { kind: 'switchClients', attribute: 'secrets' }
  if (typeof item.irn === 'string' && sameKey(item, keys.invoice(item.irn))) {
    if (item.invoice) return { kind: 'invoices', attribute: 'invoice' }
    if (item.invoiceGzip) return { kind: 'invoices', attribute: 'invoiceGzip' }
  }
  return undefined
}

async function transformNotes(irn: string, invoice: Item, transform: Transform): Promise<Item | undefined> {
  let changed = false
  const out: Item = { ...invoice }
  for (const field of NOTE_FIELDS) {
    const value = out[field]
    if (typeof value !== 'string') continue
    const next = await transform(value, noteContext(irn, field))
    if (next !== undefined) {
      out[field] = next
      changed = true
    }
  }
  return changed ? out : undefined
}

/** The attribute's new value, or undefined when nothing changes. */
async function transformed(
  item: Item,
  kind: keyof MigrationReport,
  attribute: string,
  transform: Transform,
): Promise<unknown> {
  if (kind === 'apiClients' || kind === 'switchClients') {
    const owner =
      kind === 'apiClients'
        ? ({ record: 'api-client', id: item.apiKey as string } as const)
        : ({ record: 'switch-client', id: item.clientId as string } as const)
    let changed = false
    const secrets: Secret[] = []
    for (const entry of item.secrets as Secret[]) {
      const next = await transform(entry.secret, secretContext(owner))
      if (next !== undefined) changed = true
      secrets.push({ ...entry, secret: next ?? entry.secret })
    }
    return changed ? secrets : undefined
  }
  const irn = item.irn as string
  if (attribute === 'invoice') return transformNotes(irn, item.invoice as Item, transform)
  const invoice = unpackValue<Item>(item.invoiceGzip as Uint8Array)
  const next = await transformNotes(irn, invoice, transform)
  return next && packValue(next)
}

/** Runs a transform over every protected value of the table, and over the given local key files. */
export async function transformAll(
  transform: Transform,
  keyFiles: { dir: string; names: string[] } | undefined,
  /** Told the table items scanned so far after each page (the CLI's progress). */
  onScanned?: (items: number) => void,
): Promise<MigrationReport> {
  let scannedItems = 0
  const report: MigrationReport = {
    apiClients: emptyCounts(),
    switchClients: emptyCounts(),
    invoices: emptyCounts(),
    keyFiles: emptyCounts(),
  }
  for await (const page of scanPages({ ConsistentRead: true })) {
    scannedItems += page.ScannedCount ?? page.Items?.length ?? 0
    for (const item of page.Items ?? []) {
      const found = protectedAttribute(item)
      if (!found) continue
      const counts = report[found.kind]
      counts.scanned++
      const next = await transformed(item, found.kind, found.attribute, transform)
      if (next === undefined) {
        counts.alreadyEncrypted++
        continue
      }
      try {
        await db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: { pk: item.pk, sk: item.sk },
            UpdateExpression: 'SET #a = :new',
            ConditionExpression: '#a = :old',
            ExpressionAttributeNames: { '#a': found.attribute },
            ExpressionAttributeValues: { ':new': next, ':old': item[found.attribute] },
          }),
        )
        counts.encrypted++
      } catch (error) {
        if (!isConditionFailed(error)) throw error
        counts.changedMeanwhile++
      }
    }
    onScanned?.(scannedItems)
  }

  for (const name of keyFiles?.names ?? []) {
    const file = join(keyFiles!.dir, name)
    let stored: string
    try {
      const raw = await readFile(file, 'utf8')
      // A plain PEM is sealed byte for byte (trailing newline included); a sealed one is one line.
      stored = isEncrypted(raw.trim()) ? raw.trim() : raw
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') continue
      throw error
    }
    report.keyFiles.scanned++
    const next = await transform(stored, keyFileContext(name))
    if (next === undefined) {
      report.keyFiles.alreadyEncrypted++
      continue
    }
    // Replaced atomically: a reader sees the old file or the new one, never half of one.
    const temp = `${file}.${process.pid}.migrate.tmp`
    await writeFile(temp, next, { mode: 0o600 })
    await rename(temp, file)
    report.keyFiles.encrypted++
  }
  return report
}
