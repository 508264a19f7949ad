/**
 * `npm run sim -- --seed N --ops M`: the seeded fault simulation (scripts/sim/run.ts) on a DynamoDB
 * Local of its own (in memory), or the one DYNAMODB_ENDPOINT names. Prints its figures; on any broken
 * invariant prints them with the seed and the command that replays the run, and exits 1. Without
 * --seed, a seed is drawn and printed.
 */
import { randomInt } from 'node:crypto'
import { startDynamoDbLocal } from './local/dynamodb-local.ts'
import { ensureTable } from './local/table.ts'

const arg = (name: string) => {
  const at = process.argv.indexOf(`--${name}`)
  return at >= 0 ? process.argv[at + 1] : undefined
}
const seed = Number(arg('seed') ?? randomInt(1, 2 ** 31))
const ops = Number(arg('ops') ?? 1000)
if (!Number.isInteger(seed) || !Number.isInteger(ops) || ops < 1) {
  console.error('usage: npm run sim -- [--seed N] [--ops M]')
  process.exit(2)
}

const existing = process.env.DYNAMODB_ENDPOINT
const dynamo = existing
  ? { endpoint: existing, stop: async () => undefined }
  : await startDynamoDbLocal({ heapMb: 1024 })
const tableName = process.env.TABLE_NAME ?? `sim-${seed}-${Date.now()}`
process.env.TABLE_NAME = tableName
process.env.DYNAMODB_ENDPOINT = dynamo.endpoint
process.env.STAGE = 'local'
process.env.AWS_REGION ??= 'eu-west-1'
process.env.LOG_LEVEL ??= 'SILENT'
process.env.POWERTOOLS_METRICS_DISABLED = 'true'
let code = 1
console.error(`${new Date().toISOString()} DynamoDB Local up`)
try {
  await ensureTable(dynamo.endpoint, tableName)
  const { seedLocal } = await import('./local/seed.ts')
  await seedLocal()
  const { runSimulation } = await import('./sim/run.ts')
  const report = await runSimulation({
    seed,
    ops,
    endpoint: dynamo.endpoint,
    tableName,
    progress: (line) => console.error(`${new Date().toISOString()} ${line}`),
  })
  const { violations, ...figures } = report
  console.log(JSON.stringify(figures))
  if (violations.length) {
    console.error(`SIMULATION FAILED: seed ${seed}, ${violations.length} invariant violations:`)
    for (const v of violations.slice(0, 20)) console.error(`  - ${v}`)
    console.error(`Replay: npm run sim -- --seed ${seed} --ops ${ops}`)
  } else code = 0
} catch (error) {
  console.error(`SIMULATION FAILED: seed ${seed}:`, error)
  console.error(`Replay: npm run sim -- --seed ${seed} --ops ${ops}`)
} finally {
  await dynamo.stop()
}
process.exit(code)
