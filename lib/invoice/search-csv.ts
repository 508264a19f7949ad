import { csvText } from '#lib/platform/text/csv.ts'
import { twoDecimals } from '#lib/platform/money.ts'
import { lagosLocalIso, lagosWithOffset } from '#lib/platform/time.ts'
import type { InvoiceSummary } from './search.ts'

/**
 * A supplier search page as RFC 4180 CSV (CONTRACT 16), by the service's one CSV writer
 * (lib/platform/text/csv.ts), which quotes and neutralises what a buyer name, the invoice issuer's
 * free text, may carry. Amounts with exactly two decimals.
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
    signedAtCell(summary.signed_at),
  ]
}

/**
 * signed_at as every finance CSV writes a time (CONTRACT 20): ISO 8601 in Lagos time with its offset
 * and no fraction, `2026-01-23T11:00:00+01:00`, so its first ten characters are the Lagos day the
 * issue date is in. A value that is not a time is written as it is.
 */
function signedAtCell(signedAt: string): string {
  const at = new Date(signedAt)
  return Number.isNaN(at.getTime()) ? signedAt : lagosWithOffset(lagosLocalIso(at))
}

export function searchCsv(summaries: InvoiceSummary[]): string {
  return csvText(summaries.map(row), { columns: SEARCH_CSV_COLUMNS })
}
