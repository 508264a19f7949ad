import type { Writable } from 'node:stream'
import { once } from 'node:events'
import { parseOrThrow } from '#lib/platform/http/validation.ts'
import { HistoryCsvQuery, MAX_CSV_PAGE_SIZE } from '#lib/merchant-history/schemas.ts'
import { listTransactions } from '#lib/merchant-history/service.ts'
import { lagosLocalIso } from '#lib/platform/time.ts'
import { historyCsv } from './csv.ts'

export interface ExportFilters {
  status?: string
  /** Lagos local date or date-time, as the history's fromDate/toDate. */
  fromDate?: string
  toDate?: string
}

/**
 * A whole period of a merchant's history as one CSV file: the API's CSV pages of 1,000, one after
 * the other, the header once. Without toDate the export stops at the moment it starts, so
 * transactions arriving meanwhile cannot shift the pages under it (newest-first paging).
 */
export async function exportHistory(
  merchantId: string,
  filters: ExportFilters,
  out: Writable,
  onProgress?: (written: number, total: number) => void,
): Promise<{ rows: number; pages: number }> {
  const fixed = { ...filters, toDate: filters.toDate ?? lagosLocalIso(new Date()) }
  let rows = 0
  for (let page = 1; ; page++) {
    const query = parseOrThrow(
      HistoryCsvQuery,
      { ...fixed, page: String(page), size: String(MAX_CSV_PAGE_SIZE) },
      'query',
    )
    const { content, page: numbers } = await listTransactions(merchantId, query)
    if (page === 1 || content.length > 0) {
      if (!out.write(historyCsv(content, { header: page === 1 }))) await once(out, 'drain')
    }
    rows += content.length
    onProgress?.(rows, numbers.totalElements)
    if (page >= numbers.totalPages) return { rows, pages: Math.max(1, numbers.totalPages) }
  }
}
