import { tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { queryPage } from '#lib/platform/db/query.ts'
import type { TransactItem } from '#lib/platform/db/transact.ts'
import { writeIf, writeOf } from '#lib/platform/db/write.ts'
import { invoiceOf } from '#lib/invoice/canonical.ts'
import type { InvoiceRecord, PaymentStatus } from '#lib/invoice/record.ts'
import type { PullQuery } from './schemas.ts'

/**
 * The buyer's inbox (CONTRACT 17: `GET /api/v1/invoice/transmit/pull`): the invoices transmitted to
 * a business, newest first, paged with at most size + 1 items read per page.
 *
 * A transmit puts one item per invoice transmitted to a business registered here, once the invoice's
 * record says TRANSMITTED (a transmit repeated later puts it again if it is missing), keyed
 * by that business and the mode (keys.inboxItem: `INBOX#<business>` / `<transmitted_at>#<irn>`), with
 * what a pull shows. Every read is then ONE Query of size + 1 items over one key range:
 *
 * - no `confirmed` filter: the table partition, strongly consistent (an invoice is in the inbox as soon
 *   as its transmit reply is sent);
 * - `confirmed=true|false`: the same item is also on gsi1 in one of two partitions,
 *   `INBOX#<business>#UNCONFIRMED` or `#CONFIRMED`, and confirming receipt moves it from the first to
 *   the second once the confirmation is written (it rewrites gsi1pk). So the filter is a key,
 *   never a FilterExpression that would read (and pay for) the items it drops;
 * - `from`/`to` on transmitted_at: both key spaces sort by `<transmitted_at>#<irn>`, so the dates are
 *   the key range's bounds (BETWEEN), in every space;
 * - pages: the extra (size + 1)th item only says there is a next page; its cursor is the last item's
 *   sort key, which the next page starts after (ExclusiveStartKey), so a deep page costs what the first
 *   does. Page numbers past the first are reached through that cursor (the `next` link), since no key
 *   counts a buyer's invoices without a counter every supplier's transmit would contend on.
 *
 * The supplier's payment status and `reference` change the item once the update is written; a gsi1
 * read (the `confirmed` filter) is eventually consistent, as every GSI read is.
 */

/** A stored inbox item. */
export interface InboxItem {
  entity: 'INBOX'
  irn: string
  supplierBusinessId: string
  supplierTin: string | null
  supplierName: string | null
  issueDate: string | null
  currency: string | null
  amounts: Record<string, number> | null
  transmittedAt: string
  receivedAt?: string
  paymentStatus: PaymentStatus
  paymentReference?: string
}

const AMOUNTS = ['line_extension_amount', 'tax_exclusive_amount', 'tax_inclusive_amount', 'payable_amount']

const text = (value: unknown) => (typeof value === 'string' ? value : null)

/** The invoice's monetary totals, as signed. */
function amountsOf(invoice: Record<string, unknown> | undefined): Record<string, number> | null {
  const total = invoice?.legal_monetary_total as Record<string, unknown> | undefined
  if (!total) return null
  return Object.fromEntries(
    AMOUNTS.filter((k) => typeof total[k] === 'number').map((k) => [k, total[k] as number]),
  )
}

/** The Put of an invoice's inbox item, written once its transmit is. */
export function inboxPut(
  record: InvoiceRecord,
  buyerBusinessId: string,
  transmittedAt: string,
): TransactItem {
  const invoice = invoiceOf(record)
  const supplier = invoice?.accounting_supplier_party as Record<string, unknown> | undefined
  const sortKey = keys.inboxSortKey(transmittedAt, record.irn)
  const item: InboxItem = {
    entity: 'INBOX',
    irn: record.irn,
    supplierBusinessId: record.businessId,
    supplierTin: record.supplierTin ?? text(supplier?.tin),
    supplierName: text(supplier?.party_name),
    issueDate: text(invoice?.issue_date),
    currency: text(invoice?.document_currency_code),
    amounts: amountsOf(invoice),
    transmittedAt,
    paymentStatus: record.paymentStatus,
    ...(record.paymentReference ? { paymentReference: record.paymentReference } : {}),
  }
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...keys.inboxItem(buyerBusinessId, sortKey),
        ...keys.inboxByReceipt(buyerBusinessId, false, sortKey),
        ...item,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  }
}

/**
 * Puts the inbox item of a transmitted record again when it is missing (a transmit whose function
 * died after the record's write and before the item's): a repeated transmit calls it, and an item
 * already there is left as it is.
 */
export async function restoreInboxItem(record: InvoiceRecord): Promise<void> {
  if (!record.inboxBusinessId || !record.transmittedAt) return
  await writeIf(writeOf(inboxPut(record, record.inboxBusinessId, record.transmittedAt)))
}

/** The inbox item of a transmitted record, when it has one. */
function inboxKeyOf(record: Pick<InvoiceRecord, 'irn' | 'inboxBusinessId' | 'transmittedAt'>) {
  if (!record.inboxBusinessId || !record.transmittedAt) return undefined
  const sortKey = keys.inboxSortKey(record.transmittedAt, record.irn)
  return { businessId: record.inboxBusinessId, sortKey, key: keys.inboxItem(record.inboxBusinessId, sortKey) }
}

/** The confirmation's move of the item to the confirmed partition of gsi1, with its time. */
export function inboxReceiptUpdate(
  record: Pick<InvoiceRecord, 'irn' | 'inboxBusinessId' | 'transmittedAt'>,
  receivedAt: string,
): TransactItem | undefined {
  const at = inboxKeyOf(record)
  if (!at) return undefined
  const moved = keys.inboxByReceipt(at.businessId, true, at.sortKey)
  return {
    Update: {
      TableName: tableName(),
      Key: at.key,
      UpdateExpression: 'SET receivedAt = :at, gsi1pk = :gsi1pk',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':at': receivedAt, ':gsi1pk': moved.gsi1pk },
    },
  }
}

/** The payment update's change of the item: its payment status and the supplier's reference. */
export function inboxPaymentUpdate(
  record: Pick<InvoiceRecord, 'irn' | 'inboxBusinessId' | 'transmittedAt'>,
  to: PaymentStatus,
  reference: string | undefined,
): TransactItem | undefined {
  const at = inboxKeyOf(record)
  if (!at) return undefined
  return {
    Update: {
      TableName: tableName(),
      Key: at.key,
      UpdateExpression: `SET paymentStatus = :to${reference !== undefined ? ', paymentReference = :reference' : ''}`,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: {
        ':to': to,
        ...(reference !== undefined ? { ':reference': reference } : {}),
      },
    },
  }
}

/** One pulled invoice, as the inbox lists it. */
export function inboxEntryOf(item: InboxItem) {
  return {
    irn: item.irn,
    supplier: { tin: item.supplierTin, name: item.supplierName },
    issue_date: item.issueDate,
    currency: item.currency,
    amounts: item.amounts,
    transmitted_at: item.transmittedAt,
    received_at: item.receivedAt ?? null,
    payment_status: item.paymentStatus,
    reference: item.paymentReference ?? null,
  }
}
export type InboxEntry = ReturnType<typeof inboxEntryOf>

export interface InboxPage {
  content: InboxEntry[]
  page: { size: number; number: number; more: boolean; next_cursor: string | null }
}

/** The key range of the query's dates (inclusive) over `<transmitted_at>#<irn>`. */
function rangeOf(query: PullQuery) {
  // '~' sorts after every character of a time and an IRN: a `to` day takes all of that day.
  return { ':from': query.from ?? '0', ':to': `${query.to ?? '9999'}~` }
}

/** One page of the business's inbox (see the module comment): one Query of size + 1 items. */
export async function pullInbox(businessId: string, query: PullQuery): Promise<InboxPage> {
  const after = query.cursor
  const table = query.confirmed === undefined
  const partition = table
    ? keys.inboxPartition(businessId)
    : keys.inboxReceiptPartition(businessId, query.confirmed === true)
  const start = after && {
    ...keys.inboxItem(businessId, after),
    ...(table ? {} : { gsi1pk: partition, gsi1sk: after }),
  }
  const { items, more } = await queryPage<InboxItem>(
    {
      ...(table
        ? { KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to', ConsistentRead: true }
        : { IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :from AND :to' }),
      ExpressionAttributeValues: { ':pk': partition, ...rangeOf(query) },
      ScanIndexForward: false,
      ...(start ? { ExclusiveStartKey: start } : {}),
    },
    query.size,
  )
  const last = items.at(-1)
  return {
    content: items.map(inboxEntryOf),
    page: {
      size: query.size,
      number: query.page - 1,
      more,
      next_cursor: more && last ? encodeCursor(keys.inboxSortKey(last.transmittedAt, last.irn)) : null,
    },
  }
}

/** A page's cursor: the sort key it ends at, base64url (opaque to the caller). */
export const encodeCursor = (sortKey: string) => Buffer.from(sortKey, 'utf8').toString('base64url')
