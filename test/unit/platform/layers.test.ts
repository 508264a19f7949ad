import { readdirSync, readFileSync } from 'node:fs'
import { join, posix, relative, resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

/**
 * The layer rule of lib/ (docs/architecture.md): platform (lib/platform/, the plumbing) imports no
 * domain and no service module; a domain (every other folder, lib/registry/ to lib/webhooks/)
 * imports no service module (lib/service/: the endpoint and consumer declarations, routes, access,
 * OpenAPI). Plumbing that knows a domain can no longer be reused or read without it, and a domain
 * that reads the service description turns the description's one-way dependency into a loop.
 */

const root = resolve(import.meta.dirname, '../../..')

type Layer = 'platform' | 'service' | 'domain'

/** The layer of a path relative to the project root (`lib/platform/db/retry.ts` is platform). */
function layerOf(path: string): Layer {
  const folder = path.split('/')[1]
  return folder === 'platform' ? 'platform' : folder === 'service' ? 'service' : 'domain'
}

/** The layers each layer may not import. */
const FORBIDDEN: Record<Layer, Layer[]> = {
  platform: ['domain', 'service'],
  domain: ['service'],
  service: [],
}

/**
 * The imports of one lib/ file that break the rule, as `file -> target (platform imports domain)`.
 * `file` is relative to the root; `#lib/...` and relative specifiers are read, packages and files
 * outside lib/ (`#functions/...`, `node:...`) are not lib modules and pass.
 */
function layerViolations(file: string, source: string): string[] {
  // preProcessFile reads import, import type, export ... from, import() and require() alike.
  const { importedFiles } = ts.preProcessFile(source, true, true)
  const from = layerOf(file)
  return importedFiles.flatMap(({ fileName: specifier }) => {
    const target = specifier.startsWith('#lib/')
      ? `lib/${specifier.slice('#lib/'.length)}`
      : specifier.startsWith('.')
        ? posix.join(posix.dirname(file), specifier)
        : undefined
    if (!target?.startsWith('lib/')) return []
    const to = layerOf(target)
    return FORBIDDEN[from].includes(to) ? [`${file} -> ${target} (${from} imports ${to})`] : []
  })
}

/** Every .ts file under lib/, relative to the root with / separators. */
function libFiles(): string[] {
  return readdirSync(join(root, 'lib'), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .sort()
}

describe('the layers of lib/', () => {
  it('platform imports no domain or service module, a domain no service module', () => {
    const files = libFiles()
    // A walk that found nothing would pass having checked nothing.
    expect(files.filter((f) => layerOf(f) === 'platform').length).toBeGreaterThan(50)
    expect(files.filter((f) => layerOf(f) === 'domain').length).toBeGreaterThan(50)
    const violations = files.flatMap((file) => layerViolations(file, readFileSync(join(root, file), 'utf8')))
    expect(violations, `imports that break the layer rule:\n${violations.join('\n')}`).toEqual([])
  })

  describe('the check', () => {
    it('names a platform module that imports a domain or the service, by alias, path or type', () => {
      const source = [
        "import { invoiceOf } from '#lib/invoice/record.ts'",
        "import type { Route } from '../../service/routes.ts'",
        "export { credit } from '#lib/ledger/post.ts'",
        "const lazy = await import('#lib/webhooks/send.ts')",
      ].join('\n')
      expect(layerViolations('lib/platform/http/planted.ts', source)).toEqual([
        'lib/platform/http/planted.ts -> lib/invoice/record.ts (platform imports domain)',
        'lib/platform/http/planted.ts -> lib/service/routes.ts (platform imports service)',
        'lib/platform/http/planted.ts -> lib/ledger/post.ts (platform imports domain)',
        'lib/platform/http/planted.ts -> lib/webhooks/send.ts (platform imports domain)',
      ])
    })

    it('names a domain module that imports the service description', () => {
      const source =
        "import { CONSUMERS } from '#lib/service/consumers.ts'\nimport { x } from '../service/routes.ts'\n"
      expect(layerViolations('lib/invoice/planted.ts', source)).toEqual([
        'lib/invoice/planted.ts -> lib/service/consumers.ts (domain imports service)',
        'lib/invoice/planted.ts -> lib/service/routes.ts (domain imports service)',
      ])
    })

    it('passes imports down the layers, within a layer, and of packages or files outside lib/', () => {
      const allowed: [string, string][] = [
        [
          'lib/platform/http/a.ts',
          "import { b } from '../db/b.ts'\nimport { c } from '#lib/platform/log.ts'",
        ],
        ['lib/platform/http/a.ts', "import { z } from 'zod'\nimport { f } from '#functions/f.ts'"],
        [
          'lib/invoice/a.ts',
          "import { b } from '#lib/platform/db/b.ts'\nimport { c } from '#lib/ledger/c.ts'",
        ],
        ['lib/service/a.ts', "import { b } from '#lib/invoice/b.ts'\nimport { c } from '../platform/c.ts'"],
      ]
      for (const [file, source] of allowed) expect(layerViolations(file, source)).toEqual([])
    })
  })
})
