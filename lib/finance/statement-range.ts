import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb'
import * as z from 'zod'
import type { StatementEntry } from '#lib/merchant-history/items.ts'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { queryPages } from '#lib/platform/db/query.ts'
import { BadRequest } from '#lib/platform/errors.ts'
import { parseLagosLocal } from '#lib/platform/time.ts'

/**
 * A merchant's statement over a range of Lagos calendar days (CONTRACT 20): the opening balance,
 * every entry booked in the range, and the closing balance, with opening + entries = closing to the
 * kobo. The entries are the history indexer's (lib/merchant-history/indexer.ts, keys.statementEntry):
 * a credit per successful transfer, a debit of its own per reversal on the day it happened, each
 * carrying the running balance after it. They are never rewritten, so a past period reads the same
 * bytes however often it is exported.
 *
 * Reads: one item (the balance before the page) and one key range of the page's entries; no Scan and
 * nothing of other merchants. A period's entries come in pages of at most STATEMENT_PAGE_ENTRIES
 * (sized so the largest format of a full page stays well under Lambda's 6 MB reply: see
 * test/unit/finance/statement-formats.test.ts), each page its own balanced statement: its opening is
 * the balance before its first entry, its closing the balance after its last, the next page in a
 * cursor.
 */

export const MAX_STATEMENT_DAYS = 31
/**
 * Entries per page: a full page at every field's longest is 1.25 MB as camt.053 (the largest format),
 * 0.75 MB as JSON, 0.44 MB as CSV, 0.24 MB as MT940 (measured in the test), under Lambda's 6 MB with room.
 */
export const STATEMENT_PAGE_ENTRIES = 2000
export const STATEMENT_FORMATS = ['json', 'csv', 'camt053', 'mt940'] as const
export type StatementFormat = (typeof STATEMENT_FORMATS)[number]

const DAY_MS = 24 * 60 * 60 * 1000
const DAY = /^\d{4}-\d{2}-\d{2}$/
const blankIsAbsent = (value: unknown) => (value === '' ? undefined : value)
const day = (name: string) =>
  z.preprocess(
    blankIsAbsent,
    z
      .string()
      .refine((value) => DAY.test(value) && parseLagosLocal(`${value}T00:00`) !== undefined, {
        message: `${name} must be a calendar day that exists, as YYYY-MM-DD, e.g. 2026-01-15`,
      })
      .optional(),
  )

/**
 * `GET /api/v1/merchant/statement` (CONTRACT 12 and 20): `date` alone is the one-day totals of
 * CONTRACT 12 (kept as it was); `from` and `to` (or `date` with a format) the statement of entries.
 */
export const StatementQuery = z.object({
  date: day('date').describe('One Lagos calendar day (the daily totals, CONTRACT 12), YYYY-MM-DD'),
  from: day('from').describe('First Lagos calendar day of the statement, YYYY-MM-DD'),
  to: day('to').describe(
    `Last Lagos calendar day (inclusive), at most ${MAX_STATEMENT_DAYS} days after from`,
  ),
  format: z
    .preprocess(
      blankIsAbsent,
      z
        .enum(STATEMENT_FORMATS, { error: `format must be one of ${STATEMENT_FORMATS.join(', ')}` })
        .optional(),
    )
    .describe('json (default), csv, camt053 (ISO 20022 camt.053.001.08) or mt940; Accept may say it instead'),
  cursor: z
    .preprocess(blankIsAbsent, z.string().max(200, 'cursor is too long: use the one a reply gave').optional())
    .describe("The next page of a statement: the reply's next cursor (Link header)"),
})
export type StatementQuery = z.output<typeof StatementQuery>

/** A problem in the query, with a stable code the merchant area's error record lists. */
const badQuery = (path: string, code: string, message: string) =>
  new BadRequest(`The request query string is invalid: ${message}`, {
    problems: [{ path: `query/${path}`, code, message }],
  })

/** The days asked for: `from`..`to`, or `date` alone as a one-day range. */
export function periodOf(query: StatementQuery): { from: string; to: string } {
  if (query.from === undefined && query.to === undefined) {
    if (query.date === undefined)
      throw badQuery(
        'date',
        'STATEMENT_PERIOD_MISSING',
        'from and to are required (Lagos calendar days, YYYY-MM-DD, at most 31 days), or date for one day',
      )
    return { from: query.date, to: query.date }
  }
  if (query.from === undefined || query.to === undefined)
    throw badQuery(
      query.from === undefined ? 'from' : 'to',
      'STATEMENT_PERIOD_MISSING',
      'from and to go together: give both, e.g. from=2026-01-01&to=2026-01-31',
    )
  const days = (Date.parse(query.to) - Date.parse(query.from)) / DAY_MS + 1
  if (days < 1) throw badQuery('to', 'STATEMENT_PERIOD_REVERSED', 'to must not be before from')
  if (days > MAX_STATEMENT_DAYS)
    throw badQuery(
      'to',
      'STATEMENT_PERIOD_TOO_LONG',
      `a statement covers at most ${MAX_STATEMENT_DAYS} days (${query.from} to ${query.to} is ${days}): ask for the period in parts`,
    )
  return { from: query.from, to: query.to }
}

/** One page of a statement: its balances and entries, kobo. */
export interface StatementPage {
  merchantId: string
  currency: 'NGN'
  from: string
  to: string
  /** 1-based. */
  page: number
  last: boolean
  /** The cursor of the next page, when there is one. */
  next: string | undefined
  openingKobo: number
  closingKobo: number
  entries: StatementEntry[]
}

/** The sort-key bounds of a period: every entry booked from `from` 00:00 to `to` 23:59:59.999 Lagos. */
const lowerBound = (from: string) => keys.statementBound(`${from}T00:00:00.000`)
const upperBound = (to: string) => keys.statementBound(`${to}T23:59:59.999#~`)

const CURSOR = /^(\d{1,6})\|(E#\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}#\d{12})$/

const cursorOf = (page: number, sk: string) => Buffer.from(`${page}|${sk}`).toString('base64url')

function readCursor(cursor: string, period: { from: string; to: string }) {
  const match = CURSOR.exec(Buffer.from(cursor, 'base64url').toString('utf8'))
  const sk = match?.[2]
  if (!match || !sk || sk < lowerBound(period.from) || sk > upperBound(period.to))
    throw badQuery(
      'cursor',
      'STATEMENT_CURSOR_INVALID',
      'cursor is not one this statement gave: use the next link of the previous page, with the same from and to',
    )
  return { page: Number(match[1]) + 1, after: sk }
}

/** The balance after the newest entry booked before `bound` (sort key), or 0 without one. */
async function balanceBefore(merchantId: string, bound: string): Promise<number> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND sk < :bound',
      ExpressionAttributeValues: { ':pk': keys.statementPartition(merchantId), ':bound': bound },
      ScanIndexForward: false,
      Limit: 1,
      ConsistentRead: true,
    }),
  )
  return (out.Items?.[0] as StatementEntry | undefined)?.balanceAfterKobo ?? 0
}

/** The balance after the entry a cursor names (the page before ended on it). */
async function balanceAt(merchantId: string, sk: string): Promise<number> {
  const out = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: { pk: keys.statementPartition(merchantId), sk },
      ConsistentRead: true,
    }),
  )
  const entry = out.Item as StatementEntry | undefined
  if (!entry)
    throw badQuery(
      'cursor',
      'STATEMENT_CURSOR_INVALID',
      'cursor names no entry of this statement: start again without it',
    )
  return entry.balanceAfterKobo
}

/**
 * Up to `limit` entries of the period, oldest first, after `after` (a sort key) when given: one key
 * range, read on until `limit` are in (DynamoDB pages at 1 MB). Entry sort keys all have the same
 * length, so every key after `after` sorts at or above `after` plus any one character.
 */
async function entriesIn(
  merchantId: string,
  period: { from: string; to: string },
  after: string | undefined,
  limit: number,
): Promise<StatementEntry[]> {
  const entries: StatementEntry[] = []
  for await (const page of queryPages({
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :lower AND :upper',
    ExpressionAttributeValues: {
      ':pk': keys.statementPartition(merchantId),
      ':lower': after ? `${after} ` : lowerBound(period.from),
      ':upper': upperBound(period.to),
    },
    Limit: limit,
    ConsistentRead: true,
  })) {
    entries.push(...((page.Items ?? []) as StatementEntry[]))
    if (entries.length >= limit) break
  }
  return entries.slice(0, limit)
}

/** One page of the merchant's statement for the period (the first, or the one after `cursor`). */
export async function statementPage(
  merchantId: string,
  period: { from: string; to: string },
  cursor: string | undefined,
  pageEntries = STATEMENT_PAGE_ENTRIES,
): Promise<StatementPage> {
  const at = cursor ? readCursor(cursor, period) : { page: 1, after: undefined }
  const [openingKobo, read] = await Promise.all([
    at.after ? balanceAt(merchantId, at.after) : balanceBefore(merchantId, lowerBound(period.from)),
    entriesIn(merchantId, period, at.after, pageEntries + 1),
  ])
  const entries = read.slice(0, pageEntries)
  const last = read.length <= pageEntries
  const closingKobo = entries.reduce((sum, e) => sum + e.amountKobo, openingKobo)
  const lastEntry = entries.at(-1)
  // Each entry carries the running balance the indexer booked: the page must agree with it.
  if (lastEntry && lastEntry.balanceAfterKobo !== closingKobo)
    throw new Error(
      `statement of ${merchantId}: entry ${lastEntry.seq} has balance ${lastEntry.balanceAfterKobo} but opening + entries is ${closingKobo}`,
    )
  return {
    merchantId,
    currency: 'NGN',
    ...period,
    page: at.page,
    last,
    next:
      last || !lastEntry
        ? undefined
        : cursorOf(at.page, keys.statementEntry(merchantId, lastEntry.bookedAt, lastEntry.seq).sk),
    openingKobo,
    closingKobo,
    entries,
  }
}
