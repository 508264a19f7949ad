import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { AssetHashType, Duration, type RemovalPolicy } from 'aws-cdk-lib'
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch'
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb'
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam'
import type { IKey } from 'aws-cdk-lib/aws-kms'
import {
  ApplicationLogLevel,
  Architecture,
  Code,
  Function as LambdaFunction,
  LoggingFormat,
  Runtime,
  SystemLogLevel,
  Tracing,
} from 'aws-cdk-lib/aws-lambda'
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs'
import { Construct } from 'constructs'
import type { BuildOptions } from 'esbuild'
import { type AccountServicer, accountServicerEnvironment } from '#lib/finance/account-servicer.ts'
import type { Access } from '#lib/platform/iam/access.ts'
import { accessOfRoutes } from '#lib/service/function-access.ts'
import { builtinAliases } from './builtin-shims.ts'
import { bundlePlugins } from './bundle-plugins.ts'
import type { FunctionAsset } from './bundle-function.ts'
import { acknowledge } from './nag.ts'
import { grantAccess } from './grants.ts'
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager'
import { type ModeSecret, type Route, routes as routeTable } from '#lib/service/routes.ts'

/** The repository root: handler modules in the route table are relative to it. */
export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url))

/**
 * ESM bundles have no `require`; some CommonJS dependencies (bundled with the AWS SDK) still call it
 * for Node built-ins, so the bundle defines one.
 */
export const ESM_REQUIRE_BANNER =
  "import { createRequire } from 'module'; const require = createRequire(import.meta.url);"

let aliases: Record<string, string> | undefined

/**
 * What the bundles take in place of what the code imports (esbuild's `alias`): each Node built-in
 * its `require` shim (builtin-shims.ts), and the SDK's credential chain the environment provider
 * Lambda needs (lambda-credentials.ts). Made on first use, since it writes the shim files.
 */
export function bundleAliases(): Record<string, string> {
  aliases ??= {
    ...builtinAliases(),
    '@aws-sdk/credential-provider-node': fileURLToPath(new URL('./lambda-credentials.ts', import.meta.url)),
    // The Encryption SDK's dependencies for ECDSA-signed formats, which the project never writes
    // (shims/*.cjs say why each is safe): about 110 KB of every function that opens a secret.
    'bn.js': fileURLToPath(new URL('./shims/bn.cjs', import.meta.url)),
    'asn1.js': fileURLToPath(new URL('./shims/asn1.cjs', import.meta.url)),
    // The KMS keyring's aggregated KMS class carries every KMS command; it calls three (-40 KB).
    '@aws-sdk/client-kms': fileURLToPath(new URL('./shims/kms-client.mjs', import.meta.url)),
    // The Encryption SDK's decryptor without the module that runs a decrypt stream when it loads.
    '@aws-crypto/decrypt-node': fileURLToPath(new URL('./shims/decrypt-node.mjs', import.meta.url)),
    // The SDK's event-stream codec, for operations none of the functions calls (-15 KB).
    '@smithy/core/event-streams': fileURLToPath(new URL('./shims/event-streams.mjs', import.meta.url)),
    // The Encryption SDK's local materials cache uses five lru-cache 6 methods; a Map does them (-8 KB,
    // lru-cache and yallist; shims/lru-cache.cjs says how each matches).
    'lru-cache': fileURLToPath(new URL('./shims/lru-cache.cjs', import.meta.url)),
    // The Encryption SDK's streams on Node's own instead of readable-stream 3, Node 10's streams
    // copied (-37 KB; shims/readable-stream.mjs says where the two differ and how that is met).
    'readable-stream': fileURLToPath(new URL('./shims/readable-stream.mjs', import.meta.url)),
    // The DynamoDB client's endpoint-discovery cache (discovery is never turned on) uses five methods of
    // mnemonist's LRU cache; a Map does them (-5 KB; shims/mnemonist-lru-cache.mjs).
    'mnemonist/lru-cache': fileURLToPath(new URL('./shims/mnemonist-lru-cache.mjs', import.meta.url)),
    // The SDK clients' SHA-256 without its pure-JavaScript fallback for a Node without crypto (-3.5 KB;
    // shims/checksum.mjs).
    '@smithy/core/checksum': fileURLToPath(new URL('./shims/checksum.mjs', import.meta.url)),
    // The XML path of the invoice functions, built as a chunk of its own (UBL_IN_CHUNK).
    [UBL_IN_CHUNK.loader]: fileURLToPath(new URL('./shims/ubl-in-loader.mjs', import.meta.url)),
    // The EN 16931 business rules of the validate functions, a chunk of their own too (EN16931_CHUNK).
    [EN16931_CHUNK.loader]: fileURLToPath(new URL('./shims/en16931-loader.mjs', import.meta.url)),
  }
  return aliases
}

/**
 * The UBL in chunk (CONTRACT 22): the XML path of the functions whose routes take XML (a route's
 * `xmlBody`), built from `entry` into `file` beside the bundle, which imports it through the loader
 * shim on the first XML request. Out of the bundle, a JSON request never loads it (bench/cold-start.ts).
 */
export const UBL_IN_CHUNK = {
  loader: '#lib/documents/ubl-in-loader.ts',
  entry: 'lib/documents/ubl-in.ts',
  file: 'ubl-in.mjs',
} as const

/**
 * The EN 16931 chunk (CONTRACT 22): the business rules (lib/en16931) of the functions whose routes
 * report their findings (a route's `en16931`), built beside the bundle as UBL_IN_CHUNK is and imported
 * through its loader shim on the first validate request. A chunk of its own rather than part of the
 * UBL in chunk: every validate request needs the rules, JSON ones included, and a JSON request should
 * not load the XML path (saxes, the schema model) to get them.
 */
export const EN16931_CHUNK = {
  loader: '#lib/en16931/loader.ts',
  entry: 'lib/en16931/findings.ts',
  file: 'en16931.mjs',
} as const

/** A chunk built beside a function's bundle and imported by it on first use. */
export type Chunk = typeof UBL_IN_CHUNK | typeof EN16931_CHUNK

/** The module through which the catch-all finds the table's paths (functions/meta/route-table.ts). */
const ROUTE_LOOKUP = '#functions/meta/route-table.ts'

/**
 * What a function's bundle takes in place of the whole route table: the catch-all (no routes of its
 * own) gets every route's method and path as data, ROUTE_TABLE for functions/meta/route-table-bundled.ts,
 * derived from the declarations at every build; a routed function finds its routes in its own
 * declaration and gets an empty table.
 */
export function routeLookupBundling(served: readonly Route[]): {
  alias: Record<string, string>
  define: Record<string, string>
} {
  const table = served.length === 0 ? routeTable.map((r) => ({ method: r.method, path: r.path })) : []
  return {
    alias: { [ROUTE_LOOKUP]: join(PROJECT_ROOT, 'functions/meta/route-table-bundled.ts') },
    define: { ROUTE_TABLE: JSON.stringify(table) },
  }
}

/**
 * The esbuild settings of every function's bundle: the construct builds with them (functionCode,
 * bundle-function.ts), and so do the cold-start benchmark and the bundle tests, so they look at the
 * very bundles Lambda runs: the handler module's routes are those lib/service/routes.ts gives it.
 */
export function esbuildOptionsFor(handler: string, outfile: string): BuildOptions & { metafile: true } {
  const lookup = routeLookupBundling(routeTable.filter((r) => r.handler === handler))
  return {
    absWorkingDir: PROJECT_ROOT,
    entryPoints: [join(PROJECT_ROOT, handler)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    minify: true,
    // An external, linked .map file. Stack traces need the mappings, not a copy of every source file:
    // the .map shrinks from about 2.2 MB to 0.9 MB, and Lambda parses it at every cold start
    // (--enable-source-maps).
    sourcemap: 'linked',
    sourcesContent: false,
    target: 'node22',
    mainFields: ['module', 'main'],
    banner: { js: ESM_REQUIRE_BANNER },
    // Bundle the AWS SDK: the version the tests ran against is the version that runs, and a single
    // bundled file loads faster than the runtime's SDK spread over node_modules.
    external: [],
    loader: { '.json': 'json' },
    alias: { ...bundleAliases(), ...lookup.alias },
    define: lookup.define,
    plugins: bundlePlugins(),
    metafile: true,
    logLevel: 'warning',
  }
}

/** The UBL in chunk's esbuild options (UBL_IN_CHUNK), the bundles' own settings but for the entry. */
export function ublInChunkOptions(outfile: string): BuildOptions & { metafile: true } {
  return chunkOptions(UBL_IN_CHUNK, outfile)
}

/** A chunk's esbuild options, the bundles' own settings but for the entry. */
export function chunkOptions(chunk: Chunk, outfile: string): BuildOptions & { metafile: true } {
  return { ...esbuildOptionsFor(chunk.entry, outfile), define: {} }
}

/** Whether a function's bundle needs the UBL in chunk beside it: one of its routes takes XML. */
export const needsUblInChunk = (served: readonly Pick<Route, 'xmlBody'>[]) => served.some((r) => r.xmlBody)

/** Whether a function's bundle needs the EN 16931 chunk beside it: one of its routes reports the findings. */
export const needsEn16931Chunk = (served: readonly Pick<Route, 'en16931'>[]) => served.some((r) => r.en16931)

export interface ApiFunctionProps {
  functionId: string
  /** The module exporting `handler`, relative to the project root. */
  handler: string
  /**
   * The routes this function serves: they decide its table access, and its bundle's route lookup
   * holds just these (routeLookupBundling). None for the catch-all.
   */
  routes: readonly Route[]
  /** The service's key secrets; the function is granted read on those its Access names. */
  secrets?: Partial<Record<ModeSecret, ISecret>>
  table: ITableV2
  /** The field-encryption key: decrypt and encrypt are granted only where this function needs them. */
  dataKey?: IKey
  stage: string
  serviceName: string
  serviceVersion: string
  /** DESTROY for throwaway stages; production keeps its logs when the stack goes. */
  logRemovalPolicy: RemovalPolicy
  /** How long its log group keeps events (the stage's `retention.logDays`). */
  logRetention: RetentionDays
  /** The stage's default per-client rate limit (`clientLimits`), read by the authenticating code. */
  clientLimits: { quota: number; windowSeconds: number }
  /** The stage's reversal window in days (`ledger.reversalWindowDays`), read by the ledger; the edge's functions have none. */
  reversalWindowDays?: number
  /** The institution its statements name (`statements.accountServicer`): the statement function's only. */
  accountServicer?: AccountServicer
}

/** An API function's timeout unless its declaration gives one (`timeoutSeconds`). */
export const API_FUNCTION_TIMEOUT_SECONDS = 10

/**
 * API Gateway's wait for a function (the HTTP API integration's timeout, at most 30 s): above every
 * function's timeout, so a function that runs out of time is answered by the gateway as failed
 * rather than cut off while it still runs, and an Area B request is over, committed or not, before
 * the gateway gives up on it (lib/ledger/final-within.ts).
 */
export const INTEGRATION_TIMEOUT_SECONDS = 29

/** A function's timeout: its routes' declaration's (one endpoint, one value), else the house one. */
export function functionTimeoutSeconds(functionId: string, served: readonly Pick<Route, 'timeoutSeconds'>[]) {
  const declared = new Set(served.map((r) => r.timeoutSeconds ?? API_FUNCTION_TIMEOUT_SECONDS))
  if (declared.size > 1) throw new Error(`${functionId}: its routes declare several timeouts`)
  const seconds = [...declared][0] ?? API_FUNCTION_TIMEOUT_SECONDS
  if (seconds >= INTEGRATION_TIMEOUT_SECONDS)
    throw new Error(
      `${functionId}: a ${seconds} s timeout is not under the gateway's ${INTEGRATION_TIMEOUT_SECONDS} s`,
    )
  return seconds
}

/** p99 function duration that pages: well under the 10 s timeout, far over a healthy request. */
export const P99_LATENCY_MS = 3000

/** Which of Lambda's own lines reach the log (houseFunction); bench/cost.ts prices them by it. */
export const SYSTEM_LOG_LEVEL = SystemLogLevel.WARN

/** Every API function's memory (MB) unless its props say otherwise; bench/cost.ts prices duration at it. */
export const API_FUNCTION_MEMORY_MB = 1024

export interface HouseFunctionProps {
  /** The function's name within the service, for its description. */
  name: string
  /** The module exporting `handler`, relative to the project root. */
  handler: string
  table: ITableV2
  stage: string
  serviceName: string
  serviceVersion: string
  logRemovalPolicy: RemovalPolicy
  logRetention: RetentionDays
  memorySize?: number
  timeout?: Duration
  /** Added to the environment every function gets. */
  environment?: Record<string, string>
  /** Files of npm packages to copy beside the bundle (the route table's `files`). */
  files?: readonly string[]
  /** The routes an API function serves, for its bundle's route lookup (routeLookupBundling). */
  routes?: readonly Route[]
  /** Ship the UBL in chunk beside the bundle (a consumer that reads XML); routes that take XML imply it. */
  ublInChunk?: boolean
}

/**
 * A function's name in AWS: fixed, so the edge stack's dashboard can name the area stacks' functions
 * without importing anything from them (the area stacks import the API's id from the edge: a
 * reference back would be a cycle). At most 11 + 20 (stage, infra/app.ts) + 1 + the functionId: under
 * Lambda's 64.
 */
export const physicalFunctionName = (stage: string, functionId: string): string =>
  `einvoicing-${stage}-${functionId}`

/** The script that builds a function's asset (bundle-function.ts), run by the local bundling below. */
const BUNDLE_FUNCTION_SCRIPT = fileURLToPath(new URL('./bundle-function.ts', import.meta.url))

/**
 * A function's code: its asset built at synth by bundle-function.ts, with esbuild's API and
 * esbuildOptionsFor() (NodejsFunction runs esbuild's command line, which takes no plugins, and its
 * bundles could drift from those the benchmarks measure). Hashed by its output, as NodejsFunction's.
 */
export function functionCode(asset: FunctionAsset): Code {
  return Code.fromAsset(PROJECT_ROOT, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      // Local bundling only (tryBundle always succeeds or throws); the image is never pulled.
      image: Runtime.NODEJS_22_X.bundlingImage,
      // Never run, but part of the key CDK caches a bundling under within a synth: the source (the
      // project root) and these options, of which `local` counts for nothing. Without the function's
      // own asset here, every function got the first one's bundle.
      command: ['bundle-function', JSON.stringify(asset)],
      local: {
        tryBundle(outputDir: string) {
          execFileSync(
            process.execPath,
            ['--import', 'tsx', BUNDLE_FUNCTION_SCRIPT, JSON.stringify(asset), outputDir],
            {
              cwd: PROJECT_ROOT,
              stdio: 'inherit',
            },
          )
          return true
        },
      },
    },
  })
}

/**
 * A Lambda function with the house defaults (Node 22 on ARM64, the shared bundling, the common
 * environment) and its own log group. API functions and consumers (consumers.ts) are all made with it.
 */
export function houseFunction(
  scope: Construct,
  props: HouseFunctionProps,
): { function: LambdaFunction; logGroup: LogGroup } {
  // Created explicitly (rather than by Lambda on first log line) so retention is set and the group
  // is removed with the stack where that is wanted.
  const logGroup = new LogGroup(scope, 'Logs', {
    retention: props.logRetention,
    removalPolicy: props.logRemovalPolicy,
  })
  // A role of its own instead of AWSLambdaBasicExecutionRole (logs:* on every log group): it may
  // write to this function's log group only.
  const role = new Role(scope, 'Role', {
    assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
    description: `${props.serviceName} ${props.stage} ${props.name}`,
  })
  logGroup.grantWrite(role)
  const ublIn = props.ublInChunk === true || needsUblInChunk(props.routes ?? [])
  const chunks: Chunk[] = [
    ...(ublIn ? [UBL_IN_CHUNK] : []),
    ...(needsEn16931Chunk(props.routes ?? []) ? [EN16931_CHUNK] : []),
  ]
  const fn = new LambdaFunction(scope, 'Function', {
    functionName: physicalFunctionName(props.stage, props.name),
    role,
    description: `${props.serviceName} ${props.stage} ${props.name}`,
    code: functionCode({
      handler: props.handler,
      chunks: chunks.map((c) => c.file),
      files: props.files ?? [],
    }),
    handler: 'index.handler',
    runtime: Runtime.NODEJS_22_X,
    architecture: Architecture.ARM_64,
    memorySize: props.memorySize ?? API_FUNCTION_MEMORY_MB,
    timeout: props.timeout ?? Duration.seconds(API_FUNCTION_TIMEOUT_SECONDS),
    tracing: Tracing.ACTIVE,
    logGroup,
    // Lambda's own START, END and REPORT lines (about 350 bytes an invocation, the largest part of a
    // cheap request's log bill) are INFO system logs: WARN keeps only platform warnings. Duration,
    // errors and throttles stay CloudWatch metrics, and the init time is in the X-Ray trace. The
    // application lines are Powertools' JSON already (lib/platform/log.ts), filtered at INFO.
    loggingFormat: LoggingFormat.JSON,
    systemLogLevelV2: SYSTEM_LOG_LEVEL,
    applicationLogLevelV2: ApplicationLogLevel.INFO,
    environment: {
      TABLE_NAME: props.table.tableName,
      STAGE: props.stage,
      SERVICE_NAME: props.serviceName,
      SERVICE_VERSION: props.serviceVersion,
      NODE_OPTIONS: '--enable-source-maps',
      LOG_LEVEL: 'INFO',
      ...props.environment,
    },
  })
  acknowledge(
    scope,
    'AwsSolutions-IAM5[Resource::*]',
    'X-Ray (active tracing): xray:PutTraceSegments and xray:PutTelemetryRecords have no resource-level permissions',
  )
  const runtime =
    'Node 22 is the version the project is tested and bundled for (package.json); moving to a newer runtime is a change of its own, with its own test run'
  acknowledge(scope, 'AwsSolutions-L1', runtime)
  acknowledge(scope, 'Serverless-LambdaLatestVersion', runtime)
  acknowledge(
    scope,
    'Serverless-LambdaDLQ',
    "Never invoked asynchronously: API Gateway invokes synchronously (the caller gets the error), and stream consumers send failed batches to their event source mapping's on-failure queue (StreamTrigger)",
  )
  return { function: fn, logGroup }
}

/** A Lambda function behind the API, with the house defaults and only the table access it needs. */
export class ApiFunction extends Construct {
  readonly function: LambdaFunction
  readonly logGroup: LogGroup
  /** What its role allows (lib/service/function-access.ts), as the local runs enforce it. */
  readonly access: Access
  readonly alarms: readonly Alarm[]

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    super(scope, id)

    const files = [...new Set(props.routes.flatMap((r) => r.files ?? []))]
    const timeoutSeconds = functionTimeoutSeconds(props.functionId, props.routes)
    const made = houseFunction(this, {
      ...props,
      name: props.functionId,
      files,
      timeout: Duration.seconds(timeoutSeconds),
      // The limit of a client that has none of its own (lib/platform/auth/rate-limit.ts),
      // the stage's reversal window (lib/ledger/reversal-window.ts) and the statements' servicer.
      environment: {
        DEFAULT_RATE_QUOTA: String(props.clientLimits.quota),
        DEFAULT_RATE_WINDOW_SECONDS: String(props.clientLimits.windowSeconds),
        ...(props.reversalWindowDays === undefined
          ? {}
          : { REVERSAL_WINDOW_DAYS: String(props.reversalWindowDays) }),
        ...(props.accountServicer && accountServicerEnvironment(props.accountServicer)),
      },
    })
    this.function = made.function
    this.logGroup = made.logGroup

    // The role: exactly the Access the local runs hold this function to (grants.ts).
    this.access = accessOfRoutes(props.routes)
    grantAccess(this.function, props.functionId, this.access, {
      table: props.table,
      dataKey: props.dataKey,
      secrets: props.secrets,
    })

    const period = Duration.minutes(5)
    const alarms = [
      new Alarm(this, 'Errors', {
        alarmDescription: `${props.functionId}: unhandled errors (a 500 the handler did not map)`,
        metric: this.function.metricErrors({ period, statistic: 'Sum' }),
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
      new Alarm(this, 'Throttles', {
        alarmDescription: `${props.functionId}: invocations throttled (account or reserved concurrency)`,
        metric: this.function.metricThrottles({ period, statistic: 'Sum' }),
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
      new Alarm(this, 'LatencyP99', {
        alarmDescription: `${props.functionId}: p99 duration above ${P99_LATENCY_MS} ms for 15 minutes (slow dependency, cold starts or a regression)`,
        metric: this.function.metricDuration({ period, statistic: 'p99' }),
        threshold: P99_LATENCY_MS,
        evaluationPeriods: 3,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    ]
    // Every alarm notifies the stage's alarm topic (AlarmsNotify, added by the stack).
    this.alarms = alarms
  }
}
