import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { consumers } from '#lib/service/consumers.ts'
import { functionsOf, routes, UNROUTED } from '#lib/service/routes.ts'
import {
  chunkOptions,
  EN16931_CHUNK,
  esbuildOptionsFor,
  needsEn16931Chunk,
  needsUblInChunk,
  UBL_IN_CHUNK,
  ublInChunkOptions,
} from '../../infra/constructs/api-function.ts'

/**
 * The Lambda bundles of every function of a stage, the API's and the consumers', built as `cdk synth`
 * builds them (esbuildOptionsFor is the construct's own bundling: same entry, aliases, shims, banner,
 * minification), one directory per function with its `index.mjs` as in the deployed asset.
 * `npm start -- --bundles` and the test run with API_BUNDLES=1 serve the API and run the stream and
 * queue consumers from these instead of the TypeScript sources.
 */

/** functionId -> handler module: every API function, the catch-all, and every consumer. */
export function bundledFunctions(): Map<string, string> {
  const handlers = new Map<string, string>()
  for (const [functionId, served] of functionsOf(routes)) handlers.set(functionId, served[0]!.handler)
  handlers.set(UNROUTED.functionId, UNROUTED.handler)
  for (const c of consumers) handlers.set(c.functionId, c.handler)
  return handlers
}

/** Where a function's bundle is, under the directory buildBundles wrote. */
export const bundleFile = (dir: string, functionId: string) => join(dir, functionId, 'index.mjs')

/** functionId -> the bundle file to run for it. */
export type BundleMap = Record<string, string>

/**
 * Builds every function's bundle into `dir` (a few at a time: esbuild is quick, the machine small).
 * Used when no `cdk synth` output is at hand.
 */
export async function buildBundles(dir: string): Promise<BundleMap> {
  const queue = [...bundledFunctions()]
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [functionId, handler] = next
      mkdirSync(join(dir, functionId), { recursive: true })
      await build(esbuildOptionsFor(handler, bundleFile(dir, functionId)))
      // The UBL in chunk beside the bundles of the functions that take XML, as the construct builds it.
      const consumer = consumers.find((c) => c.functionId === functionId)
      const served = routes.filter((r) => r.handler === handler)
      if (consumer?.takesXml || needsUblInChunk(served))
        await build(ublInChunkOptions(join(dir, functionId, UBL_IN_CHUNK.file)))
      // The EN 16931 chunk beside the bundles of the validate functions, likewise.
      if (needsEn16931Chunk(served))
        await build(chunkOptions(EN16931_CHUNK, join(dir, functionId, EN16931_CHUNK.file)))
    }
  }
  await Promise.all([worker(), worker(), worker(), worker()])
  return Object.fromEntries([...bundledFunctions().keys()].map((id) => [id, bundleFile(dir, id)]))
}

/**
 * The bundles a `cdk synth` wrote into its cloud assembly (`cdk.out`): each function of every stack
 * in it (the edge, the area stacks, and any nested stack), found by its Description, which ends with
 * its functionId, and the asset directory it deploys.
 */
export function bundlesFromCloudAssembly(cdkOut: string): BundleMap {
  const manifest = JSON.parse(readFileSync(join(cdkOut, 'manifest.json'), 'utf8')) as {
    artifacts: Record<string, { type: string; properties?: { templateFile?: string } }>
  }
  const templates = Object.values(manifest.artifacts)
    .filter((a) => a.type === 'aws:cloudformation:stack')
    .map((a) => a.properties?.templateFile ?? '')
    .filter(Boolean)
  // A nested stack's template is an asset of its parent, written beside the stacks' own.
  templates.push(...readdirSync(cdkOut).filter((file) => file.endsWith('.nested.template.json')))
  const wanted = bundledFunctions()
  const found: BundleMap = {}
  for (const templateFile of templates) {
    const template = JSON.parse(readFileSync(join(cdkOut, templateFile), 'utf8')) as {
      Resources: Record<
        string,
        { Type: string; Properties: { Description?: string }; Metadata?: Record<string, string> }
      >
    }
    for (const resource of Object.values(template.Resources)) {
      if (resource.Type !== 'AWS::Lambda::Function') continue
      const functionId = resource.Properties.Description?.split(' ').pop() ?? ''
      const asset = resource.Metadata?.['aws:asset:path']
      if (wanted.has(functionId) && asset) found[functionId] = join(cdkOut, asset, 'index.mjs')
    }
  }
  const missing = [...wanted.keys()].filter((id) => !found[id] || !existsSync(found[id]))
  if (missing.length > 0) {
    throw new Error(`${cdkOut} has no bundle for ${missing.join(', ')}: run \`npx cdk synth\` first`)
  }
  return found
}

/**
 * The bundles in `dir`: a cloud assembly (`cdk.out`, with its manifest) or a directory buildBundles
 * wrote (one folder per functionId). What a process started beside a server running from bundles
 * (scripts/local/run-workers.ts, invoke.ts) runs, so it runs what the server runs.
 */
export function bundlesIn(dir: string): BundleMap {
  if (existsSync(join(dir, 'manifest.json'))) return bundlesFromCloudAssembly(dir)
  const found: BundleMap = {}
  for (const functionId of bundledFunctions().keys()) {
    if (existsSync(bundleFile(dir, functionId))) found[functionId] = bundleFile(dir, functionId)
  }
  return found
}

/**
 * The environment Lambda gives a function that the bundles rely on: credentials in the environment
 * (the bundles' only credential source: infra/constructs/lambda-credentials.ts) and the runtime's
 * own variables. Values already set win; the credentials are placeholders that DynamoDB Local accepts
 * and that keep a developer's AWS profile out of it.
 */
export function lambdaEnvironment(): void {
  // Local key files (no KMS, no Secrets Manager locally) are found relative to the module that reads
  // them, which in a bundle is the bundle: point the bundles at the ones the sources and seed use.
  process.env.KEYS_DIR ??= fileURLToPath(new URL('../../.local/keys', import.meta.url))
  process.env.AWS_ACCESS_KEY_ID ??= 'local'
  process.env.AWS_SECRET_ACCESS_KEY ??= 'local'
  process.env.AWS_LAMBDA_INITIALIZATION_TYPE ??= 'on-demand'
  process.env.AWS_EXECUTION_ENV ??= 'AWS_Lambda_nodejs22.x'
}
