import { UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import type { RateLimit, RateState } from './rate-limit.ts'

/**
 * Rate limit leases: a container takes a share of a window's quota from DynamoDB in one write and
 * spends it locally, so a request writes nothing for its rate limits unless its container's share of
 * that window is spent (lib/platform/auth/rate-limit.ts says who counts in which window).
 *
 * The window item (keys.rateWindow) counts units leased, not requests. A lease is one unconditional
 * `ADD n :size` with ReturnValues UPDATED_NEW; DynamoDB applies the ADDs one at a time, so each lease
 * sees the count before it (`n - size`) and is granted `min(size, quota - (n - size))`, never less
 * than 0 (grantOf). The grants of a window therefore sum to at most its quota, however many containers
 * lease at once: the count may pass the quota (a lease that found too little), the grants never do.
 * A lease that is granted less than it asked for found the window spent: its container refuses the
 * window's further requests without writing, until the window ends or the limit changes.
 *
 * The size of a lease (leaseSize) follows the container's own recent rate: the requests it received since
 * its previous lease (admitted or refused) over the seconds since then, times LEASE_SECONDS (or the seconds left in the
 * window, if fewer); at least 1; at most twice its previous lease (a container that wakes to a burst
 * grows its share 1, 2, 4, ... rather than taking a large slice at its first request); and at most
 * leaseCap(quota), a twentieth of the quota. A container with no previous lease takes 1. With a
 * quota under 40 the cap is 1 and every admitted request is its own lease, as exact as a count.
 *
 * The tolerance, for one window of one subject (a key, or a business's keys of one mode), with N
 * containers holding leases in it:
 * - Over the quota: none. The units admitted are units granted, and the grants sum to at most the
 *   quota. A limit lowered mid-window is the exception, as it was when every request was counted:
 *   each container is held to the limit it last read, which is at most CREDENTIAL_CACHE_SECONDS
 *   (5 s) old (at once in the container that made the change); until it reads the new one it spends,
 *   and may lease, under the old one. Once it reads it, it drops its lease (below).
 * - Under the quota (units leased but not spent, which no one else can take): at most what the N
 *   containers hold, each at most leaseCap(quota), so at most N x quota / 20. A container that keeps
 *   receiving requests spends its lease within about LEASE_SECONDS; what stays stranded is the
 *   unspent share of a container whose traffic stopped. So when traffic keeps reaching every
 *   container (API Gateway spreads it over the warm ones), the window admits its whole quota.
 * - Unused units are not returned: a return is a write that would have to guess whether anyone
 *   needs them, and a Lambda container that stops receiving requests is frozen and runs nothing.
 *   They expire with their window, as the window item does.
 *
 * A changed limit (quota or window) drops this container's lease at once: what it held under the old
 * limit is not spent; its next request leases under the new one, against the window's count of units
 * leased so far (a new window length is a new item, counted from 0). The limit comes from the
 * credential cache, so other containers follow within CREDENTIAL_CACHE_SECONDS. Revocation is not the
 * lease's business: the verifiers refuse a revoked key or token before they reach its rate limit
 * (lib/platform/auth/api-signature.ts and the others), so a lease never admits a revoked credential.
 *
 * One QuotaLeases is one container's state (rate-limit.ts keeps one per module instance); a Lambda
 * container runs one request at a time, but the local server runs many, so requests of one container
 * wait for its lease in flight rather than each leasing.
 */

/** A lease lasts about this long at the container's recent rate. */
export const LEASE_SECONDS = 5
/** A lease is at most this fraction of the window's quota (1/LEASE_SHARES). */
export const LEASE_SHARES = 20

/** The most one lease takes of a quota: a twentieth, at least 1. */
export const leaseCap = (quota: number) => Math.max(1, Math.floor(quota / LEASE_SHARES))

/** A container's previous lease, as its next lease's size reads it. */
export interface LeaseHistory {
  /** Units it asked for. */
  size: number
  /** Requests since it was taken, admitted or refused: the container's demand, not only its grant. */
  requests: number
  /** Seconds since it was taken. */
  seconds: number
}

/** How many units a container asks for (see the module comment): its rate, bounded. */
export function leaseSize(input: { quota: number; secondsLeft: number; previous?: LeaseHistory }): number {
  const { quota, secondsLeft, previous } = input
  if (!previous) return 1
  // A lease spent in the same millisecond says only "fast": the doubling bound then sets the size.
  const rate = previous.requests / Math.max(previous.seconds, 0.001)
  const wanted = Math.ceil(rate * Math.min(LEASE_SECONDS, Math.max(secondsLeft, 0)))
  return Math.max(1, Math.min(wanted, 2 * previous.size, leaseCap(quota)))
}

/** What a lease of `size` is granted, given the window's count after its ADD. */
export const grantOf = (size: number, countAfter: number, quota: number) =>
  Math.max(0, Math.min(size, quota - (countAfter - size)))

/**
 * What the RateLimit header says is left: the quota less the units leased everywhere as this
 * container last saw the count, plus its own unspent units. Units other containers hold unspent
 * count as gone; this container cannot know how many of them will be spent.
 */
export const remainingOf = (quota: number, counted: number, left: number) =>
  Math.max(0, Math.min(quota, quota - Math.min(counted, quota) + left))

/** One container's lease in one window of one subject. */
interface Lease {
  quota: number
  windowSeconds: number
  windowStart: number
  /** Units granted here and not yet spent. */
  left: number
  /** The window's count (units leased everywhere) after this container's last lease. */
  counted: number
  /** The last lease was granted less than it asked: the window has nothing left to lease. */
  exhausted: boolean
  /** The last lease's size and time (ms), and the requests since; before any, the last window's. */
  size: number
  leasedAt?: number
  requestsSince: number
  carried?: LeaseHistory
  /** The lease being taken, which this container's other requests wait for. */
  pending?: Promise<void>
}

/** A request's unit in one window: admitted or not, where it stands, and how to undo it. */
export interface Taken {
  admitted: boolean
  rate: RateState
  /** Puts an admitted unit back into this container's lease (another window refused the request). */
  giveBack(): void
}

/** A crude bound on memory, as the credential cache has: a flood of subjects is not kept. */
const MAX_SUBJECTS = 10_000

export class QuotaLeases {
  private readonly leases = new Map<string, Lease>()

  constructor(private readonly clock: () => number = () => Date.now()) {}

  /** Takes one unit of `subject`'s window under `limit`, leasing more first if none is left here. */
  async take(subject: string, limit: RateLimit): Promise<Taken> {
    // The request belongs to the window it arrived in, even if that ends while its lease is written:
    // otherwise a write slower than the window would send it after the next window's lease, forever.
    const lease = this.current(subject, limit, this.clock())
    for (;;) {
      if (lease.left > 0) {
        lease.left--
        lease.requestsSince++
        return this.taken(subject, lease, true)
      }
      if (lease.exhausted) {
        lease.requestsSince++
        return this.taken(subject, lease, false)
      }
      // Each lease grants at least 1 unit or finds the window spent, so the loop ends; it loops at
      // all only when this container's other requests took the units first.
      lease.pending ??= this.extend(subject, lease, this.clock()).finally(() => {
        lease.pending = undefined
      })
      await lease.pending
    }
  }

  /** This container's lease for the window `now` falls in, a fresh one if the window or limit changed. */
  private current(subject: string, limit: RateLimit, now: number): Lease {
    const { quota, windowSeconds } = limit
    const windowStart = Math.floor(now / 1000 / windowSeconds) * windowSeconds
    const held = this.leases.get(subject)
    if (
      held &&
      held.windowStart === windowStart &&
      held.windowSeconds === windowSeconds &&
      held.quota === quota
    )
      return held
    if (!held && this.leases.size >= MAX_SUBJECTS) this.leases.clear()
    const lease: Lease = {
      quota,
      windowSeconds,
      windowStart,
      left: 0,
      counted: 0,
      exhausted: false,
      size: 0,
      requestsSince: 0,
      // The rate carries over from the window (or limit) before; its units do not.
      carried: held && historyOf(held, now),
    }
    this.leases.set(subject, lease)
    return lease
  }

  /** Leases units for `lease` in one write (see the module comment). */
  private async extend(subject: string, lease: Lease, now: number): Promise<void> {
    const { quota, windowSeconds, windowStart } = lease
    const size = leaseSize({
      quota,
      secondsLeft: windowStart + windowSeconds - now / 1000,
      previous: historyOf(lease, now),
    })
    const out = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.rateWindow(subject, windowSeconds, windowStart),
        UpdateExpression: 'ADD n :size SET expiresAt = if_not_exists(expiresAt, :expires)',
        // Kept a window past its end, then left to the TTL sweeper; a late sweep costs nothing.
        ExpressionAttributeValues: { ':size': size, ':expires': windowStart + 2 * windowSeconds },
        ReturnValues: 'UPDATED_NEW',
      }),
    )
    const count = Number(out.Attributes?.n ?? size)
    const granted = grantOf(size, count, quota)
    lease.left += granted
    lease.counted = Math.max(lease.counted, count - size + granted)
    lease.exhausted = granted < size
    lease.size = size
    lease.leasedAt = now
    lease.requestsSince = 0
  }

  private taken(subject: string, lease: Lease, admitted: boolean): Taken {
    const { quota, windowSeconds, windowStart } = lease
    const now = this.clock()
    return {
      admitted,
      rate: {
        quota,
        windowSeconds,
        windowStart,
        remaining: remainingOf(quota, lease.counted, lease.left),
        resetSeconds: Math.max(1, Math.ceil(windowStart + windowSeconds - now / 1000)),
      },
      giveBack: () => {
        // Only into the lease it came from: a unit of a window that has ended is gone with it.
        if (!admitted || this.leases.get(subject) !== lease) return
        lease.left++
        lease.requestsSince--
      },
    }
  }
}

/** The lease before the next one, for its size: its own if it leased, else the one it carried. */
function historyOf(lease: Lease, now: number): LeaseHistory | undefined {
  if (lease.leasedAt === undefined) return lease.carried
  return { size: lease.size, requests: lease.requestsSince, seconds: (now - lease.leasedAt) / 1000 }
}
