import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Stack } from 'aws-cdk-lib'
import { Template } from 'aws-cdk-lib/assertions'
import { Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda'
import { afterAll, describe, expect, it } from 'vitest'
import { cdkApp } from '../support/cdk-app.ts'
import { functionCode } from '../../infra/constructs/api-function.ts'

/**
 * Each function's code is its own bundle. CDK caches a bundling within a synth by the asset's source
 * and bundling options; every function's source is the project root, so the options must tell them
 * apart, or every function deploys the first one's bundle (as a synth did, once).
 */

const outdir = mkdtempSync(join(tmpdir(), 'function-code-'))
afterAll(() => rmSync(outdir, { recursive: true, force: true }))

describe('functionCode (infra/constructs/api-function.ts)', () => {
  it('gives two functions in one synth each its own bundle, holding its own handler', () => {
    const app = cdkApp({ outdir })
    const stack = new Stack(app, 'FunctionCode')
    const handlers = { Openapi: 'functions/meta/openapi.ts', Docs: 'functions/meta/docs.ts' }
    for (const [id, handler] of Object.entries(handlers))
      new LambdaFunction(stack, id, {
        runtime: Runtime.NODEJS_22_X,
        handler: 'index.handler',
        code: functionCode({ handler, chunks: [], files: [] }),
      })
    const assembly = app.synth()
    const functions = Template.fromStack(stack).findResources('AWS::Lambda::Function')
    const keys = Object.values(functions).map((f) => f.Properties.Code.S3Key as string)
    expect(new Set(keys).size).toBe(2)
    // Each asset's bundle is its handler's: the docs page's HTML is in the docs function only.
    const bundleOf = (key: string) =>
      readFileSync(join(assembly.directory, `asset.${key.replace(/\.zip$/, '')}`, 'index.mjs'), 'utf8')
    const [openapi, docs] = Object.entries(functions)
      .sort(([a], [b]) => (a.startsWith('Openapi') ? -1 : b.startsWith('Openapi') ? 1 : 0))
      .map(([, f]) => bundleOf(f.Properties.Code.S3Key))
    expect(openapi).not.toEqual(docs)
  }, 120_000)
})
