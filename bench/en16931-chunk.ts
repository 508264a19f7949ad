/**
 * The EN 16931 chunk (CONTRACT 22, infra/constructs/api-function.ts EN16931_CHUNK): its size as the
 * construct builds it, and what the first validate request of a container pays to import it (the CPU
 * of the import, then of the first judge(), in a fresh Node process each run), beside a warm judge().
 *
 * Run: npx tsx bench/en16931-chunk.ts
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import { chunkOptions, EN16931_CHUNK } from '../infra/constructs/api-function.ts'
import { buildInvoice } from '../test/fixtures/invoices/build.ts'

const RUNS = 9
const dir = mkdtempSync(join(tmpdir(), 'en16931-chunk-'))
try {
  await build({ ...chunkOptions(EN16931_CHUNK, join(dir, EN16931_CHUNK.file)), sourcemap: false })
  const chunk = join(dir, EN16931_CHUNK.file)
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
  console.log(
    `${EN16931_CHUNK.file}: ${kb(statSync(chunk).size)} (${kb(gzipSync(readFileSync(chunk)).length)} gzipped)`,
  )
  writeFileSync(join(dir, 'invoice.json'), JSON.stringify(buildInvoice()))
  const script = `
    const record = JSON.parse((await import('node:fs')).readFileSync(${JSON.stringify(join(dir, 'invoice.json'))}, 'utf8'))
    const cpu = (since) => { const u = process.cpuUsage(since); return (u.user + u.system) / 1000 }
    let start = process.cpuUsage(); let wall = performance.now()
    const chunk = await import(${JSON.stringify(chunk)})
    const imported = cpu(start); const importedWall = performance.now() - wall
    start = process.cpuUsage()
    chunk.findingsOf(record)
    const first = cpu(start)
    start = process.cpuUsage()
    for (let i = 0; i < 100; i++) chunk.findingsOf(record)
    process.stdout.write(JSON.stringify([imported, importedWall, first, cpu(start) / 100]))`
  const runs = Array.from({ length: RUNS }, () => {
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
    if (run.status !== 0) throw new Error(run.stderr)
    return JSON.parse(run.stdout) as number[]
  })
  const median = (i: number) =>
    runs
      .map((r) => r[i]!)
      .sort((a, b) => a - b)
      [Math.floor(RUNS / 2)]!.toFixed(2)
  console.log(`first import: ${median(0)} ms CPU (${median(1)} ms wall); first judge(): ${median(2)} ms CPU`)
  console.log(
    `warm judge() of the test invoice (3 lines): ${median(3)} ms CPU (medians of ${RUNS} processes)`,
  )
} finally {
  rmSync(dir, { recursive: true, force: true })
}
