import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, inject, it } from 'vitest'
import { ensureTable } from '../../../scripts/local/table.ts'

/**
 * The seeded fault simulation (scripts/sim/run.ts, `npm run sim`) in the test run: a few seeds, each
 * with no broken invariant (CONTRACT 24's among them: at most one effect per requestId and per session
 * id, no debit after a final 25, every transfer whose reply was lost settled by one status query), and one seed run twice (`npm run sim`, each on a fresh table) giving the
 * same trace of decisions and outcomes.
 * SIM_TEST_OPS sets the operations per seed (default 100: DynamoDB Local answers each call in
 * milliseconds, so a run is a few operations a second on a busy two-core machine).
 */
const OPS = Number(process.env.SIM_TEST_OPS ?? 100)
const SEEDS = [11, 22, 33]
const root = fileURLToPath(new URL('../../../', import.meta.url))

process.env.TABLE_NAME = `sim-${randomUUID()}`
process.env.DYNAMODB_ENDPOINT = inject('dynamoEndpoint')
process.env.DYNAMODB_LOCAL_DATABASE = `sim${randomUUID().replaceAll('-', '')}`
process.env.STAGE = 'local'
process.env.AWS_REGION = 'eu-west-1'

describe('the seeded fault simulation', () => {
  it(`keeps every invariant over ${SEEDS.length} seeds of ${OPS} operations`, {
    timeout: 900_000,
  }, async () => {
    await ensureTable(process.env.DYNAMODB_ENDPOINT!, process.env.TABLE_NAME!)
    const { seedLocal } = await import('../../../scripts/local/seed.ts')
    await seedLocal()
    const { runSimulation } = await import('../../../scripts/sim/run.ts')
    const run = (seed: number, ops = OPS) =>
      runSimulation({
        seed,
        ops,
        endpoint: process.env.DYNAMODB_ENDPOINT!,
        tableName: process.env.TABLE_NAME!,
      })
    let faults = 0
    // CONTRACT 24: transfers whose reply is lost, each settled by one status query; late originals of
    // a requestId a status query found never received; session ids sent again under a new requestId.
    const statusQueryKinds = { 'timed out': 0, 'late original': 0, 'session reuse': 0 }
    for (const seed of SEEDS) {
      const report = await run(seed)
      expect(
        report.violations,
        `seed ${seed}: replay with npm run sim -- --seed ${seed} --ops ${OPS}`,
      ).toEqual([])
      expect(report.invariantsChecked).toBeGreaterThan(OPS)
      faults +=
        report.faults.throttling + report.faults.transactionCanceled + report.faults.timeoutAfterCommit
      for (const kind of Object.keys(statusQueryKinds) as (keyof typeof statusQueryKinds)[])
        statusQueryKinds[kind] += report.counts[kind] ?? 0
    }
    expect(faults).toBeGreaterThan(0)
    for (const [kind, n] of Object.entries(statusQueryKinds)) expect(n, kind).toBeGreaterThan(0)
  })

  it('replays a seed identically: `npm run sim` twice on fresh tables gives the same trace and faults', {
    timeout: 600_000,
  }, async () => {
    const run = promisify(execFile)
    const once = async () => {
      const traceFile = join(tmpdir(), `sim-trace-${randomUUID()}.txt`)
      const env = {
        ...process.env,
        TABLE_NAME: `sim-${randomUUID()}`,
        DYNAMODB_LOCAL_DATABASE: `sim${randomUUID().replaceAll('-', '')}`,
        SIM_TRACE_FILE: traceFile,
      }
      const { stdout } = await run('npx', ['tsx', 'scripts/sim.ts', '--seed', '44', '--ops', '25'], {
        cwd: root,
        env,
      })
      const lines = readFileSync(traceFile, 'utf8')
      rmSync(traceFile)
      return { ...JSON.parse(stdout.split('\n').find((line) => line.startsWith('{'))!), lines }
    }
    // The second run starts most of a second after the first: a run whose path hung on the moment it
    // started (its clock began at the real time) parted from the first within a few operations.
    const [a, b] = await Promise.all([once(), new Promise((resolve) => setTimeout(resolve, 700)).then(once)])
    expect(b.lines).toBe(a.lines)
    expect(b.trace).toBe(a.trace)
    expect(b.faults).toEqual(a.faults)
    expect(b.counts).toEqual(a.counts)
  })
})
