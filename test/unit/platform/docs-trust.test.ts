import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { QUEUE_URL_ENV } from '#lib/platform/async/queue.ts'
import { SECRET_ENV } from '#lib/platform/iam/access.ts'
import { buildOpenApiDocument } from '#lib/service/openapi/document.ts'
import { settingPaths } from '../../../infra/settings.ts'

/**
 * What a newcomer reads first agrees with the code (issue 34's "docs a newcomer can trust"): every
 * section of the contract the code and docs cite is in docs/CONTRACT.md; the README asks for the Node
 * that package.json's `engines` does; the version is one (package.json, the OpenAPI document, the
 * health check's default, the client package) and CHANGELOG.md has an entry for it;
 * docs/configuration.md names every environment variable the code, the benchmarks and the tests read,
 * and every setting of a stage's file (infra/settings.ts).
 */
const root = resolve(import.meta.dirname, '../../..')
const read = (path: string) => readFileSync(join(root, path), 'utf8')
const pkg = JSON.parse(read('package.json')) as { version: string; engines: { node: string } }

function filesUnder(folder: string, ending: RegExp): string[] {
  return readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && ending.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
}

const CODE_FOLDERS = ['lib', 'functions', 'scripts', 'infra']
const codeFiles = CODE_FOLDERS.flatMap((folder) => filesUnder(folder, /\.ts$/))
/** Everything that reads the environment: the service, its scripts, the client, benchmarks and tests. */
const envReaders = [
  ...codeFiles,
  ...['client', 'bench', 'test'].flatMap((folder) => filesUnder(folder, /\.ts$/)),
]

describe('docs a newcomer can trust', () => {
  it('has every contract section the code, the CLI and the docs cite in docs/CONTRACT.md', () => {
    const sections = new Set(
      [...read('docs/CONTRACT.md').matchAll(/^## (\d+)\./gm)].map((match) => Number(match[1])),
    )
    const citing = [...codeFiles, ...filesUnder('docs', /\.md$/), join(root, 'README.md')]
    const missing: string[] = []
    for (const file of citing) {
      const text = readFileSync(file, 'utf8')
      // "CONTRACT 17", "CONTRACT section 5", "CONTRACT sections 4 and 11", "CONTRACT.md section 2"
      for (const match of text.matchAll(/CONTRACT(?:\.md)?,? (?:sections? )?(\d+(?:(?:, | and | or )\d+)*)/g))
        for (const n of match[1]!.split(/, | and | or /).map(Number))
          if (!sections.has(n)) missing.push(`${file.slice(root.length + 1)}: section ${n}`)
    }
    expect(sections.size).toBeGreaterThanOrEqual(22)
    expect(missing).toEqual([])
  })

  it("asks in the README for the Node that package.json's engines names", () => {
    // The lowest version the range admits (`^22.12.0 || ...`), as major.minor.
    const engines = /(\d+)\.(\d+)/.exec(pkg.engines.node)
    const readme = /\*\*Prerequisites:\*\* Node\.js (\d+(?:\.\d+)?) or newer/.exec(read('README.md'))
    expect(readme, 'the README names its Node prerequisite as "Node.js N.M or newer"').not.toBeNull()
    expect(readme![1]).toBe(`${engines![1]}.${engines![2]}`)
  })

  it('has one version: package.json, the client package, the OpenAPI document and a CHANGELOG.md entry', () => {
    expect((buildOpenApiDocument() as { info: { version: string } }).info.version).toBe(pkg.version)
    // The client package (client/package.json) is released with the API, at its version.
    expect(JSON.parse(read('client/package.json')).version).toBe(pkg.version)
    expect(JSON.parse(read('openapi.json')).info.version).toBe(pkg.version)
    expect(read('CHANGELOG.md')).toContain(`## [${pkg.version}]`)
  })

  it('names in docs/configuration.md every environment variable the code reads', () => {
    const documented = read('docs/configuration.md')
    const read_ = new Set<string>()
    for (const file of envReaders) {
      if (file.includes('/client/dist/')) continue // the client's build output (gitignored)
      const source = readFileSync(file, 'utf8')
      for (const match of source.matchAll(/\benv(?:\.|\[['"])([A-Z][A-Z0-9_]+)/g)) read_.add(match[1]!)
      // A file that reads a variable by a computed name (`process.env[OPTIONS[name]]`, the smoke
      // test's) holds the names in a table of its own: its UPPER_SNAKE string literals.
      if (/\bprocess\.env\[(?!['"])/.test(source))
        for (const match of source.matchAll(/['"]([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)['"]/g)) read_.add(match[1]!)
    }
    // And those read by name from a table: each secret's ARN, each queue's URL.
    for (const name of [...Object.values(SECRET_ENV), ...Object.values(QUEUE_URL_ENV)]) read_.add(name)
    expect(read_.size).toBeGreaterThan(20)
    expect([...read_].filter((name) => !documented.includes(`\`${name}\``)).sort()).toEqual([])
  })
  it("names in docs/configuration.md every setting of a stage's settings file", () => {
    const documented = read('docs/configuration.md')
    const paths = settingPaths()
    expect(paths).toContain('throttles.transfers.rateLimit')
    expect(paths.filter((path) => !documented.includes(`\`${path}\``))).toEqual([])
  })
})
