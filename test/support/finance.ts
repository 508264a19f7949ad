import { expect } from 'vitest'
import type { ApiClient } from '#client/api-client.ts'
import type { TransactionRecord } from '#lib/merchant-history/service.ts'

/**
 * Every page of GET /api/v1/merchant/transactions for these filters (an undefined one is left out),
 * concatenated in order, and the total the pages report. Every page must be a 200.
 */
export async function allPages(
  merchant: ApiClient,
  params: Record<string, string | number | undefined> = {},
): Promise<{ content: TransactionRecord[]; total: number }> {
  const content: TransactionRecord[] = []
  for (let page = 1; ; page++) {
    const given = Object.entries({ ...params, page }).filter(([, value]) => value !== undefined)
    const search = new URLSearchParams(given.map(([name, value]): [string, string] => [name, String(value)]))
    const reply = await merchant.get<{
      data: { content: TransactionRecord[]; page: { totalElements: number; totalPages: number } }
    }>(`/api/v1/merchant/transactions?${search}`)
    expect(reply.status).toBe(200)
    content.push(...reply.body.data.content)
    if (page >= reply.body.data.page.totalPages) return { content, total: reply.body.data.page.totalElements }
  }
}

/** The merchant's whole JSON history (pages of 200), newest first. */
export async function wholeHistory(merchant: ApiClient, params: Record<string, string> = {}) {
  return (await allPages(merchant, { ...params, size: 200 })).content
}

type Sums = Record<'SUCCESSFUL' | 'FAILED' | 'REVERSED', { count: number; kobo: number }>

/**
 * Asserts that GET /api/v1/merchant/statement, for every day of the merchant's history, equals the
 * sums of that day's history (the history's own date filter picks the day): successful counts every
 * transfer created successful that day (REVERSED ones too: a reversal leaves its transfer's day as it
 * was, CONTRACT 20), reversed the reversals, made here the same day as their transfers. Returns the
 * per-day sums by current status for further checks.
 */
export async function expectStatementsMatchHistory(merchant: ApiClient, merchantId: string) {
  const days = new Set((await wholeHistory(merchant)).map((t) => t.completedAt!.slice(0, 10)))
  const perDay = new Map<string, Sums>()
  for (const date of days) {
    const sums: Sums = {
      SUCCESSFUL: { count: 0, kobo: 0 },
      FAILED: { count: 0, kobo: 0 },
      REVERSED: { count: 0, kobo: 0 },
    }
    for (const t of await wholeHistory(merchant, { fromDate: date, toDate: date })) {
      const status = t.status as keyof Sums
      sums[status].count++
      sums[status].kobo += Math.round(t.amount * 100)
    }
    perDay.set(date, sums)
    const reply = await merchant.get<{ data: unknown }>(`/api/v1/merchant/statement?date=${date}`)
    expect(reply.status).toBe(200)
    const of = (status: keyof Sums) => ({ count: sums[status].count, amount: sums[status].kobo / 100 })
    const createdOk = {
      count: sums.SUCCESSFUL.count + sums.REVERSED.count,
      amount: (sums.SUCCESSFUL.kobo + sums.REVERSED.kobo) / 100,
    }
    expect(reply.body.data, date).toEqual({
      merchantId,
      date,
      count: createdOk.count + sums.FAILED.count + sums.REVERSED.count,
      successful: createdOk,
      failed: of('FAILED'),
      reversed: of('REVERSED'),
      net: sums.SUCCESSFUL.kobo / 100,
    })
  }
  return perDay
}
