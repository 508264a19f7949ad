import { execFile, spawnSync } from 'node:child_process'
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApi, type TestApi } from '../../support/api.ts'

/**
 * The typed client as another project gets it (CONTRACT section 20): `npm pack ./client` (which
 * builds dist/ with tsc) and `npm install --offline` of the tarball in a folder of its own, with an
 * empty npm cache and an unreachable registry, so nothing comes from anywhere but the repository.
 * A plain .mjs script run by node imports it, signs every known-answer vector of
 * docs/signing-vectors.json and calls the local server with its ApiClient; a TypeScript file
 * type-checks against its .d.ts.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const pkg = JSON.parse(readFileSync(join(ROOT, 'client/package.json'), 'utf8'))
const vectors = JSON.parse(readFileSync(join(ROOT, 'docs/signing-vectors.json'), 'utf8'))

let dir: string
let app: string
let api: TestApi

/** npm as a user runs it, on the tests' Node, away from any registry and any cache. */
function npm(args: string[], cwd: string) {
  const run = spawnSync('npm', [...args, '--offline', '--no-audit', '--no-fund'], {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      PATH: `${dirname(process.execPath)}:${process.env.PATH}`,
      npm_config_cache: join(dir, 'npm-cache'),
      npm_config_registry: 'http://127.0.0.1:9/',
      npm_config_userconfig: join(dir, 'npmrc'),
    },
  })
  expect(run.status, `npm ${args.join(' ')}\n${run.stdout}\n${run.stderr}`).toBe(0)
  return run.stdout
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'client-package-'))
  app = join(dir, 'app')
  mkdirSync(app)
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }))
  // The repository's client/ as it is, packed from a copy so that its build (prepack: tsc into dist/)
  // never meets another run's in the worktree (the README's block packs client/ itself); the copy
  // sees the repository's node_modules (TypeScript, @types/node) as client/ does.
  const copy = join(dir, 'client')
  cpSync(join(ROOT, 'client'), copy, {
    recursive: true,
    filter: (src) => !src.startsWith(join(ROOT, 'client/dist')),
  })
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'))
  npm(['pack', copy, '--pack-destination', dir], ROOT)
  npm(['install', join(dir, `ng-einvoicing-client-${pkg.version}.tgz`)], app)
  api = await startApi()
}, 180_000)

afterAll(async () => {
  await api?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('@ng-einvoicing/client installed from the repository', () => {
  it("has the service's version, no dependencies, and ships built JavaScript and types only", () => {
    const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
    expect(pkg.version).toBe(root.version)
    expect(pkg.engines).toEqual(root.engines)
    const installed = join(app, 'node_modules/@ng-einvoicing/client')
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'))
    expect(manifest.dependencies ?? {}).toEqual({})
    const files = readdirSync(installed, { recursive: true, encoding: 'utf8' }).sort()
    expect(files).toEqual(expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'dist/signing.js']))
    expect(files.filter((f) => /\.ts$/.test(f) && !/\.d\.ts$/.test(f) && !f.startsWith('examples/'))).toEqual(
      [],
    )
    // What the app's lock file says it came from: the tarball, not a registry.
    const lock = JSON.parse(readFileSync(join(app, 'package-lock.json'), 'utf8'))
    expect(lock.packages['node_modules/@ng-einvoicing/client'].resolved).toMatch(/^file:/)
  })

  it('imports nothing but its own files and node: built-ins', () => {
    const sources = readdirSync(join(ROOT, 'client'), { recursive: true, encoding: 'utf8' }).filter(
      (f) => /\.ts$/.test(f) && !f.startsWith('dist/'),
    )
    const outside = sources.flatMap((file) =>
      ts
        .preProcessFile(readFileSync(join(ROOT, 'client', file), 'utf8'), true, true)
        .importedFiles.map((i) => i.fileName)
        .filter((name) => !name.startsWith('./') && !name.startsWith('../') && !name.startsWith('node:'))
        .map((name) => `${file}: ${name}`),
    )
    expect(sources).toContain('signing.ts')
    expect(outside).toEqual([])
  })

  it('a plain .mjs script signs every vector and calls the local server', async () => {
    writeFileSync(
      join(app, 'use.mjs'),
      `import { ApiClient, signAreaA } from '@ng-einvoicing/client'
import { signAreaB } from '@ng-einvoicing/client/signing'
const [url, file] = process.argv.slice(2)
const { areaA, areaB } = JSON.parse((await import('node:fs')).readFileSync(file, 'utf8'))
const body = (v) => Buffer.from(v.bodyHex, 'hex')
const signatures = {
  ...Object.fromEntries(areaA.map((v) => [v.id, signAreaA({ apiKey: 'k', secret: v.secret },
    { method: v.method, target: v.path, timestamp: v.timestamp, body: body(v) })['x-api-signature']])),
  ...Object.fromEntries(areaB.map((v) => [v.id, signAreaB({ token: 't', secret: v.secret },
    { method: v.method, target: v.path, timestamp: v.timestamp, nonce: v.nonce, body: body(v) })['x-signature']])),
}
const api = new ApiClient(url, { area: 'A', credentials: { apiKey: 'dev-si-key', secret: 'dev-si-secret' } })
const states = await api.get('/api/v1/resource/states')
const sw = new ApiClient(url, { area: 'B', credentials: { token: 'dev-switch-token', secret: 'dev-switch-secret' } })
const balance = await sw.post('/api/v1/transactions/balance-enquiry',
  { requestId: 'REQ-PACKAGE-1', stan: '000001', processingCode: '310000', accountNumber: '0123456789' })
console.log(JSON.stringify({ signatures, states: [states.status, states.body.data.length],
  balance: [balance.status, balance.body.responseCode] }))
`,
    )
    // Asynchronously: the server answers from this process, which a synchronous spawn would block.
    const run = await promisify(execFile)(
      process.execPath,
      ['use.mjs', api.url, join(ROOT, 'docs/signing-vectors.json')],
      { cwd: app, encoding: 'utf8' },
    )
    const out = JSON.parse(run.stdout)
    expect(out.signatures).toEqual(
      Object.fromEntries(
        [...vectors.areaA, ...vectors.areaB].map((v: { id: string; signature: string }) => [
          v.id,
          v.signature,
        ]),
      ),
    )
    expect(out.states).toEqual([200, 37])
    expect(out.balance).toEqual([200, '00'])
  }, 120_000)

  // tsc over the client's 850 KB of generated types takes 15 s on a quiet machine: room under load.
  it('a TypeScript file type-checks against its declarations (and a wrong path does not)', () => {
    writeFileSync(
      join(app, 'use.ts'),
      `import { ApiClient, signAreaA, type ClientReply, type paths } from '@ng-einvoicing/client'
const api = new ApiClient('http://127.0.0.1:3000', { area: 'A', credentials: { apiKey: 'k', secret: 's' } })
export const headers: Record<string, string> = signAreaA({ apiKey: 'k', secret: 's' }, { method: 'GET', target: '/api' })
export const states = async (): Promise<number> => (await api.call('get', '/api/v1/resource/states', {})).status
export const path: keyof paths = '/api/v1/si/validate'
export const wrong: keyof paths = '/api/v1/no-such-path'
export type Reply = ClientReply
`,
    )
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2023',
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: ['node'],
          typeRoots: [join(ROOT, 'node_modules/@types')],
        },
        files: ['use.ts'],
      }),
    )
    const run = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', app], {
      cwd: app,
      encoding: 'utf8',
    })
    // The only error is the deliberate one: everything else resolved and checked.
    expect(run.stdout.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^use\.ts\(6,14\): error TS2322: Type '"\/api\/v1\/no-such-path"' is not assignable/,
      ),
    ])
  }, 120_000)
})
