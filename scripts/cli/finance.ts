import { createWriteStream } from 'node:fs'
import { finished } from 'node:stream/promises'
import { exportHistory } from '#lib/finance/export.ts'
import { reconcile } from '#lib/finance/reconcile.ts'
import { HistoryCsvQuery } from '#lib/merchant-history/schemas.ts'
import type { Command } from './command.ts'
import { progress } from './progress.ts'
import { optional, required } from './require.ts'

/** Finance commands (CONTRACT section 12): the history as a CSV file, and the ledger's reconciliation. */

const exportHelp = `history export: write a merchant's history for a period to a CSV file (RFC 4180, as the API's
Accept: text/csv pages), with its progress on stderr (rows, rate, time left).

Options:
  --merchant ID     merchant id (required), e.g. MRC0001
  --out FILE        the CSV file to write (required; replaced if it exists)
  --from DATE       Lagos local date or date-time, e.g. 2026-01-01 (default: the first transaction)
  --to DATE         Lagos local date or date-time, inclusive (default: now, when the export starts)
  --status STATUS   ALL (default), SUCCESSFUL, FAILED or REVERSED

Example: npm run cli -- history export --merchant MRC0001 --from 2026-01-01 --to 2026-01-31 --out jan.csv`

const reconcileHelp = `ledger reconcile: prove that balances, transfers, merchant histories and daily totals agree.

Checks every account (balance = opening balance + its recorded transfers) and every merchant (one
history item per ledger transfer to it, with the same amount, account, status and time, and each
day's totals equal to that day's transfers). Read-only. Prints each difference and exits 1 if there
is any, 0 otherwise. A run that finds differences checks again after --settle-ms (the history may
trail the ledger by seconds) and reports only those found both times.

Options:
  --settle-ms N     wait before the second check (default 3000)

Example: npm run cli -- ledger reconcile`

export const commands: Command[] = [
  {
    name: 'history export',
    summary: "write a merchant's history for a period to a CSV file, with its progress",
    help: exportHelp,
    options: {
      merchant: { type: 'string' },
      out: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      status: { type: 'string' },
    },
    async run(v) {
      const merchantId = required(v, 'merchant', exportHelp)
      const path = required(v, 'out', exportHelp)
      const filters = {
        fromDate: optional(v, 'from'),
        toDate: optional(v, 'to'),
        status: optional(v, 'status'),
      }
      const checked = HistoryCsvQuery.safeParse(filters)
      if (!checked.success) {
        console.error(`${checked.error.issues.map((i) => i.message).join('\n')}\n\n${exportHelp}`)
        process.exit(2)
      }
      const file = createWriteStream(path, { encoding: 'utf8' })
      const shown = progress(`history export: ${merchantId}`, { unit: 'rows' })
      const { rows, pages } = await exportHistory(merchantId, filters, file, (done, total) =>
        shown.update(done, total),
      )
      shown.end(rows)
      file.end()
      await finished(file)
      console.log(JSON.stringify({ merchantId, file: path, rows, pages }, null, 2))
    },
  },
  {
    name: 'ledger reconcile',
    summary: 'check balances, transfers, histories and daily totals agree (exit 1 naming each difference)',
    help: reconcileHelp,
    options: { 'settle-ms': { type: 'string' } },
    async run(v) {
      const settle = optional(v, 'settle-ms')
      if (settle !== undefined && !/^\d+$/.test(settle)) {
        console.error(
          `--settle-ms must be a whole number of milliseconds (got ${settle}).\n\n${reconcileHelp}`,
        )
        process.exit(2)
      }
      const started = Date.now()
      const scan = progress('reconcile: scanned')
      const report = await reconcile({
        ...(settle === undefined ? {} : { settleMs: Number(settle) }),
        progress: {
          scanned: (items) => scan.update(items),
          settling: (found, ms) =>
            console.error(
              `reconcile: ${found} difference(s) in the first scan; checking again in ${ms} ms (a transfer committing mid-scan is not one)`,
            ),
        },
      })
      const { differences, ...counts } = report
      // The summary first: a person reads the verdict before thousands of lines.
      console.log(
        `Checked ${counts.accounts} accounts, ${counts.merchants} merchants, ${counts.transfers} transfers, ${counts.historyItems} history items, ${counts.days} daily totals in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
      )
      if (differences.length === 0) {
        console.log('Reconciled: no differences.')
        return
      }
      console.log(`${differences.length} difference${differences.length === 1 ? '' : 's'} found:`)
      for (const d of differences) console.log(`DIFFERENCE ${d.message}`)
      process.exitCode = 1
    },
  },
]
