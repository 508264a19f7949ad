import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build, type Metafile } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { esbuildOptionsFor } from '../../infra/constructs/api-function.ts'

/**
 * The bundles Lambda runs, built with the construct's own settings: what goes into them decides the
 * cold start (bench/cold-start.ts measures it; these tests hold the choices that made it smaller).
 */

const outDir = mkdtempSync(join(tmpdir(), 'bundles-'))
afterAll(() => rmSync(outDir, { recursive: true, force: true }))

interface Built {
  file: string
  text: string
  /** Every file esbuild read, tree-shaken or not. */
  inputs: string[]
  /** The files with code in the bundle. */
  bundled: string[]
}

async function bundle(handler: string): Promise<Built> {
  const file = join(outDir, handler.replaceAll('/', '__').replace(/\.ts$/, '.mjs'))
  const result = await build(esbuildOptionsFor(handler, file))
  const metafile = result.metafile as Metafile
  const inputs = Object.keys(metafile.inputs)
  const bundled = Object.values(metafile.outputs).flatMap((output) =>
    Object.entries(output.inputs)
      .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
      .map(([input]) => input),
  )
  return { file, text: readFileSync(file, 'utf8'), inputs, bundled }
}

/** The specifiers of the bundle's own top-level `import ... from "x"` statements (minified output). */
const esImportsOf = (text: string) =>
  [...text.matchAll(/(?:^|[;\n])import\s*(?:[\w${},*\s]+from\s*)?["']([^"']+)["']/g)].map((m) => m[1]!)

/** Runs `node` on a snippet that imports the bundle as `m`; stdout and stderr as text. */
function runWith(file: string, snippet: string, env: NodeJS.ProcessEnv) {
  const load = `const m = await import(${JSON.stringify(pathToFileURL(file).href)});`
  return spawnSync(process.execPath, ['--input-type=module', '-e', `${load} ${snippet}`], {
    env: { PATH: process.env.PATH, AWS_REGION: 'eu-west-1', ...env },
    encoding: 'utf8',
  })
}

/** The reply of the bundle's handler to an HTTP API event for `method path` (routeKey: `routeKey`). */
function invoke(file: string, method: string, path: string, routeKey = `${method} ${path}`) {
  const event = {
    version: '2.0',
    routeKey,
    rawPath: path,
    rawQueryString: '',
    headers: {},
    isBase64Encoded: false,
    requestContext: { requestId: 'bundle-test', http: { method, path } },
  }
  const snippet = `const reply = await m.handler(${JSON.stringify(event)}, { awsRequestId: 'bundle-test' });
    process.stdout.write('\\nREPLY ' + JSON.stringify(reply))`
  const run = runWith(file, snippet, { TABLE_NAME: 'bundle-test' })
  const line = run.stdout.split('\n').find((l) => l.startsWith('REPLY '))
  if (!line) throw new Error(`no reply from ${file}:\n${run.stderr}`)
  return JSON.parse(line.slice('REPLY '.length)) as {
    statusCode: number
    headers?: Record<string, string>
    body: string
  }
}

let hmac: Built
let bearer: Built
let credentials: Built
let catchAll: Built
let qr: Built
let validateOnly: Built
let moneyShown: Built[]
beforeAll(async () => {
  moneyShown = await Promise.all(
    [
      'functions/lifecycle/app-invoice-transmit.ts',
      'functions/documents/invoice-pdf.ts',
      'functions/invoice-search/invoice-search.ts',
      'functions/sandbox/test-clock-advance.ts',
    ].map(bundle),
  )
  ;[hmac, bearer, credentials, catchAll, qr, validateOnly] = await Promise.all([
    bundle('functions/reference/resource-states.ts'),
    bundle('functions/notifications/notification-email-list.ts'),
    bundle('test/fixtures/bundles/credentials.ts'),
    bundle('functions/meta/unrouted.ts'),
    bundle('functions/qr/resource-verify-qr.ts'),
    bundle('functions/invoice/si-validate.ts'),
  ])
}, 120_000)

describe('function bundles', () => {
  it('reach Node built-ins through require, never an ES import (which would run their lazy getters)', () => {
    for (const { text } of [hmac, bearer]) {
      const imported = esImportsOf(text)
      // The banner's createRequire is the one ES import of a built-in left, and it is cheap.
      expect(imported).toEqual(['module'])
    }
  })

  it('carry the Encryption SDK only where a stored secret is opened (HMAC schemes), not for bearer tokens', () => {
    const esdk = (b: Built) => b.inputs.some((input) => input.includes('node_modules/@aws-crypto/'))
    expect(esdk(hmac)).toBe(true)
    expect(esdk(bearer)).toBe(false)
    // Nor the decryptor's client module, which runs a decrypt stream when it loads (shims/decrypt-node.mjs).
    expect(
      hmac.inputs.filter((input) => input.includes('decrypt-node/build/module/src/decrypt_client')),
    ).toEqual([])
  })

  it('load in Node and export the handler', () => {
    for (const { file } of [hmac, bearer]) {
      const run = runWith(file, 'process.stdout.write(typeof m.handler)', { TABLE_NAME: 'bundle-test' })
      expect(run.stderr).toBe('')
      expect(run.stdout).toBe('function')
    }
  })

  it('carry no AWS SDK event-stream codec (no operation they call has an event stream), and the stand-in says so if one is ever needed', async () => {
    for (const { inputs } of [hmac, bearer, catchAll]) {
      expect(
        inputs.filter((input) => input.includes('@smithy/core/dist-es/submodules/event-streams/')),
      ).toEqual([])
    }
    // Plain JavaScript, like the other shims: imported by a path the type checker does not follow.
    const shim = '../../infra/constructs/shims/event-streams.mjs'
    const standIn = (await import(shim)) as { EventStreamSerde: new () => unknown }
    expect(() => new standIn.EventStreamSerde()).toThrow(/event streams are not bundled/)
  })

  it('carry decimal.js only with the invoice rules: money moved or shown is converted by lib/platform/money.ts', () => {
    const decimal = (b: Built) => b.bundled.filter((input) => input.includes('node_modules/decimal.js/'))
    for (const b of moneyShown) expect(decimal(b), b.file).toEqual([])
    expect(decimal(validateOnly)).not.toEqual([])
  })

  it("carry Node's own streams for the Encryption SDK, not readable-stream (shims/readable-stream.mjs)", () => {
    expect(hmac.bundled.filter((input) => input.includes('node_modules/readable-stream/'))).toEqual([])
  })

  it('carry no signing key code where nothing is signed (si/validate): the sign handlers pass the signer', () => {
    const signing = validateOnly.bundled.filter((input) =>
      /lib\/signing\/|@aws-sdk\/client-secrets-manager/.test(input),
    )
    expect(signing).toEqual([])
  })

  it('carry their own routes, taken from the route table when built, not the whole table', () => {
    for (const { inputs } of [hmac, bearer]) expect(inputs).not.toContain('lib/service/routes.ts')
    // Its own route is found: the request gets as far as authentication (no credentials: 401).
    const own = invoke(hmac.file, 'GET', '/api/v1/resource/states')
    expect(own.statusCode).toBe(401)
    expect(JSON.parse(own.body)).toMatchObject({ message: expect.stringContaining('x-api-key') })
    // Another function's route cannot reach it in AWS: if it did, a build mistake, a logged 500.
    const other = invoke(hmac.file, 'GET', '/api/v1/resource/countries')
    expect(other.statusCode).toBe(500)
    expect(other.body).toContain('An unexpected error occurred')
  })

  it("give the catch-all every route's method and path as data, which answers 405 with the methods a path allows", () => {
    // The table is written into its bundle when it is built: no other declaration, schema or docs ride along.
    expect(catchAll.inputs).toContain('<define:ROUTE_TABLE>')
    expect(catchAll.inputs).not.toContain('lib/service/routes.ts')
    expect(catchAll.inputs.filter((input) => input.startsWith('lib/service/endpoints/'))).toEqual([
      'lib/service/endpoints/meta.ts',
    ])
    const reply = invoke(catchAll.file, 'DELETE', '/api/v1/resource/states', '$default')
    expect(reply.statusCode).toBe(405)
    expect(reply.headers?.allow).toBe('GET')
  })

  it("load without running node:util's lazy parts (parseArgs, diff, workers: milliseconds of every cold start)", () => {
    // A named ES import from node:util makes the bundle copy the module's properties when it loads,
    // which loads them all. The QR functions had one (lib/qr/authority-key.ts).
    const snippet =
      'process.stdout.write(JSON.stringify(process.moduleLoadList.filter((m) => /parse_args|worker_threads/.test(m))))'
    for (const { file } of [hmac, bearer, qr]) {
      const run = runWith(file, snippet, { TABLE_NAME: 'bundle-test' })
      expect(run.stderr).toBe('')
      expect(JSON.parse(run.stdout)).toEqual([])
    }
  })

  it('map stack traces to the TypeScript sources, from a map that leaves the sources out', () => {
    const map = JSON.parse(readFileSync(`${credentials.file}.map`, 'utf8')) as { sourcesContent?: unknown }
    expect(map.sourcesContent).toBeUndefined()
    // As Lambda runs it (NODE_OPTIONS=--enable-source-maps), a failure points at the .ts line.
    const failed = runWith(credentials.file, 'await m.resolvedAccessKeyId()', {
      HOME: outDir,
      NODE_OPTIONS: '--enable-source-maps',
    })
    expect(failed.status).not.toBe(0)
    expect(failed.stderr).toMatch(/test\/fixtures\/bundles\/credentials\.ts:\d+:\d+/)
  })

  it("take the AWS SDK's credentials from the environment only, as Lambda provides them", () => {
    // The SDK's default chain, with its STS and SSO clients, is not in the bundle.
    for (const { inputs } of [hmac, bearer, credentials]) {
      expect(inputs.filter((input) => /credential-provider-node|nested-clients/.test(input))).toEqual([])
    }
    const snippet = 'process.stdout.write(await m.resolvedAccessKeyId())'
    const withRole = runWith(credentials.file, snippet, {
      AWS_ACCESS_KEY_ID: 'AKIDBUNDLETEST',
      AWS_SECRET_ACCESS_KEY: 'not-a-secret',
      AWS_SESSION_TOKEN: 'not-a-token',
    })
    expect(withRole.stderr).toBe('')
    expect(withRole.stdout).toBe('AKIDBUNDLETEST')
    // Without them nothing else is tried (no profile, no metadata service): a clear refusal.
    const without = runWith(credentials.file, snippet, { HOME: outDir })
    expect(without.status).not.toBe(0)
    expect(without.stderr).toContain('Unable to find environment variable credentials')
  })
})
