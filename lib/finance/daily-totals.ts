import { GetCommand } from '@aws-sdk/lib-dynamodb'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'

/**
 * A merchant's totals for one Lagos calendar day, as the history's write keeps them (PROTOCOL's
 * daily-totals item: ADD on `keys.historyDay`, owned by the ledger's history write). A transfer
 * counts on the day of its createdAt as successful or failed, as it was created; a reversal counts
 * as reversed on the day it happened, and the transfer's day is left as it was (CONTRACT 20: a past
 * day never changes). Amounts are integer kobo.
 */
export interface DailyTotals {
  successfulCount: number
  successfulKobo: number
  failedCount: number
  failedKobo: number
  reversedCount: number
  reversedKobo: number
}

export const DAILY_TOTAL_FIELDS = [
  'successfulCount',
  'successfulKobo',
  'failedCount',
  'failedKobo',
  'reversedCount',
  'reversedKobo',
] as const satisfies readonly (keyof DailyTotals)[]

export const ZERO_TOTALS: DailyTotals = {
  successfulCount: 0,
  successfulKobo: 0,
  failedCount: 0,
  failedKobo: 0,
  reversedCount: 0,
  reversedKobo: 0,
}

/** The totals an item holds; an absent item or attribute is zero (no transaction that day). */
export function totalsOf(item: Record<string, unknown> | undefined): DailyTotals {
  const totals = { ...ZERO_TOTALS }
  for (const field of DAILY_TOTAL_FIELDS) {
    const value = item?.[field]
    if (typeof value === 'number') totals[field] = value
  }
  return totals
}

/** `2026-01-15` from a Lagos local createdAt (`2026-01-15T08:30:00.000`): the day it counts on. */
export const dayOf = (createdAtLocal: string) => createdAtLocal.slice(0, 10)

/** The day's totals in ONE strongly consistent GetItem, whatever the day's volume. */
export async function readDailyTotals(merchantId: string, date: string): Promise<DailyTotals> {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.historyDay(merchantId, date), ConsistentRead: true }),
  )
  return totalsOf(out.Item)
}
