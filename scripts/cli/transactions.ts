import { addMerchant, getAccount, openAccount } from '#lib/ledger/repository.ts'
import { TransferRequest } from '#lib/ledger/schemas.ts'
import { formatNaira, toKobo } from '#lib/platform/money.ts'
import { rankHistoryReferences } from '../ops/rank-history-references.ts'
import { seedTransactions } from '../ops/seed-transactions.ts'
import type { Command } from './command.ts'
import { progress } from './progress.ts'
import { printResult } from './output.ts'
import { checkedBy, optional, required } from './require.ts'

/** Ledger and merchant-history commands: accounts, merchants and demo history (Areas B and C). */

function fail(message: string, help: string): never {
  console.error(`${message}\n\n${help}`)
  process.exit(2)
}

function wholeNumber(values: Record<string, unknown>, name: string, fallback: number, help: string): number {
  const raw = optional(values, name)
  if (raw === undefined) return fallback
  if (!/^\d+$/.test(raw) || Number(raw) < 1)
    fail(`--${name} must be a positive whole number (got ${raw}).`, help)
  return Number(raw)
}

function share(values: Record<string, unknown>, name: string, fallback: number, help: string): number {
  const raw = optional(values, name)
  if (raw === undefined) return fallback
  const value = Number(raw)
  if (!Number.isFinite(value) || value < 0 || value > 1)
    fail(`--${name} must be a fraction from 0 to 1 (got ${raw}).`, help)
  return value
}

const seedHelp = `seed-transactions: fill a merchant's transaction history with demo data (history only: no balances move).

The transactions are written in bulk with the same items a live transfer writes (history item,
providerReference pointer, counters, reversal blocks), spread evenly over the last --days days and
placed after any history the merchant already has.

Options:
  --merchant ID          merchant id (required), e.g. MRC0001
  --count N              how many transactions (required), e.g. 100000
  --account NUMBER       the queried account shown on each (default 0123456789)
  --days N               spread over the last N days (default 90)
  --failed-share F       fraction declined with 51 (default 0.08)
  --reversed-share F     fraction reversed (default 0.02)
  --seed N               PRNG seed: the same seed gives the same data (default 42)

Example: npm run cli -- seed-transactions --merchant MRC0001 --count 100000`

const rankHelp = `history rank-references: number the merchant history items recorded before merchant references were numbered (a one-off backfill).

A reference lookup (GET /api/v1/merchant/transactions?reference=...) reads one page of the
reference's items by their number in it. Items recorded before that numbering existed are found
only by reading the whole reference, as before, until this has run once on the table: it gives them
their numbers (oldest first, before every newer one) and records how many on the reference's
counter. Safe to stop and run again, and while transfers go on.

Options:
  --merchant ID          only this merchant's items (default: every merchant)

Example: npm run cli -- history rank-references`

const accountOpenHelp = `account open: open a bank account for Area B transfers (an existing account is left unchanged).

Options:
  --number NUMBER        10-digit account number (required)
  --name NAME            account name (required)
  --balance AMOUNT       opening balance in naira, at most 2 decimals (default 0)

Example: npm run cli -- account open --number 0222222222 --name "Ada Obi" --balance 25000.00`

const accountShowHelp = `account show: print an account and its balance.

Options:
  --number NUMBER        10-digit account number (required)

Example: npm run cli -- account show --number 0123456789`

const merchantAddHelp = `merchant add: register a merchant that transfers may pay (issue its Area C token with "merchant issue").

Options:
  --id ID                merchant id, letters, digits, "_" or "-" (required)
  --name NAME            merchant name (required)

Example: npm run cli -- merchant add --id MRC0003 --name "Corner Shop"`

export const commands: Command[] = [
  {
    name: 'seed-transactions',
    summary: "fill a merchant's history with demo transactions (bulk, for paging and the benchmark)",
    help: seedHelp,
    options: {
      merchant: { type: 'string' },
      count: { type: 'string' },
      account: { type: 'string' },
      days: { type: 'string' },
      'failed-share': { type: 'string' },
      'reversed-share': { type: 'string' },
      seed: { type: 'string' },
    },
    async run(v) {
      const merchantId = required(v, 'merchant', seedHelp)
      const count = wholeNumber(v, 'count', 0, seedHelp)
      if (!count) fail('--count is required.', seedHelp)
      const days = wholeNumber(v, 'days', 90, seedHelp)
      const started = Date.now()
      const shown = progress(`seed-transactions: ${merchantId}`, { total: count, unit: 'transactions' })
      const result = await seedTransactions({
        merchantId,
        count,
        accountNumber: optional(v, 'account'),
        from: new Date(Date.now() - days * 24 * 60 * 60 * 1000),
        to: new Date(),
        failedShare: share(v, 'failed-share', 0.08, seedHelp),
        reversedShare: share(v, 'reversed-share', 0.02, seedHelp),
        seed: wholeNumber(v, 'seed', 42, seedHelp),
        onProgress: (written, total) => shown.update(written, total),
      })
      shown.end(result.written)
      const seconds = ((Date.now() - started) / 1000).toFixed(1)
      printResult({
        merchantId,
        written: result.written,
        ...result.counts,
        totalInHistory: result.head.all,
        seconds: Number(seconds),
      })
    },
  },
  {
    name: 'history rank-references',
    summary: 'number the history items recorded before merchant references were numbered (one-off backfill)',
    help: rankHelp,
    options: { merchant: { type: 'string' } },
    async run(v) {
      const merchantId = optional(v, 'merchant')
      const shown = progress('history rank-references:', { unit: 'references' })
      const report = await rankHistoryReferences({
        ...(merchantId ? { merchantId } : {}),
        onProgress: (r, total) => shown.update(r.references, total),
      })
      shown.end(report.references)
      printResult({ referencesRanked: report.references, itemsRanked: report.items })
    },
  },
  {
    name: 'account open',
    summary: 'open a bank account with an opening balance (Area B)',
    help: accountOpenHelp,
    options: { number: { type: 'string' }, name: { type: 'string' }, balance: { type: 'string' } },
    async run(v) {
      const accountNumber = required(v, 'number', accountOpenHelp)
      if (!/^\d{10}$/.test(accountNumber)) fail('--number must be 10 digits.', accountOpenHelp)
      const balance = optional(v, 'balance') ?? '0'
      const kobo =
        balance === '0'
          ? { kobo: 0 }
          : /^\d+(\.\d{1,2})?$/.test(balance)
            ? toKobo(Number(balance))
            : undefined
      if (!kobo || !('kobo' in kobo))
        fail(
          `--balance must be an amount in naira with at most 2 decimals (got ${balance}).`,
          accountOpenHelp,
        )
      const { account, created } = await openAccount({
        accountNumber,
        name: required(v, 'name', accountOpenHelp),
        balanceKobo: kobo.kobo,
      })
      printResult({ created, accountNumber, name: account.name, balance: formatNaira(account.balanceKobo) })
    },
  },
  {
    name: 'account show',
    summary: 'print an account and its balance',
    help: accountShowHelp,
    options: { number: { type: 'string' } },
    async run(v) {
      const account = await getAccount(required(v, 'number', accountShowHelp))
      if (!account) fail('No such account.', accountShowHelp)
      const { accountNumber, name, currency, balanceKobo, createdAt, updatedAt } = account
      printResult({ accountNumber, name, currency, balance: formatNaira(balanceKobo), createdAt, updatedAt })
    },
  },
  {
    name: 'merchant add',
    summary: 'register a merchant that transfers may pay',
    help: merchantAddHelp,
    options: { id: { type: 'string' }, name: { type: 'string' } },
    async run(v) {
      // The API's merchantId check (a transfer's), so every merchant added can be paid.
      const merchantId = checkedBy(
        TransferRequest.shape.merchantId,
        required(v, 'id', merchantAddHelp),
        '--id must be 1 to 32 letters, digits, "_" or "-"',
        merchantAddHelp,
      )
      const { merchant, created } = await addMerchant({
        merchantId,
        name: required(v, 'name', merchantAddHelp),
      })
      printResult({ created, ...merchant })
    },
  },
]
