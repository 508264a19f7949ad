import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { esbuildOptionsFor } from '../../infra/constructs/api-function.ts'
import { errorsOfCommand, NO_JSON_SCHEMA, SENT_COMMANDS } from '../../infra/constructs/bundle-plugins.ts'

/**
 * What infra/constructs/bundle-plugins.ts leaves out of the bundles (zod's JSON Schema, the SDK
 * clients' package.json but for the version, the errors of commands no function sends), on a module bundled with the functions' settings: out
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
  await build({
    ...esbuildOptionsFor('functions/invoice/app-invoice-sign.ts', functionFile),
    sourcemap: false,
  })
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

  it('leave out the SDK errors of commands no function sends, and keep those of the commands sent', () => {
    // The function's bundle sends DynamoDB, KMS (the keyring) and Secrets Manager (the signing key).
    const kept = Object.entries(SENT_COMMANDS).flatMap(([client, commands]) => {
      const dir = join(process.cwd(), 'node_modules/@aws-sdk', `client-${client}`)
      return commands.flatMap((c) => errorsOfCommand(dir, c))
    })
    expect(kept).toContain('ConditionalCheckFailedException')
    expect(kept.filter((error) => !functionText.includes(`"${error}"`))).toEqual([])
    const dropped = [
      'TableNotFoundException', // DynamoDB's RestoreTableFromBackup, UpdateContinuousBackups...
      'XksProxyUriInUseException', // KMS's CreateCustomKeyStore
      'ResourceExistsException', // Secrets Manager's CreateSecret
    ]
    expect(dropped.filter((error) => functionText.includes(error))).toEqual([])
  })

  it('throw every error of a sent command as its class, and any other by its name', () => {
    const out = run(`
      const describe = (e) => ({ name: e.name, message: e.message, fault: e.$fault,
        modelled: e instanceof m.ConditionalCheckFailedException, service: e instanceof m.DynamoDBServiceException })
      process.stdout.write(JSON.stringify([
        describe(await m.getItemError('ConditionalCheckFailedException')),
        describe(await m.getItemError('TableNotFoundException')),
      ]))`)
    expect(JSON.parse(out.stdout || 'null'), out.stderr).toEqual([
      {
        name: 'ConditionalCheckFailedException',
        message: 'a ConditionalCheckFailedException',
        fault: 'client',
        modelled: true,
        service: true,
      },
      // Not an error GetItem can return; were it to come, the project's checks (by name) still see it.
      {
        name: 'TableNotFoundException',
        message: 'a TableNotFoundException',
        fault: 'client',
        modelled: false,
        service: true,
      },
    ])
  })
})

/** The project's modules that run in a function: lib/, functions/ and the bundles' shims. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.(ts|mjs)$/.test(name) ? [path] : []
  })
}

/** lib-dynamodb's commands, by the DynamoDB operation each sends. */
const DOCUMENT_COMMANDS: Record<string, string> = {
  Get: 'GetItem',
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  Query: 'Query',
  Scan: 'Scan',
  BatchGet: 'BatchGetItem',
  BatchWrite: 'BatchWriteItem',
  TransactGet: 'TransactGetItems',
  TransactWrite: 'TransactWriteItems',
}

describe('SENT_COMMANDS', () => {
  // What each module imports (not as a type) from a client whose errors the plugin trims.
  const imports = ['lib', 'functions', 'infra/constructs/shims'].flatMap(sourceFiles).flatMap((file) =>
    [
      ...readFileSync(file, 'utf8').matchAll(
        /^import \{([^}]*)\} from '[^']*@aws-sdk\/(client-kms|client-secrets-manager|client-dynamodb|lib-dynamodb)\b[^']*'/gm,
      ),
    ].flatMap(([, names, pkg]) =>
      names!
        .split(',')
        .map((n) => n.trim())
        .filter((n) => n !== '' && !n.startsWith('type '))
        .map((name) => ({ file, pkg: pkg!, name })),
    ),
  )

  it('names every command the functions import', () => {
    const sent = imports.flatMap(({ pkg, name }) => {
      const command = /^(\w+)Command$/.exec(name)?.[1]
      if (!command) return []
      if (pkg === 'lib-dynamodb') return [`dynamodb ${DOCUMENT_COMMANDS[command] ?? command}`]
      return [`${pkg.replace('client-', '')} ${command}`]
    })
    expect(sent.length).toBeGreaterThan(0)
    const listed = Object.entries(SENT_COMMANDS).flatMap(([client, commands]) =>
      commands.map((c) => `${client} ${c}`),
    )
    expect([...new Set(sent)].filter((command) => !listed.includes(command))).toEqual([])
  })

  it('is never bypassed by an error class the functions import (they tell SDK errors by name)', () => {
    expect(imports.filter(({ name }) => /(Exception|Error|Failure|Exceeded)$/.test(name))).toEqual([])
  })
})
