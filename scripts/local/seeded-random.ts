/**
 * mulberry32: a small, fast, seedable generator (uniform in [0, 1)), for what must come out the same
 * from the same seed: the fault simulation's every decision (scripts/sim/) and the demo transactions
 * of `npm run cli -- seed-transactions` (scripts/ops/seed-transactions.ts).
 */
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
