import { describe, expect, it } from 'vitest'
import { grantOf, LEASE_SECONDS, leaseCap, leaseSize, remainingOf } from '#lib/platform/auth/rate-lease.ts'

/**
 * The lease decision of lib/platform/auth/rate-lease.ts, without a table: how many units a
 * container asks for, what a lease is granted from the window's count, and what the RateLimit header
 * says is left. The leases against DynamoDB Local are in rate-lease-table.test.ts.
 */
describe('leaseSize', () => {
  const quota = 6000 // the default: cap 300
  it('takes 1 unit when the container has no lease behind it', () => {
    expect(leaseSize({ quota, secondsLeft: 60 })).toBe(1)
  })

  it("covers LEASE_SECONDS at the container's recent rate", () => {
    // 10 requests in 1 s since its last lease of 32: 10/s for 5 s.
    expect(leaseSize({ quota, secondsLeft: 60, previous: { size: 32, requests: 10, seconds: 1 } })).toBe(
      10 * LEASE_SECONDS,
    )
    // A slow container (1 request in 20 s) leases 1.
    expect(leaseSize({ quota, secondsLeft: 60, previous: { size: 8, requests: 1, seconds: 20 } })).toBe(1)
  })

  it('at most doubles the previous lease, however fast it was spent', () => {
    expect(leaseSize({ quota, secondsLeft: 60, previous: { size: 4, requests: 4, seconds: 0 } })).toBe(8)
    expect(leaseSize({ quota, secondsLeft: 60, previous: { size: 1, requests: 1, seconds: 0.01 } })).toBe(2)
  })

  it('takes at most a twentieth of the quota', () => {
    expect(leaseCap(6000)).toBe(300)
    expect(leaseSize({ quota, secondsLeft: 60, previous: { size: 1000, requests: 1000, seconds: 1 } })).toBe(
      300,
    )
    // Below 40 the cap is 1: every admitted request is a lease of its own, as exact as a count.
    expect(leaseCap(39)).toBe(1)
    expect(leaseSize({ quota: 10, secondsLeft: 60, previous: { size: 1, requests: 1, seconds: 0 } })).toBe(1)
  })

  it('covers no more than the seconds left in the window', () => {
    // 100/s, 0.5 s left: 50, not 500.
    expect(leaseSize({ quota, secondsLeft: 0.5, previous: { size: 300, requests: 100, seconds: 1 } })).toBe(
      50,
    )
    expect(leaseSize({ quota, secondsLeft: 0, previous: { size: 300, requests: 100, seconds: 1 } })).toBe(1)
  })
})

describe('grantOf', () => {
  it('grants the whole lease while the window has room for it', () => {
    // The count before the ADD was 10, after it 15: 5 of a quota of 100.
    expect(grantOf(5, 15, 100)).toBe(5)
    expect(grantOf(5, 100, 100)).toBe(5)
  })

  it('grants what is left when the lease asks for more, and nothing past the quota', () => {
    expect(grantOf(5, 102, 100)).toBe(3)
    expect(grantOf(5, 105, 100)).toBe(0)
    expect(grantOf(5, 250, 100)).toBe(0)
  })

  it('never grants more than the quota in all, in whatever order leases arrive', () => {
    const quota = 100
    for (const sizes of [
      [30, 30, 30, 30],
      [1, 2, 4, 8, 16, 32, 64, 128],
      Array.from({ length: 300 }, () => 1),
    ]) {
      let count = 0
      let granted = 0
      for (const size of sizes) {
        count += size
        granted += grantOf(size, count, quota)
      }
      expect(granted).toBe(Math.min(quota, count))
    }
  })
})

describe('remainingOf', () => {
  it("is the quota less the units leased everywhere, plus this container's unspent ones", () => {
    expect(remainingOf(100, 20, 5)).toBe(85)
    expect(remainingOf(100, 0, 0)).toBe(100)
  })

  it('is what this container holds once the window is leased out, never below 0 or above the quota', () => {
    expect(remainingOf(100, 130, 2)).toBe(2)
    expect(remainingOf(100, 130, 0)).toBe(0)
    expect(remainingOf(3, 0, 9)).toBe(3)
  })
})
