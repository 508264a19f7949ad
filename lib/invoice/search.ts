import { GetCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { queryUpTo } from '#lib/platform/db/query.ts'
import { withAttributes } from '#lib/platform/db/index-reads.ts'
import { type IndexName, indexNamed, LISTED } from '#lib/platform/db/table.ts'
import { koboToNaira } from '#lib/platform/money.ts'
import { type Adjustments, adjustmentsView, shownPaymentStatus } from './adjustments.ts'
import type { InvoiceRecord, PaymentStatus } from './record.ts'
import { buyerSpace, currencySpace, type ListItem, SPACE_INDEX, typeSpace } from './search-index.ts'
import type { SearchPaymentStatus, SearchQuery } from './search-schemas.ts'

/**
 * Supplier search, the read side (CONTRACT 16; design in docs/capacity.md, "Supplier search"). The
 * list items are numbered densely in four spaces at sign (./search-index.ts), so:
 *
 * - no filter, or exactly one of buyer_tin, invoice_type_code, currency: page N of that space is the
 *   key range (n - N*size - size, n - N*size] under its counter n, read newest first: the counter
 *   plus at most `size` items, whatever the business's volume;
 * - irn: the invoice record and its list item, two reads;
 * - payment_status, issue dates, or more than one key filter: no key orders by them, so the search
 *   reads one window of at most SEARCH_WINDOW items of the narrowest key space given (buyer, then
 *   type, then currency, else ALL), newest first (or below `before`), and pages the matches within
 *   it; when items remain below the window the reply says where to continue (`window`), which the
 *   handler turns into a `next-window` link.
 */
export const SEARCH_WINDOW = 1000

/** What a search read: the page's items (DynamoDB's ScannedCount) and the counters and records besides. */
export interface SearchMeter {
  pageItems: number
  otherItems: number
  requests: number
}
export const newSearchMeter = (): SearchMeter => ({ pageItems: 0, otherItems: 0, requests: 0 })

/** One invoice as the search lists it. */
export interface InvoiceSummary {
  irn: string
  invoice_type_code: string
  issue_date: string
  currency: string
  buyer_tin: string | null
  buyer_name: string | null
  payable_amount: number
  payment_status: SearchPaymentStatus
  signed_at: string
  adjustments: Adjustments
}

export interface SearchPage {
  content: InvoiceSummary[]
  page: { size: number; number: number; totalElements: number; totalPages: number }
}

export interface SearchResult {
  page: SearchPage
  /** A windowed search that did not reach the end of its space: continue with `before`. */
  window?: { scanned: number; continueBefore: number }
}

export function summaryOf(item: ListItem): InvoiceSummary {
  const totals = {
    payableKobo: item.payableKobo,
    creditedKobo: item.creditedKobo ?? 0,
    debitedKobo: item.debitedKobo ?? 0,
  }
  return {
    irn: item.irn,
    invoice_type_code: item.invoiceTypeCode,
    issue_date: item.issueDate,
    currency: item.currency,
    buyer_tin: item.buyerTin ?? null,
    buyer_name: item.buyerName ?? null,
    payable_amount: koboToNaira(item.payableKobo),
    payment_status: shownPaymentStatus(item.paymentStatus as PaymentStatus, totals),
    signed_at: item.signedAt,
    adjustments: adjustmentsView(totals, item.notes ?? []),
  }
}

/** Whether a listed invoice passes every filter of the query. */
function matches(summary: InvoiceSummary, query: SearchQuery): boolean {
  return (
    (!query.payment_status || summary.payment_status === query.payment_status) &&
    (!query.invoice_type_code || summary.invoice_type_code === query.invoice_type_code) &&
    (!query.currency || summary.currency === query.currency) &&
    (!query.buyer_tin || summary.buyer_tin === query.buyer_tin) &&
    (!query.issue_date_from || summary.issue_date >= query.issue_date_from) &&
    (!query.issue_date_to || summary.issue_date <= query.issue_date_to)
  )
}

/** A numbering space: its counter's name and where its list is (the table for ALL, else a GSI). */
interface Space {
  name: string
  index?: IndexName
}

const ALL: Space = { name: 'ALL' }

/** The key spaces the query's filters name, narrowest first (a buyer's invoices are the fewest). */
function keySpacesOf(query: SearchQuery): Space[] {
  const spaces: Space[] = []
  if (query.buyer_tin) spaces.push({ name: buyerSpace(query.buyer_tin), index: SPACE_INDEX.buyer })
  if (query.invoice_type_code)
    spaces.push({ name: typeSpace(query.invoice_type_code), index: SPACE_INDEX.type })
  if (query.currency) spaces.push({ name: currencySpace(query.currency), index: SPACE_INDEX.currency })
  return spaces
}

async function readCounter(businessId: string, space: Space, meter: SearchMeter) {
  const out = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.searchCounter(businessId, space.name),
      ConsistentRead: true,
    }),
  )
  meter.requests++
  if (out.Item) meter.otherItems++
  const n = typeof out.Item?.n === 'number' ? out.Item.n : 0
  const voids = typeof out.Item?.voids === 'number' ? out.Item.voids : 0
  return { n, voids }
}

/** The list items numbered bottom..top in a space, newest first, reading at most `limit` items. */
async function readRange(
  businessId: string,
  space: Space,
  bottom: number,
  top: number,
  limit: number,
  meter: SearchMeter,
): Promise<ListItem[]> {
  const range = { ':bottom': keys.searchSeq(bottom), ':top': keys.searchSeq(top) }
  const input: Omit<QueryCommandInput, 'TableName'> = space.index
    ? {
        IndexName: space.index,
        KeyConditionExpression: `${indexNamed(space.index).partitionKey} = :pk AND ${indexNamed(space.index).sortKey} BETWEEN :bottom AND :top`,
        ExpressionAttributeValues: { ':pk': keys.searchSpacePartition(businessId, space.name), ...range },
      }
    : {
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :bottom AND :top',
        ExpressionAttributeValues: { ':pk': keys.searchListPartition(businessId), ...range },
        // The ALL list is the table's: strongly consistent, so a signed invoice is listed at once.
        ConsistentRead: true,
      }
  // A page over 1 MB (a CSV page of 1,000 with many notes) comes in parts: follow them to `limit`.
  const items = await queryUpTo<ListItem>({ ...input, ScanIndexForward: false }, limit, (page) => {
    meter.requests++
    meter.pageItems += page.ScannedCount ?? 0
  })
  // The filter spaces' indexes project the summary (LISTED.invoiceSummary): nothing more is read.
  return space.index ? withAttributes<ListItem>(space.index, LISTED.invoiceSummary, items) : items
}

const listed = (item: ListItem) => item.entity === 'INVOICE_LIST'

/** The business's signed invoices matching the query, newest first (CONTRACT 16). */
export async function searchInvoices(
  businessId: string,
  query: SearchQuery,
  meter: SearchMeter = newSearchMeter(),
): Promise<SearchResult> {
  if (query.irn) return irnPage(businessId, query, meter)
  const keyed = keySpacesOf(query)
  const windowed =
    keyed.length > 1 ||
    query.before !== undefined ||
    Boolean(query.payment_status || query.issue_date_from || query.issue_date_to)
  return windowed
    ? windowPage(businessId, query, keyed[0] ?? ALL, meter)
    : densePage(businessId, query, keyed[0] ?? ALL, meter)
}

const pageOf = (
  query: SearchQuery,
  content: InvoiceSummary[],
  total: number,
  positions = total,
): SearchPage => ({
  content,
  page: {
    size: query.size,
    number: query.page - 1,
    totalElements: total,
    totalPages: Math.ceil(positions / query.size),
  },
})

/**
 * Page N of one space: a key range under its counter. Voided numbers (./search-index.ts) are not
 * counted in the total and are dropped from the page they fall in.
 */
async function densePage(businessId: string, query: SearchQuery, space: Space, meter: SearchMeter) {
  const { n, voids } = await readCounter(businessId, space, meter)
  const top = n - (query.page - 1) * query.size
  const bottom = Math.max(1, top - query.size + 1)
  const items = top >= 1 ? await readRange(businessId, space, bottom, top, top - bottom + 1, meter) : []
  const content = items.filter(listed).map(summaryOf)
  return { page: pageOf(query, content, n - voids, n) }
}

/** One window of a space, newest first, the query's filters applied to it (see the module comment). */
async function windowPage(businessId: string, query: SearchQuery, space: Space, meter: SearchMeter) {
  const { n } = await readCounter(businessId, space, meter)
  const top = Math.min(n, (query.before ?? n + 1) - 1)
  const items = top >= 1 ? await readRange(businessId, space, 1, top, SEARCH_WINDOW, meter) : []
  const found = items
    .filter(listed)
    .map(summaryOf)
    .filter((summary) => matches(summary, query))
  const skip = (query.page - 1) * query.size
  const result: SearchResult = {
    page: pageOf(query, found.slice(skip, skip + query.size), found.length),
  }
  const last = items.at(-1)
  const lowest = last ? numberIn(last, space) : 1
  if (items.length === SEARCH_WINDOW && lowest > 1)
    result.window = { scanned: items.length, continueBefore: lowest }
  return result
}

/** The item's number in the space it was read from: its sort key there (the index holds no `seq`). */
function numberIn(item: ListItem, space: Space): number {
  if (space === ALL || !space.index) return item.seq.all
  return Number((item as unknown as Record<string, string>)[indexNamed(space.index).sortKey])
}

/** irn: the invoice record says whether it is this business's and where its list item is. */
async function irnPage(businessId: string, query: SearchQuery, meter: SearchMeter): Promise<SearchResult> {
  const record = (
    await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.invoice(query.irn!), ConsistentRead: true }),
    )
  ).Item as InvoiceRecord | undefined
  meter.requests++
  if (record) meter.otherItems++
  if (!record || record.businessId !== businessId || record.listSeq === undefined)
    return { page: pageOf(query, [], 0) }
  const item = (
    await db().send(
      new GetCommand({
        TableName: tableName(),
        Key: keys.searchList(businessId, record.listSeq),
        ConsistentRead: true,
      }),
    )
  ).Item as ListItem | undefined
  meter.requests++
  if (item) meter.pageItems++
  const summary = item && listed(item) ? summaryOf(item) : undefined
  const content = summary && matches(summary, query) && query.page === 1 ? [summary] : []
  return { page: pageOf(query, content, summary && matches(summary, query) ? 1 : 0) }
}
