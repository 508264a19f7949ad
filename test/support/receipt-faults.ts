import type { Receipt, Till } from './receipts.ts'
import { b2cInvoice, hashOf } from './receipts.ts'

/**
 * A day of many tills with faults put in on purpose (issue 44): gaps (a receipt signed and never
 * sent), forks (a second receipt signed at a counter already used, from the same link), duplicates (a
 * receipt sent twice, byte for byte) and late receipts (issued more than 24 h before they are sent).
 * The plan says what the service must find: each device's gaps (and which are overdue), its forked
 * counters, its late count, and the results the reports must get. bench/receipts.ts runs it at
 * 100,000 receipts; a test-clock run of 10,000 can use the same plan.
 *
 * Faults are spread by a seeded generator, so a run can be repeated; which device gets what is
 * recorded, never guessed back from the replies.
 */

const DAY_MS = 24 * 3600 * 1000

export interface FaultRates {
  /** Per receipt: the chance it is signed and never sent (a gap of one). */
  gap: number
  /** Per receipt: the chance a second receipt is signed at its counter and sent after it (a fork). */
  fork: number
  /** Per receipt: the chance it is sent a second time, in a later batch (a duplicate). */
  duplicate: number
  /** Per device: the chance its first receipts were issued 26 h before `now` (late when sent). */
  lateDevice: number
}

export const DEFAULT_RATES: FaultRates = { gap: 0.002, fork: 0.002, duplicate: 0.005, lateDevice: 0.1 }

export interface DeviceExpectation {
  deviceId: string
  lastCounter: number
  gaps: { from: number; to: number; overdue: boolean }[]
  forks: number[]
  late: number
  reported: number
  duplicates: number
}

export interface FaultPlan {
  /** What to send, batch by batch, in order. */
  batches: Receipt[][]
  devices: DeviceExpectation[]
  totals: { sent: number; reported: number; late: number; forks: number; duplicates: number; gaps: number }
}

/** mulberry32: a small seeded generator, so a plan can be made again from its seed. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * Signs `perDevice` receipts on each till and lays them out in batches of `batchSize`: round by round,
 * each device's next receipts side by side (as tills that report every few minutes would), forks one
 * round after their original and duplicates two rounds after theirs. `now` is the server's time at
 * the end of the day (the test clock's in test mode): receipts are issued before it.
 */
export function planFaultDay(
  tills: Till[],
  options: { perDevice: number; batchSize: number; now: number; seed?: number; rates?: FaultRates },
): FaultPlan {
  const { perDevice, batchSize, now } = options
  const rates = options.rates ?? DEFAULT_RATES
  const random = seeded(options.seed ?? 2026)
  const perRound = Math.max(1, Math.floor(batchSize / tills.length))
  const rounds: Receipt[][] = []
  const put = (round: number, receipt: Receipt) => {
    while (rounds.length <= round) rounds.push([])
    rounds[round]!.push(receipt)
  }
  const devices: DeviceExpectation[] = []
  for (const till of tills) {
    const late = random() < rates.lateDevice ? Math.max(1, Math.floor(perDevice / 20)) : 0
    // Late receipts first, 26 h ago, a second apart; the rest in the last perDevice seconds.
    const issuedAt = (counter: number) =>
      new Date(
        counter <= late ? now - 26 * 3600 * 1000 + counter * 1000 : now - (perDevice - counter + 1) * 1000,
      )
    const expected: DeviceExpectation = {
      deviceId: till.deviceId,
      lastCounter: 0,
      gaps: [],
      forks: [],
      late: 0,
      reported: 0,
      duplicates: 0,
    }
    let withheld: number | undefined
    for (let counter = 1; counter <= perDevice; counter++) {
      const round = Math.floor((counter - 1) / perRound)
      const at = issuedAt(counter).toISOString()
      // A fork: signed from the same link before the receipt that is kept, sent a round after it.
      // Never on a receipt that is withheld (its fork would fill the gap) nor on the last one.
      const forked = counter < perDevice && random() < rates.fork
      const fork = forked ? till.next({ issuedAt: at, advance: false, invoice: b2cInvoice() }) : undefined
      const receipt = till.next({ issuedAt: at })
      // The last receipt is always sent, so every gap has a receipt after it.
      if (counter > 1 && counter < perDevice && !forked && withheld === undefined && random() < rates.gap) {
        withheld = counter
        continue
      }
      if (withheld !== undefined) {
        const overdue = now - Date.parse(at) >= DAY_MS
        expected.gaps.push({ from: withheld, to: withheld, overdue })
        withheld = undefined
      }
      put(round, receipt)
      expected.reported++
      expected.lastCounter = counter
      if (counter <= late) expected.late++
      if (fork) {
        put(round + 1, fork)
        expected.forks.push(counter)
      }
      if (random() < rates.duplicate) {
        put(round + 2, receipt)
        expected.duplicates++
      }
    }
    devices.push(expected)
  }
  const batches = rounds.flatMap((round) => chunk(round, batchSize))
  const sum = (f: (d: DeviceExpectation) => number) => devices.reduce((n, d) => n + f(d), 0)
  return {
    batches,
    devices,
    totals: {
      sent: batches.reduce((n, b) => n + b.length, 0),
      reported: sum((d) => d.reported),
      late: sum((d) => d.late),
      forks: sum((d) => d.forks.length),
      duplicates: sum((d) => d.duplicates),
      gaps: sum((d) => d.gaps.length),
    },
  }
}

function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

/** Results of the reports, counted by status (and late), to hold against a plan's totals. */
export function countResults(results: { status: string; late?: boolean }[]) {
  const count = { REPORTED: 0, DUPLICATE: 0, FORK: 0, REJECTED: 0, late: 0 }
  for (const r of results) {
    count[r.status as keyof typeof count]++
    if (r.status === 'REPORTED' && r.late) count.late++
  }
  return count
}

/** How a device's chain as the service answers it differs from the plan; empty when it matches. */
export function chainMismatches(expected: DeviceExpectation, chain: Record<string, any>): string[] {
  const found: string[] = []
  const want = {
    last_counter: expected.lastCounter,
    gaps: expected.gaps,
    forks: expected.forks,
    late_count: expected.late,
  }
  if (chain.last_counter !== want.last_counter)
    found.push(`last_counter ${chain.last_counter} != ${want.last_counter}`)
  const gaps = (chain.gaps ?? []).map((g: any) => ({ from: g.from, to: g.to, overdue: g.overdue }))
  if (JSON.stringify(gaps) !== JSON.stringify(want.gaps))
    found.push(`gaps ${JSON.stringify(gaps)} != ${JSON.stringify(want.gaps)}`)
  const forks = (chain.forks ?? []).map((f: any) => f.counter)
  if (JSON.stringify(forks) !== JSON.stringify(want.forks))
    found.push(`forks ${JSON.stringify(forks)} != ${JSON.stringify(want.forks)}`)
  if (chain.late_count !== want.late_count) found.push(`late_count ${chain.late_count} != ${want.late_count}`)
  const verified = expected.gaps.length ? expected.gaps[0]!.from - 1 : expected.lastCounter
  if (chain.verified_through !== verified)
    found.push(`verified_through ${chain.verified_through} != ${verified}`)
  return found
}

export { hashOf }
