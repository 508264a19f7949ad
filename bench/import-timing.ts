import { spawnSync } from 'node:child_process'
import { pathToFileURL } from 'node:url'

/**
 * Cold-start timing as the cold-start and invoice-pdf benches measure it: whole `node` processes,
 * spawn to exit, in interleaved rounds.
 */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

export interface Timed {
  args: string[]
  env: NodeJS.ProcessEnv
}

/** Wall time of one whole `node` process, spawn to exit, in ms. */
function timeOnce({ args, env }: Timed): number {
  const start = performance.now()
  const run = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] })
  const elapsed = performance.now() - start
  if (run.status !== 0) throw new Error(`node ${args.join(' ')} failed:\n${run.stderr.toString()}`)
  return elapsed
}

/**
 * Median wall time of each process over `runs` rounds. Runs are interleaved (round r times every
 * target once), so a slow spell on a shared machine falls on all targets alike, bare node included,
 * instead of on whichever bundle happened to be measured then; each round takes the targets in a new
 * random order (Fisher-Yates), so no target always runs just after the same neighbour or at the same
 * point of a round. One untimed run each first warms the page cache.
 */
export function timeInterleaved(targets: Timed[], runs: number): number[] {
  for (const target of targets) timeOnce(target)
  const samples = targets.map(() => [] as number[])
  const order = targets.map((_, i) => i)
  for (let round = 0; round < runs; round++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1))
      ;[order[i], order[j]] = [order[j]!, order[i]!]
    }
    for (const i of order) samples[i]!.push(timeOnce(targets[i]!))
  }
  return samples.map(median)
}

/** The arguments that make `node` import one module and exit. */
export const importOf = (file: string) => [
  '--input-type=module',
  '-e',
  `await import(${JSON.stringify(pathToFileURL(file).href)})`,
]
