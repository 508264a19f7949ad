import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build, type Metafile } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { projectFile } from '#lib/platform/http/route.ts'
import { routes } from '#lib/service/routes.ts'
import { esbuildOptionsFor } from '../../infra/constructs/api-function.ts'
import { send, startApi, type TestApi } from '../support/api.ts'

/**
 * The OpenAPI document and the docs page as Lambda serves them: each function bundled with the
 * construct's own settings, the docs function with the route table's `files` copied beside it (as
 * the construct's afterBundling hook does), invoked with an API Gateway event, and held to what the
 * local server serves for the same host.
 */
const outDir = mkdtempSync(join(tmpdir(), 'docs-bundle-'))
let api: TestApi
const bundles: Record<string, { file: string; inputs: string[] }> = {}

async function bundle(functionId: string) {
  const route = routes.find((r) => r.functionId === functionId)!
  const dir = join(outDir, functionId)
  mkdirSync(dir)
  const file = join(dir, 'index.mjs')
  const result = await build(esbuildOptionsFor(route.handler, file))
  for (const asset of route.files ?? []) copyFileSync(projectFile(asset), join(dir, asset.split('/').pop()!))
  bundles[functionId] = { file, inputs: Object.keys((result.metafile as Metafile).inputs) }
}

/** Invokes a bundled handler in a fresh Node, as Lambda would, with a GET event for `path`. */
function invoke(functionId: string, path: string, host: string) {
  const event = {
    version: '2.0',
    routeKey: `GET ${path}`,
    rawPath: path,
    rawQueryString: '',
    headers: { host, 'x-forwarded-proto': 'http' },
    isBase64Encoded: false,
    requestContext: { requestId: 'r-1', domainName: host, http: { method: 'GET', path } },
  }
  const snippet = `const m = await import(${JSON.stringify(pathToFileURL(bundles[functionId]!.file).href)});
    const reply = await m.handler(${JSON.stringify(event)}, { awsRequestId: 'r-1' });
    process.stdout.write('\\n@@REPLY@@' + JSON.stringify(reply))`
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', snippet], {
    env: {
      PATH: process.env.PATH,
      AWS_REGION: 'eu-west-1',
      TABLE_NAME: 'docs-bundle-test',
      LOG_LEVEL: 'SILENT',
    },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
  expect(run.stderr).toBe('')
  // The function's own log lines come first; the reply is after the marker.
  return JSON.parse(run.stdout.split('@@REPLY@@')[1]!) as {
    statusCode: number
    headers: Record<string, string>
    body: string
  }
}

beforeAll(async () => {
  await Promise.all([bundle('openapi'), bundle('docs')])
  api = await startApi()
}, 120_000)
afterAll(async () => {
  rmSync(outDir, { recursive: true, force: true })
  await api?.close()
})

describe('the published contract in Lambda', () => {
  it('serves the same OpenAPI document as the local server', async () => {
    const host = new URL(api.url).host
    const lambda = invoke('openapi', '/api/openapi.json', host)
    const local = await send(`${api.url}/api/openapi.json`)
    expect(lambda.statusCode).toBe(200)
    expect(JSON.parse(lambda.body)).toEqual(local.body)
  })

  it('serves the same docs page, its renderer read from the file beside the bundle', async () => {
    const host = new URL(api.url).host
    const lambda = invoke('docs', '/api/docs', host)
    const local = await send(`${api.url}/api/docs`)
    expect(lambda.statusCode).toBe(200)
    expect(lambda.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(lambda.body === local.text, 'the Lambda page differs from the local one').toBe(true)
  })

  it('keeps the renderer out of every bundle: the docs function carries the document, not Redoc', () => {
    expect(bundles.docs!.inputs.filter((input) => input.includes('node_modules/redoc'))).toEqual([])
    const size = statSync(bundles.docs!.file).size
    // The factory and the page; Redoc's 0.9 MB bundle and the document stay files beside it.
    expect(size).toBeLessThan(600_000)
  })
})
