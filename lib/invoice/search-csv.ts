import { stringify } from 'csv-stringify/sync'
import { Decimal } from 'decimal.js'
import type { InvoiceSummary } from './search.ts'

/**
 * A supplier search page as RFC 4180 CSV (CONTRACT 16), made as the finance CSV is (lib/finance/csv.ts):
 * csv-stringify, CRLF line ends, a header row, and `escape_formulas`, so a cell a spreadsheet would run
 * as a formula (starting with = + - @, a tab or a carriage return; a buyer name is the invoice
 * issuer's free text) gets a leading `'`. Amounts with exactly two decimals.
 */
export const SEARCH_CSV_COLUMNS = [
  'irn',
  'issue_date',
  'invoice_type_code',
  'currency',
  'buyer_tin',
  'buyer_name',
  'payable_amount',
  'credited',
  'debited',
  'remaining',
  'payment_status',
  'signed_at',
] as const

const twoDecimals = (amount: number) => new Decimal(String(amount)).toFixed(2)

function row(summary: InvoiceSummary): string[] {
  return [
    summary.irn,
    summary.issue_date,
    summary.invoice_type_code,
    summary.currency,
    summary.buyer_tin ?? '',
    summary.buyer_name ?? '',
    twoDecimals(summary.payable_amount),
    twoDecimals(summary.adjustments.credited),
    twoDecimals(summary.adjustments.debited),
    twoDecimals(summary.adjustments.remaining),
    summary.payment_status,
    summary.signed_at,
  ]
}

export function searchCsv(summaries: InvoiceSummary[]): string {
  return stringify(summaries.map(row), {
    header: true,
    columns: [...SEARCH_CSV_COLUMNS],
    record_delimiter: 'windows',
    escape_formulas: true,
  })
}
