import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { esbuildOptionsFor } from '../../infra/constructs/api-function.ts'
import { NO_JSON_SCHEMA } from '../../infra/constructs/bundle-plugins.ts'

/**
 * What infra/constructs/bundle-plugins.ts leaves out of the bundles (zod's JSON Schema, the SDK
 * clients' package.json but for the version), on a module bundled with the functions' settings: out
 * of the bundle, and what the functions run still works.
 */

const dir = mkdtempSync(join(tmpdir(), 'bundle-plugins-'))
const file = join(dir, 'index.mjs')
/** A function's bundle, where the plugins' cuts are measured (bench/bundle-contents.ts). */
const functionFile = join(dir, 'function.mjs')
let text: string
let functionText: string
beforeAll(async () => {
  await build({ ...esbuildOptionsFor('test/fixtures/bundles/zod-and-sdk.ts', file), sourcemap: false })
  await build({ ...esbuildOptionsFor('functions/invoice/si-validate.ts', functionFile), sourcemap: false })
  text = readFileSync(file, 'utf8')
  functionText = readFileSync(functionFile, 'utf8')
}, 120_000)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Runs `snippet` with the bundle's exports as `m`; what it writes to stdout. */
function run(snippet: string) {
  const script = `const m = await import(${JSON.stringify(pathToFileURL(file).href)}); ${snippet}`
  const out = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { PATH: process.env.PATH, AWS_REGION: 'eu-west-1' },
    encoding: 'utf8',
  })
  return { stdout: out.stdout, stderr: out.stderr }
}

describe('the bundle plugins', () => {
  it("leave zod's JSON Schema out, and zod still validates", () => {
    // Messages of zod's JSON Schema conversion (zod/v4/core/to-json-schema.js, json-schema-processors.js).
    expect(functionText).not.toContain('Error converting schema to JSON')
    expect(functionText).not.toContain('BigInt cannot be represented in JSON Schema')
    const out = run(
      `process.stdout.write(JSON.stringify([m.parses({ name: 'a', count: 1 }), m.parses({ name: '', count: 1 }), m.parses({ name: 'a', count: 1.5 })]))`,
    )
    expect(out.stdout, out.stderr).toBe('[true,false,false]')
  })

  it('make a JSON Schema call fail with a message that says why', () => {
    const out = run(
      `try { m.jsonSchema(); process.stdout.write('made') } catch (e) { process.stdout.write(e.message) }`,
    )
    expect(out.stdout, out.stderr).toBe(NO_JSON_SCHEMA)
  })

  it("leave an SDK client's package.json out but for the version its user agent carries", () => {
    const { version, homepage } = JSON.parse(
      readFileSync(join(process.cwd(), 'node_modules/@aws-sdk/client-dynamodb/package.json'), 'utf8'),
    ) as { version: string; homepage: string }
    expect(functionText).not.toContain(homepage)
    expect(text).not.toContain(homepage)
    const out = run(`process.stdout.write(await m.userAgent())`)
    expect(out.stdout, out.stderr).toContain(`api/DynamoDB/${version}`)
  })
})
