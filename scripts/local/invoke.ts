/**
 * `npx tsx scripts/local/invoke.ts <consumer> [event JSON]`: invokes one consumer of the running
 * `npm start` once, against its table, as `aws lambda invoke` or the consumer's schedule would: the
 * local stand-in for EventBridge Scheduler, which runs `reconcile-daily` in AWS (the local server has
 * no schedules). When the server runs from bundles (`--bundles`), the consumer runs from the same
 * bundles. Prints the function's result as the last line of its output.
 */
import { consumerFunctions } from '#lib/service/consumers.ts'
import { lambdaContext, loadConsumer } from './consumers.ts'
import { findLocalServer } from './state.ts'

const [functionId, eventText] = process.argv.slice(2)
const consumer = consumerFunctions.find((c) => c.functionId === functionId)
if (!consumer) {
  console.error(
    `Usage: invoke.ts <consumer> [event JSON], consumer one of: ${consumerFunctions.map((c) => c.functionId).join(', ')}`,
  )
  process.exit(2)
}
const lookup = findLocalServer()
if (!lookup.found) {
  console.error(
    `No local server to invoke ${functionId} against (${lookup.reason}): start one with npm start`,
  )
  process.exit(2)
}
const { state } = lookup
// What the server's functions read, as the stack sets it for them in Lambda.
process.env.TABLE_NAME = state.tableName
process.env.DYNAMODB_ENDPOINT = state.dynamoEndpoint
process.env.STAGE = 'local'
process.env.AWS_REGION ??= 'eu-west-1'
process.env.KEYS_DIR ||= state.keysDir
process.env.DATA_KEY_DIR ||= state.dataKeyDir
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true'

let bundles: Record<string, string> | undefined
if (state.bundlesDir) {
  const { bundlesIn, lambdaEnvironment } = await import('./bundles.ts')
  bundles = bundlesIn(state.bundlesDir)
  lambdaEnvironment()
  process.setSourceMapsEnabled(true)
}
const handler = await loadConsumer<(event: unknown, context: unknown) => Promise<unknown>>(consumer, bundles)
const result = await handler(
  eventText ? JSON.parse(eventText) : {},
  lambdaContext(consumer.functionId, consumer.timeoutSeconds),
)
console.log(JSON.stringify(result ?? null))
