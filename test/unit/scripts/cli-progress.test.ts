import { describe, expect, it } from 'vitest'
import { duration, progressLine } from '../../../scripts/cli/progress.ts'

/** The progress line every long CLI command writes on stderr (issue 34, point 7). */
describe('the CLI progress line', () => {
  it('shows the count, the rate and, with a total, the time left', () => {
    expect(progressLine('encryption migrate: scanned', 1_200, 3_000, { total: 6_000 })).toBe(
      'encryption migrate: scanned 1,200 of 6,000 items (400/s, 12 s left)',
    )
    expect(progressLine('history export: MRC0001', 50_000, 10_000, { total: 200_000, unit: 'rows' })).toBe(
      'history export: MRC0001 50,000 of 200,000 rows (5,000/s, 30 s left)',
    )
  })

  it('shows the count and the rate alone when the total is unknown, or an estimate already passed', () => {
    expect(progressLine('reconcile: scanned', 900, 2_000)).toBe('reconcile: scanned 900 items (450/s)')
    expect(progressLine('x:', 120, 1_000, { total: 100 })).toBe('x: 120 of 100 items (120/s)')
  })

  it('writes a time left as a person reads it', () => {
    expect(duration(0.2)).toBe('1 s')
    expect(duration(59)).toBe('59 s')
    expect(duration(125)).toBe('2 min 05 s')
    expect(duration(3_720)).toBe('1 h 02 min')
  })
})
