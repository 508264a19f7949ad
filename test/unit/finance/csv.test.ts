import { parse } from 'csv-parse/sync'
import { describe, expect, it } from 'vitest'
import { historyCsv, prefersCsv } from '#lib/finance/csv.ts'
import type { TransactionRecord } from '#lib/merchant-history/service.ts'

const record = (merchantReference: string, amount = 1): TransactionRecord => ({
  amount,
  completedAt: '2026-01-15T08:30:00.000',
  merchantReference,
  providerReference: 'TNX260115083000123',
  queriedAccount: '0123456789',
  status: 'SUCCESSFUL',
  type: 'DEBIT',
})

describe('historyCsv', () => {
  it('neutralises cells starting with a tab or a carriage return too, and keeps them one cell', () => {
    const text = historyCsv([record('\tcmd'), record('\r=1'), record('line\nbreak'), record('café ₦')])
    const rows = parse(text, { columns: true }) as Record<string, string>[]
    expect(rows.map((r) => r.merchantReference)).toEqual(["'\tcmd", "'\r=1", 'line\nbreak', 'café ₦'])
  })

  it('writes amounts with exactly two decimals, and no header when asked not to', () => {
    const text = historyCsv([record('a', 5), record('b', 0.1), record('c', 1234567.89)], { header: false })
    // The amount is the column before the currency (CONTRACT 20); three rows and no header row.
    expect(
      text
        .trimEnd()
        .split('\r\n')
        .map((line) => line.split(',').slice(-2)),
    ).toEqual([
      ['5.00', 'NGN'],
      ['0.10', 'NGN'],
      ['1234567.89', 'NGN'],
    ])
  })
})

describe('prefersCsv', () => {
  it.each([
    ['text/csv', true],
    ['text/csv; charset=utf-8', true],
    ['TEXT/CSV', true],
    ['text/csv, */*', true],
    ['text/*', true],
    ['application/json, text/csv', false],
    ['text/csv;q=0.5, application/json', false],
    ['text/csv;q=0', false],
    ['*/*', false],
    ['', false],
    [undefined, false],
  ])('%s -> %s', (accept, csv) => {
    expect(prefersCsv(accept)).toBe(csv)
  })
})
