import {
  allocateNumbersFor,
  buyerSpace,
  currencySpace,
  type SearchNumbers,
  type SearchSpaces,
  typeSpace,
  voidNumbers,
} from '#lib/invoice/search-index.ts'
import { inParallel } from './in-parallel.ts'

/**
 * The search numbers of a report's receipts (lib/invoice/search-index.ts), taken for the whole request
 * at once: one ADD per space the receipts' invoices fall in, instead of three or four per receipt
 * (a 1,000-receipt report took 3,000 counter writes on one business's counters, one at a time each).
 * Each receipt that is to be signed gets its numbers in the spaces its invoice names; its sign uses
 * them when the validated invoice falls in the same spaces (else it takes its own, as any sign does).
 * A receipt's numbers are its sign's from when the sign takes them (the sign voids them if it writes
 * nothing); those no sign took (the receipt refused before, its invoice in other spaces) are voided
 * by `voidUnused`, so each counter's total stays exact (docs/capacity.md, "Supplier search").
 */

interface Reservation {
  spaces: SearchSpaces
  numbers: SearchNumbers
  taken: boolean
}

/** The spaces an invoice as sent falls in, read before it is validated; undefined when they are not plain. */
function spacesSent(invoice: Record<string, unknown>): SearchSpaces | undefined {
  const { invoice_type_code: type, document_currency_code: currency } = invoice
  if (typeof type !== 'string' || typeof currency !== 'string') return undefined
  const buyer = (invoice.accounting_customer_party as { tin?: unknown } | undefined)?.tin
  return {
    all: 'ALL',
    ...(typeof buyer === 'string' && buyer ? { buyer: buyerSpace(buyer) } : {}),
    type: typeSpace(type),
    currency: currencySpace(currency),
  }
}

const sameSpaces = (a: SearchSpaces, b: SearchSpaces) =>
  a.all === b.all && a.buyer === b.buyer && a.type === b.type && a.currency === b.currency

/** Voids run side by side, as the decisions do. */
const WIDTH = 16

export class ReceiptNumbers {
  private constructor(
    private readonly businessId: string,
    private readonly reserved: Map<number, Reservation>,
  ) {}

  /** Numbers for each receipt (by its index in the request) whose invoice is to be signed. */
  static async reserve(
    businessId: string,
    receipts: { index: number; invoice: Record<string, unknown> }[],
  ): Promise<ReceiptNumbers> {
    const wanted = receipts.flatMap((r) => {
      const spaces = r.invoice.invoice_kind === 'B2C' ? spacesSent(r.invoice) : undefined
      return spaces ? [{ index: r.index, spaces }] : []
    })
    const numbers = wanted.length
      ? await allocateNumbersFor(
          businessId,
          wanted.map((w) => w.spaces),
        )
      : []
    return new ReceiptNumbers(
      businessId,
      new Map(wanted.map((w, i) => [w.index, { spaces: w.spaces, numbers: numbers[i]!, taken: false }])),
    )
  }

  /** The receipt's numbers for its sign, when they are in these spaces; from then on the sign's. */
  take(index: number, spaces: SearchSpaces): SearchNumbers | undefined {
    const r = this.reserved.get(index)
    if (!r || r.taken || !sameSpaces(r.spaces, spaces)) return undefined
    r.taken = true
    return r.numbers
  }

  /** Voids the numbers no sign took. */
  async voidUnused(): Promise<void> {
    const unused = [...this.reserved.values()].filter((r) => !r.taken)
    for (const r of unused) r.taken = true
    await inParallel(unused, WIDTH, (r) => voidNumbers(this.businessId, r.spaces, r.numbers))
  }
}
