import { encryptPlaintext, type MigrationReport, transformAll } from '../ops/encryption-migrate.ts'
import { rotateLocalKey } from '../ops/rotate-local-key.ts'
import { keysDir } from '#lib/platform/keys/pem-store.ts'
import { AUTHORITY_KEY_FILE } from '#lib/qr/authority-key.ts'
import { SIGNING_KEY_FILE } from '#lib/platform/signing/key-source.ts'
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb'
import { db, tableName } from '#lib/platform/db/client.ts'
import type { Command } from './command.ts'
import { progress } from './progress.ts'

/** The private-key files kept under KEYS_DIR locally, sealed under the data key. */
const KEY_FILES = [SIGNING_KEY_FILE, AUTHORITY_KEY_FILE]

const migrateHelp = `encryption migrate: encrypt the values still stored in plaintext (issue 7).

Encrypts, in place, every API client secret, switch client secret and invoice note and
payment_terms_note of the table, and the local private-key files under KEYS_DIR (when DATA_KEY_ARN is
not set). Reads accept both forms, so the service keeps working while this runs. Each item is
rewritten only if it still holds what was read; an item changed meanwhile is counted and left for a
rerun. Running it again changes nothing. It Scans the whole table: an offline admin command.

Uses the keyring of the environment: DATA_KEY_ARN (the data stack's KMS key, output DataKeyArn) in
AWS, the local key file under KEYS_DIR otherwise.

Example: npm run cli -- encryption migrate --table einvoicing-prod --region eu-west-1
         DATA_KEY_ARN=arn:aws:kms:... npm run cli -- encryption migrate --table einvoicing-prod --region eu-west-1`

const rotateHelp = `encryption rotate-local-key: replace the local data key and re-encrypt everything under it.

Run it while npm start is running (its table is the one to re-encrypt; start it with DATA_DIR for data
that outlives it), then restart npm start: until the restart the server holds the old key in memory
and refuses requests whose secret was re-encrypted (401). This:
  1. creates KEYS_DIR/data-key.aes256.next (an interrupted run reuses it),
  2. re-encrypts every secret, note and local key file under the new key (conditional writes),
  3. keeps the old key as KEYS_DIR/data-key.aes256.retired-<time> (still used to decrypt) and makes
     the new key current.
If an item changed during the pass nothing is switched: run the command again. Once it reports
completed, a second run finds nothing to re-encrypt; delete the retired file when you no longer need
to read older copies (backups, table exports). Refused when DATA_KEY_ARN is set: KMS rotates its key.

Example: npm run cli -- encryption rotate-local-key`

/**
 * The table's item count, as DescribeTable gives it (AWS refreshes it about every six hours: an
 * estimate for the time left), or none when it cannot be read.
 */
async function itemEstimate(): Promise<number | undefined> {
  try {
    return (await db().send(new DescribeTableCommand({ TableName: tableName() }))).Table?.ItemCount
  } catch {
    return undefined
  }
}

/** The pass's progress on stderr: items scanned, rate and time left against the table's item count. */
async function scanProgress(label: string) {
  const shown = progress(`${label}: scanned`, { total: await itemEstimate() })
  let last = 0
  return {
    scanned: (items: number) => {
      last = items
      shown.update(items)
    },
    end: () => shown.end(last),
  }
}

/** The summary first (what was done, in how long), then the counts of each kind. */
const printReport = (report: MigrationReport, started: number) => {
  const all = Object.values(report)
  const sum = (key: keyof (typeof all)[number]) => all.reduce((n, c) => n + c[key], 0)
  const changed = sum('changedMeanwhile')
  console.log(
    `Encrypted ${sum('encrypted')} of ${sum('scanned')} protected values (${sum('alreadyEncrypted')} already encrypted${changed ? `, ${changed} changed meanwhile: run again` : ''}) in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
  )
  for (const [kind, c] of Object.entries(report)) {
    console.log(
      `${kind.padEnd(14)} scanned ${c.scanned}, encrypted ${c.encrypted}, already encrypted ${c.alreadyEncrypted}` +
        (c.changedMeanwhile ? `, changed meanwhile ${c.changedMeanwhile} (run again)` : ''),
    )
  }
}

export const commands: Command[] = [
  {
    name: 'encryption migrate',
    summary: 'encrypt the client secrets, switch secrets, invoice notes and key files still in plaintext',
    help: migrateHelp,
    options: { json: { type: 'boolean' } },
    async run(v) {
      const keyFiles = process.env.DATA_KEY_ARN ? undefined : { dir: keysDir(), names: KEY_FILES }
      const started = Date.now()
      const scan = await scanProgress('encryption migrate')
      const report = await transformAll(encryptPlaintext, keyFiles, scan.scanned)
      scan.end()
      if (v.json) console.log(JSON.stringify(report))
      else printReport(report, started)
    },
  },
  {
    name: 'encryption rotate-local-key',
    summary: 'make a new local data key and re-encrypt every protected value under it',
    help: rotateHelp,
    options: { json: { type: 'boolean' } },
    async run(v) {
      const started = Date.now()
      const scan = await scanProgress('encryption rotate-local-key')
      const result = await rotateLocalKey(KEY_FILES, process.env, scan.scanned)
      scan.end()
      if (v.json) console.log(JSON.stringify(result))
      else {
        // The verdict first, then the counts.
        console.log(
          result.completed
            ? `The new key is current; the old one is kept as ${result.retiredFile} (decrypt only).`
            : 'Some items changed during the pass: the key was not switched. Run the command again.',
        )
        printReport(result.report, started)
      }
      if (!result.completed) process.exitCode = 1
    },
  },
]
