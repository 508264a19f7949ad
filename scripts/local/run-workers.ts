/**
 * The consumers of lib/consumers.ts on their own, beside a running local API: reads TABLE_NAME and
 * DYNAMODB_ENDPOINT (as `npm start` prints them) and, optionally, WORKERS (function ids, comma
 * separated). Used by the tests that kill a worker mid-batch; `npm start` runs the same in-process.
 */
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
const workers = await startWorkers({ endpoint, tableName, ...(only ? { only } : {}) })
console.log(`workers running: ${only?.join(', ') ?? 'all'}`)
const stop = async () => {
  await workers.stop()
  process.exit(0)
}
process.on('SIGINT', () => void stop())
process.on('SIGTERM', () => void stop())
