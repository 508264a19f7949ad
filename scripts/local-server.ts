/**
 * `npm start`: the whole API on http://127.0.0.1:${PORT:-3000}, on DynamoDB Local. Data lives in
 * memory unless DATA_DIR is set. Ctrl-C stops the server and DynamoDB Local together. With
 * DYNAMODB_ENDPOINT set it uses that (already running) DynamoDB Local instead of starting one.
 * While it runs, .local/server.json tells the CLI where its table is (scripts/local/state.ts).
 *
 * `npm start -- --bundles`: the same API served, and its stream and queue consumers run, by the Lambda
 * bundles `cdk synth` builds (built into .bundles/ first, scripts/local/bundles.ts), with Lambda's
 * environment: what deploys, run locally. `--bundles=cdk.out` takes those a `cdk synth` wrote, and
 * then needs no functions/ sources at all.
 */
import { resolve } from 'node:path'
import { dataKeyDir } from '#lib/platform/crypto/keyring.ts'
import { keysDir } from '#lib/platform/keys/pem-store.ts'
import { JavaMissingError, startDynamoDbLocal } from './local/dynamodb-local.ts'
import { useDevStageEnvironment } from './local/stage-environment.ts'
import { removeLocalServerState, writeLocalServerState } from './local/state.ts'
import { ensureTable } from './local/table.ts'

const port = Number(process.env.PORT ?? 3000)
// A person watching a terminal reads one short line per request (lib/platform/log.ts HumanLogger);
// a pipe or a file gets the JSON lines Lambda writes. LOG_FORMAT=json or human chooses either way.
process.env.LOG_FORMAT ??= process.stdout.isTTY ? 'human' : 'json'
const tableName = process.env.TABLE_NAME ?? 'einvoicing-local'
/** `--bundles` builds them as cdk synth does; `--bundles=cdk.out` takes those a `cdk synth` wrote. */
const bundlesArg = process.argv.find((a) => a === '--bundles' || a.startsWith('--bundles='))
const fromBundles = bundlesArg !== undefined

async function main() {
  let dynamo: Pick<Awaited<ReturnType<typeof startDynamoDbLocal>>, 'endpoint' | 'stop'>
  try {
    const existing = process.env.DYNAMODB_ENDPOINT
    dynamo = existing
      ? { endpoint: existing, stop: async () => undefined }
      : await startDynamoDbLocal({ dataDir: process.env.DATA_DIR })
  } catch (error) {
    if (error instanceof JavaMissingError) {
      console.error(error.message)
      process.exit(1)
    }
    throw error
  }
  let stopping = false
  const stop = async (code: number) => {
    if (stopping) return
    stopping = true
    removeLocalServerState()
    await server?.close()
    await workers?.stop()
    await dynamo.stop()
    process.exit(code)
  }
  process.on('SIGINT', () => void stop(0))
  process.on('SIGTERM', () => void stop(0))

  // The handlers read these, exactly as they read the variables the CDK stack sets in Lambda.
  process.env.TABLE_NAME = tableName
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint
  process.env.STAGE = 'local'
  process.env.AWS_REGION ??= 'eu-west-1'
  // What the stacks set from the stage's settings file (the statements' servicer), from dev's.
  useDevStageEnvironment()
  // EMF metric lines (lib/platform/metrics.ts) mean nothing without CloudWatch: off unless asked for.
  process.env.POWERTOOLS_METRICS_DISABLED ??= 'true'

  /** With --bundles: where they are (cdk.out or .bundles/), for processes started beside this one. */
  let bundlesDir: string | undefined
  let server: Awaited<ReturnType<typeof import('./local/server.ts').startServer>> | undefined
  let workers: Awaited<ReturnType<typeof import('./local/workers.ts').startWorkers>> | undefined
  try {
    await ensureTable(dynamo.endpoint, tableName)
    const { seedLocal } = await import('./local/seed.ts')
    await seedLocal()
    // The signing and QR keys of both modes, generated on a fresh clone (RSA-2048 takes seconds on a
    // busy machine) and loaded now: the first health check or signed invoice does not wait for them,
    // nor see them DOWN because its 1.5 s check ran out while they were made.
    const { authorityKey } = await import('#lib/qr/authority-key.ts')
    const { signingKey } = await import('#lib/platform/signing/key-source.ts')
    await Promise.all([authorityKey('live'), authorityKey('test'), signingKey('live'), signingKey('test')])
    let bundles: Record<string, string> | undefined
    // Whose permissions the local IAM guard enforces (scripts/local/iam.ts): a synth's own, read from
    // its templates, when its bundles run; else those the sources derive the policies from.
    let grants: import('./local/iam.ts').Grants | undefined
    if (bundlesArg) {
      const { buildBundles, bundlesFromCloudAssembly, lambdaEnvironment } = await import('./local/bundles.ts')
      const cdkOut = bundlesArg.split('=')[1]
      if (cdkOut) {
        bundlesDir = resolve(cdkOut)
        bundles = bundlesFromCloudAssembly(bundlesDir)
        const { grantsFromCloudAssembly } = await import('./local/cloud-grants.ts')
        const { accessOfFunctions } = await import('#lib/service/function-access.ts')
        grants = grantsFromCloudAssembly(bundlesDir, accessOfFunctions().keys())
      } else {
        bundlesDir = new URL('../.bundles/', import.meta.url).pathname
        console.log(`Building the Lambda bundles into ${bundlesDir} as cdk synth builds them ...`)
        bundles = await buildBundles(bundlesDir)
      }
      lambdaEnvironment()
      // Lambda runs them with NODE_OPTIONS=--enable-source-maps: stack traces point at the .ts lines.
      process.setSourceMapsEnabled(true)
    }
    // The guard first: the workers and the server both run functions under it, with one run's grants.
    const { installLocalIam } = await import('./local/iam.ts')
    installLocalIam(grants)
    // The stream consumers (history indexer, webhooks, batches, notifications) on the one local stream
    // drive, and the queues of lib/service/consumers.ts, in-process: from their bundles too with --bundles.
    const { startWorkers } = await import('./local/workers.ts')
    workers = await startWorkers({
      endpoint: dynamo.endpoint,
      tableName,
      bundles,
      ...(grants ? { grants } : {}),
    })
    const { startServer } = await import('./local/server.ts')
    server = await startServer(port, { bundles, grants, afterWrite: () => workers!.historySettled() })
  } catch (error) {
    console.error('Could not start the local API:', error)
    await stop(1)
    return
  }
  await writeLocalServerState({
    pid: process.pid,
    url: server.url,
    dynamoEndpoint: dynamo.endpoint,
    tableName,
    keysDir: keysDir(),
    dataKeyDir: dataKeyDir(),
    ...(bundlesDir ? { bundlesDir } : {}),
    startedAt: new Date().toISOString(),
  })
  // Also on an exit nobody asked for (an uncaught error): a stale file would mislead the CLI.
  process.on('exit', () => removeLocalServerState())
  const { developmentCredentialsText, tryItText } = await import('./local/banner.ts')
  console.log(
    `\nE-invoicing API listening on ${server.url}${fromBundles ? ' from the Lambda bundles' : ''}  (DynamoDB Local at ${dynamo.endpoint}, table ${tableName})`,
  )
  console.log(developmentCredentialsText())
  console.log(`${tryItText(server.url)}\nPress Ctrl-C to stop.`)
}

void main()
