/**
 * A device's chain (CONTRACT 23), kept in one item per device (`CHAIN`, ./records.ts) that each
 * request reporting the device's receipts updates once, under a condition on the revision it read
 * (./chain-store.ts). Kept at write time rather than computed when read: reading the chain is then
 * one GetItem however many receipts the device has, and it is current as soon as the report has
 * replied (the contract asks for 5 s).
 *
 * The received counters are held as runs: consecutive counters whose receipts each name their
 * predecessor's hash. A receipt joins the run before it when it names that run's last hash, and the
 * run after it when that run's first receipt names its hash; a link that does not match is a fork,
 * and the runs stay apart. So the item grows with the gaps and forks, never with the receipts.
 * Everything here is pure: no I/O.
 */

export const DAY_MS = 24 * 60 * 60 * 1000

/** Consecutive counters from..to, each linked to the one before. */
export interface Run {
  from: number
  to: number
  /** The prev_hash the run's first receipt names. */
  firstPrev: string
  /** The hash of the run's last receipt. */
  lastHash: string
  /** The issued_at of the run's first receipt: a gap before the run is overdue 24 h after it. */
  firstIssuedAt: string
}

export interface ChainFork {
  counter: number
  hashes: string[]
}

export interface ChainRecord {
  entity: 'RECEIPT_CHAIN'
  deviceId: string
  /** Bumped by every update: the condition of the next one. */
  revision: number
  runs: Run[]
  forks: ChainFork[]
  /**
   * Per counter, the other receipts held there that name the same prev_hash as the first one (a
   * till's regenerated retry): FORKs, yet each links to the counter before as well, so the next
   * counter may name any of them. Receipts arrive in any order (CONTRACT 23): when the retry came
   * first and holds the counter, the chain goes on through the original all the same. Absent in
   * items written before it.
   */
  siblings?: ChainFork[]
  lateCount: number
  lastReceivedAt?: string
}

/** A receipt that holds its counter in the chain (REPORTED, or REJECTED for its content). */
export interface ChainLink {
  counter: number
  hash: string
  prevHash: string
  issuedAt: string
  late: boolean
  receivedAt: string
}

export const emptyChain = (deviceId: string): ChainRecord => ({
  entity: 'RECEIPT_CHAIN',
  deviceId,
  revision: 0,
  runs: [],
  forks: [],
  lateCount: 0,
})

/** The most forks kept in the item: past it the chain still says the device forked, by its first ones. */
const MAX_FORKS = 200

/** Records two hashes seen at one counter (or for one link); nothing new changes nothing. */
export function withFork(chain: ChainRecord, fork: ChainFork): ChainRecord {
  const forks = chain.forks.map((f) => ({ ...f, hashes: [...f.hashes] }))
  const known = forks.find((f) => f.counter === fork.counter)
  if (known) {
    for (const hash of fork.hashes) if (!known.hashes.includes(hash)) known.hashes.push(hash)
  } else if (forks.length < MAX_FORKS) {
    forks.push({ counter: fork.counter, hashes: [...new Set(fork.hashes)] })
    forks.sort((a, b) => a.counter - b.counter)
  }
  return { ...chain, forks }
}

const later = (a: string | undefined, b: string) => (a && a > b ? a : b)

/** The hashes a receipt at `counter + 1` may name to link to `counter`: its holder's and its siblings'. */
const linksTo = (chain: ChainRecord, run: Run, hash: string) =>
  run.lastHash === hash || (chain.siblings ?? []).some((s) => s.counter === run.to && s.hashes.includes(hash))

/**
 * Records a sibling: a FORK at `counter` naming the same prev_hash as the receipt holding it. The run
 * after the counter, when its first receipt names the sibling, joins the run through the counter.
 */
export function withSibling(chain: ChainRecord, sibling: { counter: number; hash: string }): ChainRecord {
  const siblings = (chain.siblings ?? []).map((s) => ({ ...s, hashes: [...s.hashes] }))
  const known = siblings.find((s) => s.counter === sibling.counter)
  if (known?.hashes.includes(sibling.hash)) return chain
  if (known) known.hashes.push(sibling.hash)
  else if (siblings.length < MAX_FORKS) siblings.push({ counter: sibling.counter, hashes: [sibling.hash] })
  else return chain
  const runs = chain.runs.map((r) => ({ ...r }))
  const before = runs.find((r) => r.to === sibling.counter)
  const afterIndex = runs.findIndex((r) => r.from === sibling.counter + 1)
  const after = runs[afterIndex]
  if (before && after && after.firstPrev === sibling.hash) {
    before.to = after.to
    before.lastHash = after.lastHash
    runs.splice(afterIndex, 1)
  }
  return { ...chain, siblings, runs }
}

/**
 * Adds a receipt's link. A counter already in a run changes nothing (a resent receipt, or the same
 * link merged twice after a retry), so merging is idempotent and a DUPLICATE may be merged again to
 * repair a chain whose update was lost.
 */
export function withLink(chain: ChainRecord, link: ChainLink): ChainRecord {
  if (chain.runs.some((r) => r.from <= link.counter && link.counter <= r.to)) return chain
  let next: ChainRecord = {
    ...chain,
    lateCount: chain.lateCount + (link.late ? 1 : 0),
    lastReceivedAt: later(chain.lastReceivedAt, link.receivedAt),
  }
  const runs = chain.runs.map((r) => ({ ...r }))
  let run: Run = {
    from: link.counter,
    to: link.counter,
    firstPrev: link.prevHash,
    lastHash: link.hash,
    firstIssuedAt: link.issuedAt,
  }
  const before = runs.find((r) => r.to === link.counter - 1)
  if (before && linksTo(chain, before, link.prevHash)) {
    before.to = link.counter
    before.lastHash = link.hash
    run = before
  } else {
    if (before) next = withFork(next, { counter: before.to, hashes: [before.lastHash, link.prevHash] })
    runs.push(run)
  }
  const afterIndex = runs.findIndex((r) => r.from === link.counter + 1)
  const after = runs[afterIndex]
  if (after && linksTo(chain, { ...run, lastHash: link.hash }, after.firstPrev)) {
    run.to = after.to
    run.lastHash = after.lastHash
    runs.splice(afterIndex, 1)
  } else if (after) {
    next = withFork(next, { counter: link.counter, hashes: [link.hash, after.firstPrev] })
  }
  runs.sort((a, b) => a.from - b.from)
  return { ...next, runs }
}

/** The chain as GET /api/v1/devices/{id}/chain shows it, at server time `nowMs`. */
export function chainView(chain: ChainRecord, nowMs: number) {
  const { runs } = chain
  const last = runs[runs.length - 1]
  const gaps: { from: number; to: number; overdue: boolean }[] = []
  let expected = 1
  for (const run of runs) {
    if (run.from > expected) {
      gaps.push({
        from: expected,
        to: run.from - 1,
        overdue: nowMs - Date.parse(run.firstIssuedAt) >= DAY_MS,
      })
    }
    expected = run.to + 1
  }
  const first = runs[0]
  return {
    device_id: chain.deviceId,
    last_counter: last?.to ?? 0,
    last_hash: last?.lastHash ?? null,
    // Counter 1 is accepted only naming the genesis hash, so a run from 1 is verified from the start.
    verified_through: first && first.from === 1 ? first.to : 0,
    gaps,
    forks: chain.forks,
    late_count: chain.lateCount,
    last_received_at: chain.lastReceivedAt ?? null,
  }
}
