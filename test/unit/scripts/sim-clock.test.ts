import { describe, expect, it } from 'vitest'
import { clockStart } from '../../../scripts/sim/faults.ts'

/** The seeded simulation's clock (scripts/sim/faults.ts): a seed replays only if its clock does. */
describe('the simulation clock start', () => {
  const morning = Date.parse('2026-12-03T07:31:12.345Z')

  it('is the same for two runs started apart on one day, at a whole second', () => {
    const a = clockStart(morning, 0)
    expect(clockStart(morning + 700, 0)).toBe(a)
    expect(clockStart(morning + 3_600_000, 0)).toBe(a)
    expect(a % 1000).toBe(0)
    expect(a).toBeGreaterThan(morning)
  })

  it('never goes behind where an earlier run of the process left the clock', () => {
    const reached = clockStart(morning, 0) + 5 * 3_600_000
    expect(clockStart(morning, reached)).toBe(reached + 1)
  })
})
