/**
 * `npx tsx scripts/local/invoke.ts <consumer> [event JSON]`: invokes one consumer of the running
 * `npm start` once, against its table, as `aws lambda invoke` or the consumer's schedule would: the
 * local stand-in for EventBridge Scheduler, which runs `reconcile-daily` in AWS (the local server has
 * no schedules). When the server runs from bundles (`--bundles`), the consumer runs from the same
 * bundles. Held to the function's role as every local run is (scripts/local/iam.ts): the grants a
 * `cdk synth` wrote when the bundles are its cloud assembly, the sources' otherwise. Prints the
 * function's result as the last line of its output.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { consumers } from '#lib/service/consumers.ts'
import { lambdaContext, loadConsumer } from './consumers.ts'
import { asFunction, type Grants, installLocalIam } from './iam.ts'
import { findLocalServer } from './state.ts'

const [functionId, eventText] = process.argv.slice(2)
const consumer = consumers.find((c) => c.functionId === functionId)
if (!consumer) {
  console.error(
    `Usage: invoke.ts <consumer> [event JSON], consumer one of: ${consumers.map((c) => c.functionId).join(', ')}`,
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
let grants: Grants | undefined
if (state.bundlesDir) {
  const { bundlesIn, lambdaEnvironment } = await import('./bundles.ts')
  bundles = bundlesIn(state.bundlesDir)
  lambdaEnvironment()
  process.setSourceMapsEnabled(true)
  if (existsSync(join(state.bundlesDir, 'manifest.json'))) {
    const { grantsFromCloudAssembly } = await import('./cloud-grants.ts')
    grants = grantsFromCloudAssembly(state.bundlesDir, [consumer.functionId])
  }
}
installLocalIam(grants)
const handler = await loadConsumer<(event: unknown, context: unknown) => Promise<unknown>>(consumer, bundles)
const result = await asFunction(consumer.functionId, () =>
  handler(
    eventText ? JSON.parse(eventText) : {},
    lambdaContext(consumer.functionId, consumer.timeoutSeconds),
  ),
)
console.log(JSON.stringify(result ?? null))
