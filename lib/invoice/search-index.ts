import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb'
import type { TransactItem } from '#lib/platform/db/transact.ts'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { type IndexName, indexNamed } from '#lib/platform/db/table.ts'
import { logger } from '#lib/platform/log.ts'
import { amountKobo } from './amounts.ts'
import type { PaymentStatus } from './record.ts'
import type { StoredInvoice } from './schemas.ts'

/**
 * The write side of supplier search (CONTRACT 16; design in docs/capacity.md, "Supplier search").
 *
 * Every signed invoice of a business takes the next number in four spaces: the business's ALL space,
 * its buyer's (`BUYER#<tin>`, when it has a buyer), its type's (`TYPE#<code>`) and its currency's
 * (`CUR#<code>`). Each number comes from an atomic counter (UpdateItem ADD, one round trip, no read
 * first): a counter takes one write per sign, so one business's 200 signs/s are 200 writes/s on each
 * counter key, a fifth of a partition's 1,000, and no transaction ever waits on another sign's.
 * The numbers are allocated just before the sign transaction, which puts the invoice's list item at
 * them: in the table at `INVLIST#<business>` / <ALL number>, and on gsi1/gsi2/gsi3 at the buyer's,
 * type's and currency's partitions with their numbers. So the list item exists as soon as the sign
 * reply is sent, and page N of any space is a key range whose total is its counter.
 *
 * A number taken by a sign that then writes nothing (refused, or another request signed the same IRN
 * first) is filled with a void item at the same keys and counted in the counter's `voids`, so totals
 * stay exact and pages skip it. A function that dies between the two leaves a gap that no item fills:
 * the total counts it and its page shows one row fewer (docs/capacity.md).
 */

/** The spaces an invoice is numbered in, by their counter's name. */
export interface SearchSpaces {
  all: 'ALL'
  buyer?: string
  type: string
  currency: string
}

/**
 * The index each filter space's list is on: listKeys puts the list items there, the search and the
 * operator's gap repair (./search-gaps.ts) read them there. The ALL list is the table's own.
 */
export const SPACE_INDEX = { buyer: 'gsi1', type: 'gsi2', currency: 'gsi3' } as const satisfies Record<
  string,
  IndexName
>

export const buyerSpace = (tin: string) => `BUYER#${tin}`
export const typeSpace = (code: string) => `TYPE#${code}`
export const currencySpace = (code: string) => `CUR#${code}`

export function spacesOf(invoice: StoredInvoice): SearchSpaces {
  const buyer = invoice.accounting_customer_party?.tin
  return {
    all: 'ALL',
    ...(buyer ? { buyer: buyerSpace(buyer) } : {}),
    type: typeSpace(invoice.invoice_type_code),
    currency: currencySpace(invoice.document_currency_code),
  }
}

/** The invoice's number in each of its spaces. */
export interface SearchNumbers {
  all: number
  buyer?: number
  type: number
  currency: number
}

/** Takes `count` numbers of a space in one ADD: the last is the counter's new value. */
async function take(businessId: string, space: string, count: number): Promise<number> {
  const out = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.searchCounter(businessId, space),
      UpdateExpression: 'ADD n :count SET entity = :entity',
      ExpressionAttributeValues: { ':count': count, ':entity': 'INVOICE_SEARCH_COUNTER' },
      ReturnValues: 'UPDATED_NEW',
    }),
  )
  return out.Attributes?.n as number
}

const next = (businessId: string, space: string) => take(businessId, space, 1)

/** The next number in each space, side by side. */
export async function allocateNumbers(businessId: string, spaces: SearchSpaces): Promise<SearchNumbers> {
  const [all, type, currency, buyer] = await Promise.all([
    next(businessId, spaces.all),
    next(businessId, spaces.type),
    next(businessId, spaces.currency),
    spaces.buyer ? next(businessId, spaces.buyer) : undefined,
  ])
  return { all, type, currency, ...(buyer !== undefined ? { buyer } : {}) }
}

/**
 * Numbers for many invoices at once (a report of receipts, lib/receipts/report.ts): one ADD per
 * distinct space, of the count of invoices in it, side by side, instead of one per invoice and
 * space; each invoice's numbers, in order. A counter's invoices then take dense numbers from the range
 * the ADD returned (value - count + 1 .. value), so pages and totals are as if they were taken one
 * by one; a number an invoice then does not use is voided as any sign's is (voidNumbers).
 */
export async function allocateNumbersFor(
  businessId: string,
  spaces: SearchSpaces[],
): Promise<SearchNumbers[]> {
  const counts = new Map<string, number>()
  for (const s of spaces)
    for (const space of [s.all, s.type, s.currency, s.buyer])
      if (space) counts.set(space, (counts.get(space) ?? 0) + 1)
  const lasts = await Promise.all([...counts].map(([space, count]) => take(businessId, space, count)))
  // The next number to hand out in each space: the first of its range.
  const nextOf = new Map([...counts.keys()].map((space, i) => [space, lasts[i]! - counts.get(space)! + 1]))
  const hand = (space: string) => {
    const n = nextOf.get(space)!
    nextOf.set(space, n + 1)
    return n
  }
  return spaces.map((s) => ({
    all: hand(s.all),
    type: hand(s.type),
    currency: hand(s.currency),
    ...(s.buyer ? { buyer: hand(s.buyer) } : {}),
  }))
}

/** An item's key attributes on one index. */
export const indexKeys = (index: IndexName, partition: string, sort: string) => ({
  [indexNamed(index).partitionKey]: partition,
  [indexNamed(index).sortKey]: sort,
})

/** The table and index keys of the list item at these numbers. */
function listKeys(businessId: string, spaces: SearchSpaces, numbers: SearchNumbers) {
  const pad = keys.searchSeq
  return {
    ...keys.searchList(businessId, numbers.all),
    ...(spaces.buyer && numbers.buyer !== undefined
      ? indexKeys(SPACE_INDEX.buyer, keys.searchSpacePartition(businessId, spaces.buyer), pad(numbers.buyer))
      : {}),
    ...indexKeys(SPACE_INDEX.type, keys.searchSpacePartition(businessId, spaces.type), pad(numbers.type)),
    ...indexKeys(
      SPACE_INDEX.currency,
      keys.searchSpacePartition(businessId, spaces.currency),
      pad(numbers.currency),
    ),
  }
}

/** A stored list item: the summary the search shows, and its numbers. */
export interface ListItem {
  entity: 'INVOICE_LIST' | 'INVOICE_LIST_VOID'
  businessId: string
  irn: string
  invoiceTypeCode: string
  issueDate: string
  currency: string
  buyerTin?: string
  buyerName?: string
  payableKobo: number
  creditedKobo?: number
  debitedKobo?: number
  paymentStatus: PaymentStatus
  signedAt: string
  seq: SearchNumbers
  notes?: { irn: string; invoiceTypeCode: string; amountKobo: number; issueDate: string }[]
}

/** The Put of the invoice's list item, for its sign transaction. */
export function listItemPut(
  businessId: string,
  invoice: StoredInvoice,
  spaces: SearchSpaces,
  numbers: SearchNumbers,
  signedAt: string,
): TransactItem {
  const buyer = invoice.accounting_customer_party
  const item: ListItem = {
    entity: 'INVOICE_LIST',
    businessId,
    irn: invoice.irn,
    invoiceTypeCode: invoice.invoice_type_code,
    issueDate: invoice.issue_date,
    currency: invoice.document_currency_code,
    ...(buyer ? { buyerTin: buyer.tin, buyerName: buyer.party_name } : {}),
    payableKobo: amountKobo(invoice.legal_monetary_total.payable_amount),
    paymentStatus: invoice.payment_status,
    signedAt,
    seq: numbers,
  }
  return {
    Put: {
      TableName: tableName(),
      Item: { ...listKeys(businessId, spaces, numbers), ...item },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  }
}

/**
 * Fills numbers a sign took but did not use with a void item at the same keys, counted in each
 * counter's `voids`, so that totals stay exact. Best effort: a failure leaves a gap (logged).
 */
export async function voidNumbers(businessId: string, spaces: SearchSpaces, numbers: SearchNumbers) {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...listKeys(businessId, spaces, numbers),
          entity: 'INVOICE_LIST_VOID',
          businessId,
          seq: numbers,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    )
    const used = Object.entries(spaces).filter(([name]) => numbers[name as keyof SearchNumbers] !== undefined)
    await Promise.all(
      used.map(([, space]) =>
        db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: keys.searchCounter(businessId, space),
            UpdateExpression: 'ADD voids :one',
            ExpressionAttributeValues: { ':one': 1 },
          }),
        ),
      ),
    )
  } catch (error) {
    logger.warn('unused search numbers could not be voided', {
      seq: numbers.all,
      error: (error as Error).name,
    })
  }
}

/** The list item's payment status, written once the invoice's is changed. */
export function listPaymentStatusUpdate(
  businessId: string,
  listSeq: number,
  to: PaymentStatus,
): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.searchList(businessId, listSeq),
      UpdateExpression: 'SET paymentStatus = :to',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':to': to },
    },
  }
}
