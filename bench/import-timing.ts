import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
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

/**
 * TIMING=cpu: each process's own CPU time (user + system, all its threads, start to exit, from
 * process.cpuUsage in an exit hook) instead of its wall time. On a machine others are loading, wall
 * time measures the queue for a core as much as the work; CPU time measures the work, which is what
 * an import adds to a cold start. Wall time (the default) is the figure on a quiet machine.
 */
export const TIMING: 'wall' | 'cpu' = process.env.TIMING === 'cpu' ? 'cpu' : 'wall'
const CPU_MARK = 'import-timing-cpu-us '
let cpuHook: string | undefined
function cpuHookFile(): string {
  if (cpuHook) return cpuHook
  cpuHook = join(mkdtempSync(join(tmpdir(), 'import-timing-')), 'cpu-hook.cjs')
  writeFileSync(
    cpuHook,
    `process.on('exit', () => { const u = process.cpuUsage(); process.stderr.write('\\n${CPU_MARK}' + (u.user + u.system) + '\\n') })\n`,
  )
  return cpuHook
}

/** Wall time (or with TIMING=cpu, CPU time) of one whole `node` process, spawn to exit, in ms. */
function timeOnce({ args, env }: Timed): number {
  const argv = TIMING === 'cpu' ? ['--require', cpuHookFile(), ...args] : args
  const start = performance.now()
  const run = spawnSync(process.execPath, argv, { env, stdio: ['ignore', 'ignore', 'pipe'] })
  const elapsed = performance.now() - start
  const stderr = run.stderr.toString()
  if (run.status !== 0) throw new Error(`node ${args.join(' ')} failed:\n${stderr}`)
  if (TIMING === 'wall') return elapsed
  const cpu = stderr.slice(stderr.lastIndexOf(CPU_MARK) + CPU_MARK.length)
  if (!stderr.includes(CPU_MARK)) throw new Error(`node ${args.join(' ')} printed no CPU time`)
  return Number.parseInt(cpu, 10) / 1000
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
