import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { builtinModules } from 'node:module'
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
  inputs: string[]
}

async function bundle(handler: string): Promise<Built> {
  const file = join(outDir, handler.replaceAll('/', '__').replace(/\.ts$/, '.mjs'))
  const result = await build(esbuildOptionsFor(handler, file))
  const inputs = Object.keys((result.metafile as Metafile).inputs)
  return { file, text: readFileSync(file, 'utf8'), inputs }
}

const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name.replace(/^node:/, '')}`]))

/** The specifiers of the bundle's own top-level `import ... from "x"` statements (minified output). */
const esImportsOf = (text: string) =>
  [...text.matchAll(/(?:^|[;\n])import\s*(?:[\w${},*\s]+from\s*)?["']([^"']+)["']/g)].map((m) => m[1]!)

let hmac: Built
let bearer: Built
beforeAll(async () => {
  ;[hmac, bearer] = await Promise.all([
    bundle('functions/resource/states.ts'),
    bundle('functions/notification/email-list.ts'),
  ])
}, 60_000)

describe('function bundles', () => {
  it('reach Node built-ins through require, never an ES import (which would run their lazy getters)', () => {
    for (const { text } of [hmac, bearer]) {
      const imported = esImportsOf(text)
      // The banner's createRequire is the one ES import of a built-in left, and it is cheap.
      expect(imported).toEqual(['module'])
      expect(imported.filter((s) => builtins.has(s) && s !== 'module')).toEqual([])
    }
  })

  it('carry the Encryption SDK only where a stored secret is opened (HMAC schemes), not for bearer tokens', () => {
    const esdk = (b: Built) => b.inputs.some((input) => input.includes('node_modules/@aws-crypto/'))
    expect(esdk(hmac)).toBe(true)
    expect(esdk(bearer)).toBe(false)
  })

  it('load in Node and export the handler', () => {
    for (const { file } of [hmac, bearer]) {
      const run = spawnSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const m = await import(${JSON.stringify(pathToFileURL(file).href)}); process.stdout.write(typeof m.handler)`,
        ],
        {
          env: { PATH: process.env.PATH, TABLE_NAME: 'bundle-test', AWS_REGION: 'eu-west-1' },
          encoding: 'utf8',
        },
      )
      expect(run.stderr).toBe('')
      expect(run.stdout).toBe('function')
    }
  })
})
