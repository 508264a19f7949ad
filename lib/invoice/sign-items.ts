import type { NamedItems, TransactItem } from '#lib/platform/db/transact.ts'
import { type AdjustmentTotals, adjustmentItems, type NoteFacts } from './adjustments.ts'
import type { InvoiceRecord } from './record.ts'
import type { StoredInvoice } from './schemas.ts'
import { listItemPut, type SearchNumbers, type SearchSpaces } from './search-index.ts'

/** The name under which a caller's own items join the invoice's transaction (`recordWith`). */
export const CALLER_ITEMS = 'recordWith'

/**
 * The items a validate or sign commits in one transaction with the record's own write, by name: the
 * search list item of a signed invoice (./search-index.ts), a note's adjustment of its original
 * (./adjustments.ts), and the caller's items (a batch item's result), last, under CALLER_ITEMS so the
 * caller can tell its own failed condition from the invoice's (the audit and integration events
 * join them there: ./repository.ts).
 */
export function signItems(input: {
  businessId: string
  invoice: StoredInvoice
  at: string
  listing?: { spaces: SearchSpaces; numbers: SearchNumbers }
  note?: { facts: NoteFacts; original: InvoiceRecord; totals: AdjustmentTotals }
  callers: TransactItem[]
}): NamedItems {
  const { businessId, invoice, at, listing, note } = input
  return {
    listing: listing ? [listItemPut(businessId, invoice, listing.spaces, listing.numbers, at)] : [],
    adjustments: note ? adjustmentItems(note.facts, note.original, note.totals, at) : [],
    [CALLER_ITEMS]: input.callers,
  }
}
