import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { startDynamoDbLocal } from '../scripts/local/dynamodb-local.ts'
import { ASSERTION_COUNTS } from './support/assertion-counts-file.ts'

declare module 'vitest' {
  interface ProvidedContext {
    dynamoEndpoint: string
    /** With API_BUNDLES: the Lambda bundle of each function, which the test API serves instead of the sources. */
    bundles: Record<string, string> | undefined
    /**
     * With API_BUNDLES=<cdk.out>: each function's grants read from that synth's templates, which the
     * local IAM guard holds it to (scripts/local/iam.ts); otherwise the sources' own derivation.
     */
    grants: Record<string, import('#lib/platform/iam/access.ts').Access> | undefined
  }
}

/**
 * One DynamoDB Local for the whole test run (about 3 s to start), stopped when the run ends. Each test
 * file has a database of its own in it (test/support/api.ts, lib/platform/db/local.ts): in one shared database
 * every write scans all the stream records of the run, and the files that run last crawled.
 */
export default async function setup(project: TestProject) {
  // Each run counts its own assertions (test/support/assertion-count.ts).
  rmSync(ASSERTION_COUNTS, { force: true })
  // API_BUNDLES=cdk.out: the bundles a `cdk synth` wrote there (CI); API_BUNDLES=1: built once for
  // the run as cdk synth builds them (scripts/local/bundles.ts).
  let bundlesDir: string | undefined
  let bundles: Record<string, string> | undefined
  let grants: Record<string, import('#lib/platform/iam/access.ts').Access> | undefined
  const wanted = process.env.API_BUNDLES
  if (wanted) {
    const { buildBundles, bundlesFromCloudAssembly } = await import('../scripts/local/bundles.ts')
    if (wanted === '1') {
      bundlesDir = mkdtempSync(join(tmpdir(), 'api-bundles-'))
      bundles = await buildBundles(bundlesDir)
    } else {
      bundles = bundlesFromCloudAssembly(wanted)
      const { grantsFromCloudAssembly } = await import('../scripts/local/cloud-grants.ts')
      const { accessOfFunctions } = await import('#lib/service/function-access.ts')
      grants = Object.fromEntries(grantsFromCloudAssembly(wanted, accessOfFunctions().keys()))
    }
  }
  project.provide('bundles', bundles)
  project.provide('grants', grants)
  const dynamo = await startDynamoDbLocal({ heapMb: 768, separateDatabases: true })
  project.provide('dynamoEndpoint', dynamo.endpoint)
  return async () => {
    await dynamo.stop()
    if (bundlesDir) rmSync(bundlesDir, { recursive: true, force: true })
  }
}
