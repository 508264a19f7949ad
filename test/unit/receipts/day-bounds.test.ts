import { describe, expect, it } from 'vitest'
import { lagosDay } from '#lib/platform/time.ts'
import { boundsOf, boundsToMove } from '#lib/receipts/day-bounds.ts'

/** lib/receipts/day-bounds.ts: each device's issue days in Lagos time and their counter bounds. */
describe('day bounds', () => {
  it('takes the Lagos day (UTC+1): 23:30 UTC is the next day', () => {
    expect(lagosDay('2026-12-02T22:59:59Z')).toBe('2026-12-02')
    expect(lagosDay('2026-12-02T23:30:00Z')).toBe('2026-12-03')
    expect(lagosDay('2026-12-03T00:30:00+01:00')).toBe('2026-12-03')
  })

  it('keeps the lowest and highest counter per device and day, in any order', () => {
    const bounds = boundsOf([
      { deviceId: 'a', counter: 7, issuedAt: '2026-12-03T10:00:00Z' },
      { deviceId: 'a', counter: 3, issuedAt: '2026-12-03T09:00:00Z' },
      { deviceId: 'a', counter: 5, issuedAt: '2026-12-03T09:30:00Z' },
      { deviceId: 'a', counter: 2, issuedAt: '2026-12-02T23:10:00Z' },
      { deviceId: 'b', counter: 4, issuedAt: '2026-12-03T10:00:00Z' },
    ])
    expect(bounds).toEqual([
      { deviceId: 'a', day: '2026-12-03', lo: 2, hi: 7 },
      { deviceId: 'b', day: '2026-12-03', lo: 4, hi: 4 },
    ])
  })

  it('keeps a till clock set back inside both days it touches', () => {
    const bounds = boundsOf([
      { deviceId: 'a', counter: 10, issuedAt: '2026-12-03T12:00:00Z' },
      { deviceId: 'a', counter: 11, issuedAt: '2026-12-02T12:00:00Z' },
      { deviceId: 'a', counter: 12, issuedAt: '2026-12-03T12:05:00Z' },
    ])
    expect(bounds).toEqual([
      { deviceId: 'a', day: '2026-12-03', lo: 10, hi: 12 },
      { deviceId: 'a', day: '2026-12-02', lo: 11, hi: 11 },
    ])
  })

  it('moves only a bound that does not cover the request yet: a new day both, a later counter hi', () => {
    const day = { deviceId: 'a', day: '2026-12-03', lo: 5, hi: 9 }
    const moves = (held?: { lo?: number; hi?: number }) =>
      boundsToMove([day], () => held).map((m) => `${m.name}${m.beyond}${m.value}`)
    expect(moves(undefined)).toEqual(['lo>5', 'hi<9'])
    expect(moves({ lo: 1, hi: 8 })).toEqual(['hi<9'])
    expect(moves({ lo: 6, hi: 20 })).toEqual(['lo>5'])
    expect(moves({ lo: 5, hi: 9 })).toEqual([])
    // Half an item (a request cut between its two writes): the missing bound is written.
    expect(moves({ lo: 1 })).toEqual(['hi<9'])
  })
})
