import type { TransactionRecord } from '#lib/merchant-history/service.ts'
import { preferredMediaRange } from '#lib/platform/http/accept.ts'
import { type CsvCell, csvText, spreadsheetText } from '#lib/platform/text/csv.ts'
import { twoDecimals } from '#lib/platform/money.ts'
import { lagosWithOffset } from '#lib/platform/time.ts'

/**
 * The merchant history as RFC 4180 CSV (CONTRACT section 12): a header row, one row per
 * transaction, by the service's one CSV writer (lib/platform/text/csv.ts), which quotes what needs
 * quoting and neutralises cells a spreadsheet would run as a formula (OWASP "CSV injection").
 */

/**
 * The columns, in order: the JSON record's fields (spec C.1), named as in JSON, then the currency
 * (CONTRACT 20: a finance export says its currency). What an accounting tool or a spreadsheet needs
 * differs from the JSON in two cells: completedAt is ISO 8601 with its offset and no fraction
 * (`2026-01-23T11:00:00+01:00`: the instant without knowing our zone, the Lagos day as it stands),
 * and queriedAccount is written so a spreadsheet keeps it as text (`="0123456789"`, its leading zero
 * kept: lib/platform/text/csv.ts spreadsheetText).
 */
export const CSV_COLUMNS = [
  'completedAt',
  'providerReference',
  'merchantReference',
  'queriedAccount',
  'type',
  'status',
  'amount',
  'currency',
] as const satisfies readonly (keyof TransactionRecord | 'currency')[]

function row(record: TransactionRecord): CsvCell[] {
  return [
    record.completedAt ? lagosWithOffset(record.completedAt) : '',
    record.providerReference,
    record.merchantReference,
    spreadsheetText(record.queriedAccount),
    record.type,
    record.status,
    twoDecimals(record.amount),
    // Area C's transactions are all in naira (spec C.1).
    'NGN',
  ]
}

/** One page of history as CSV text; `header: false` for the pages after the first of a file. */
export function historyCsv(records: TransactionRecord[], { header = true } = {}): string {
  return csvText(records.map(row), { columns: CSV_COLUMNS, header })
}

/** Whether the caller asked for CSV: its preferred media range is text/csv or text/*. */
export const prefersCsv = (accept: string | undefined): boolean =>
  ['text/csv', 'text/*'].includes(preferredMediaRange(accept) ?? '')

/**
 * The `Link` header pointing at the next page (RFC 8288), or undefined on the last page: the same
 * query as received, with `page` moved on and `size` made explicit. A relative reference, resolved
 * against the request's own URL.
 */
export function nextPageLink(
  path: string,
  rawQuery: string | undefined,
  { page, size, totalPages }: { page: number; size: number; totalPages: number },
): string | undefined {
  // `page` is the request's (1-based), whatever numbering the reply's record uses.
  const next = page + 1
  if (next > totalPages) return undefined
  const params = new URLSearchParams(rawQuery ?? '')
  params.set('page', String(next))
  params.set('size', String(size))
  return `<${path}?${params.toString()}>; rel="next"`
}
