import { stringify } from 'csv-stringify/sync'

/**
 * The one CSV writer of every export (CONTRACT 18: the supplier search, lib/invoice/search-csv.ts;
 * the merchant history, lib/finance/csv.ts): RFC 4180 text, UTF-8, CRLF line ends, written by
 * csv-stringify. Two things it does not do by itself, done here:
 *
 * - A cell holding a bare LF or CR is quoted too. With CRLF as the record delimiter, the library's
 *   build quotes only a cell holding the delimiter itself, so a buyer name `Acme\n=cmd|...` started
 *   a line of the export with a formula.
 * - A cell a spreadsheet would run as a formula is neutralised the OWASP way (a leading `'`), judged
 *   on its first visible character: `escape_formulas` looks at the first character only, so
 *   ` =1+1`, or `=1+1` behind a zero-width space, a BOM or a no-break space, went through.
 */
export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8; header=present'

/**
 * What a spreadsheet skips before deciding a cell is a formula: white space (including NBSP and
 * the other Unicode spaces, and LF, which a quoted cell may start with) and the invisible format
 * characters (zero-width space and joiners, word joiner, BOM, bidi marks, soft hyphen: Unicode Cf).
 */
const INVISIBLE_LEAD = /^[\s\p{Cf}\u180E]*/u
/** Formula starts, with their full-width forms (which some spreadsheets normalise to them). */
const FORMULA_START = /^[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/
/** A plain number is never a formula: a negative amount stays a number. */
const NUMBER = /^-?\d+(\.\d+)?$/

/**
 * The cell as written: with a leading `'` when it begins with a tab or CR, or its first visible
 * character starts a formula.
 */
export function neutralisedCell(cell: string): string {
  if (NUMBER.test(cell)) return cell
  if (cell.startsWith('\t') || cell.startsWith('\r')) return `'${cell}`
  const visible = cell.slice(INVISIBLE_LEAD.exec(cell)?.[0].length ?? 0)
  return FORMULA_START.test(visible) ? `'${cell}` : cell
}

/**
 * A cell a spreadsheet must keep as text although it is all digits: an account number such as
 * `0123456789`, which Excel, LibreOffice and SheetJS would otherwise read as the number 123456789,
 * losing its leading zero (CONTRACT 20). Written as the text formula `="0123456789"`, which Excel and
 * LibreOffice (formulas evaluated on CSV import, its default) both show as the text 0123456789; a
 * tab or a leading `'` instead is kept in the cell as a character or dropped with the zero. Only an
 * all-digit value takes this form (nothing else can reach a formula); any other is written as usual.
 * A tool that reads the CSV as data rather than as a sheet strips the `="` and `"` around it
 * (docs/finance.md says so).
 */
export interface SpreadsheetText {
  text: string
}
export const spreadsheetText = (text: string): SpreadsheetText => ({ text })

export type CsvCell = string | SpreadsheetText

function writtenCell(cell: CsvCell): string {
  if (typeof cell === 'string') return neutralisedCell(cell)
  return /^\d+$/.test(cell.text) ? `="${cell.text}"` : neutralisedCell(cell.text)
}

/**
 * Rows of text cells as CSV, with a header row of `columns` unless `header` is false (the pages
 * after a file's first). A cell holding the separator, a quote, CR or LF is quoted.
 */
export function csvText(
  rows: readonly (readonly CsvCell[])[],
  { columns, header = true }: { columns: readonly string[]; header?: boolean },
): string {
  return stringify(
    rows.map((row) => row.map(writtenCell)),
    {
      header,
      columns: [...columns],
      record_delimiter: 'windows',
      quoted_match: /[\r\n]/,
    },
  )
}
