/**
 * The consumers of lib/service/consumers.ts on their own, beside a running local API: reads TABLE_NAME and
 * DYNAMODB_ENDPOINT (as `npm start` prints them) and, optionally, WORKERS (function ids, comma
 * separated). Used by the tests that kill a worker mid-batch; `npm start` runs the same in-process.
 * With API_BUNDLES naming a directory of bundles (cdk.out, as in the CI's bundles pass), the
 * consumers run from those, as the API beside them does.
 */
import { existsSync } from 'node:fs'
import { startWorkers } from './workers.ts'

const endpoint = process.env.DYNAMODB_ENDPOINT
const tableName = process.env.TABLE_NAME
if (!endpoint || !tableName) {
  console.error('Set DYNAMODB_ENDPOINT and TABLE_NAME (npm start prints both)')
  process.exit(1)
}
process.env.STAGE ??= 'local'
process.env.AWS_REGION ??= 'eu-west-1'
const only = process.env.WORKERS?.split(',').filter(Boolean)
// API_BUNDLES=1 builds the bundles into a directory of the test run's own, which this process cannot
// see: it runs the sources then.
const bundlesDir = process.env.API_BUNDLES
let bundles: Record<string, string> | undefined
if (bundlesDir && existsSync(bundlesDir)) {
  const { bundlesIn, lambdaEnvironment } = await import('./bundles.ts')
  bundles = bundlesIn(bundlesDir)
  lambdaEnvironment()
}
const workers = await startWorkers({ endpoint, tableName, bundles, ...(only ? { only } : {}) })
console.log(`workers running: ${only?.join(', ') ?? 'all'}`)
const stop = async () => {
  await workers.stop()
  process.exit(0)
}
process.on('SIGINT', () => void stop())
process.on('SIGTERM', () => void stop())
