import * as z from 'zod'
import { koboToNaira } from '#lib/platform/money.ts'
import { type DailyTotals, readDailyTotals } from './daily-totals.ts'

const CountAndAmount = z.object({ count: z.int(), amount: z.number().describe('naira, 2 decimals') })

/** The statement record (the `data` of the Area C envelope). */
export const StatementRecord = z.object({
  merchantId: z.string(),
  date: z.string().describe('the Lagos calendar day, YYYY-MM-DD'),
  count: z.int().describe('successful + failed + reversed'),
  successful: CountAndAmount,
  failed: CountAndAmount,
  reversed: CountAndAmount,
  net: z.number().describe("the day's movement: successful minus reversed (reversals made that day)"),
})
export type Statement = z.output<typeof StatementRecord>

export function statementFrom(merchantId: string, date: string, totals: DailyTotals): Statement {
  return {
    merchantId,
    date,
    count: totals.successfulCount + totals.failedCount + totals.reversedCount,
    successful: { count: totals.successfulCount, amount: koboToNaira(totals.successfulKobo) },
    failed: { count: totals.failedCount, amount: koboToNaira(totals.failedKobo) },
    reversed: { count: totals.reversedCount, amount: koboToNaira(totals.reversedKobo) },
    net: koboToNaira(totals.successfulKobo - totals.reversedKobo),
  }
}

/** One merchant's statement for one Lagos calendar day: one item read, whatever the volume. */
export async function statementOf(merchantId: string, date: string): Promise<Statement> {
  return statementFrom(merchantId, date, await readDailyTotals(merchantId, date))
}
