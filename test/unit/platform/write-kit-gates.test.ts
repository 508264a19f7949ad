import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

/**
 * The write path keeps the shape issue 31 gave it: retries, paging and transaction failures are the
 * kit's (lib/platform/db), so a domain cannot grow its own loop or read a cancellation by position
 * again unnoticed; functions stay short enough to read; only the ledger imports the ledger. Each
 * check is a function of the files' text, run on lib/ and on planted violations (so none can pass
 * by checking nothing).
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')

interface Source {
  /** Relative to the repository: `lib/invoice/service.ts`. */
  path: string
  text: string
}

const libSources = (): Source[] =>
  readdirSync(join(root, 'lib'), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => {
      const file = join(entry.parentPath, entry.name)
      return { path: relative(root, file), text: readFileSync(file, 'utf8') }
    })

const inKit = (s: Source) => s.path.startsWith('lib/platform/db/')

interface FunctionSize {
  where: string
  name: string
  lines: number
}

/** Every function (declaration, method, expression, arrow) with a body, and its length in lines. */
function functionSizes(sources: Source[]): FunctionSize[] {
  const sizes: FunctionSize[] = []
  for (const source of sources) {
    const file = ts.createSourceFile(source.path, source.text, ts.ScriptTarget.Latest, true)
    const visit = (node: ts.Node) => {
      if (
        (ts.isFunctionDeclaration(node) ||
          ts.isMethodDeclaration(node) ||
          ts.isFunctionExpression(node) ||
          ts.isArrowFunction(node)) &&
        node.body
      ) {
        const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line
        const last = file.getLineAndCharacterOfPosition(node.getEnd()).line
        const named = node.name ?? (ts.isVariableDeclaration(node.parent) ? node.parent.name : undefined)
        sizes.push({
          where: source.path,
          name: named?.getText(file) ?? '(anonymous)',
          lines: last - first + 1,
        })
      }
      ts.forEachChild(node, visit)
    }
    visit(file)
  }
  return sizes
}

const longFunctions = (sources: Source[]) =>
  functionSizes(sources)
    .filter((f) => f.lines > 60)
    .map((f) => `${f.where} ${f.name} (${f.lines} lines)`)

const handleInvoiceLines = (sources: Source[]) =>
  functionSizes(sources).find((f) => f.where === 'lib/invoice/service.ts' && f.name === 'handleInvoice')
    ?.lines

/** Lines outside the kit that match: a hand retry loop, a hand paging loop, a reason read by position. */
function handWritten(sources: Source[], pattern: RegExp): string[] {
  return sources
    .filter((s) => !inKit(s))
    .flatMap((s) =>
      s.text
        .split('\n')
        .map((line, i) => ({ line, at: `${s.path}:${i + 1}` }))
        .filter(({ line }) => pattern.test(line))
        .map(({ at, line }) => `${at} ${line.trim()}`),
    )
}

const RETRY_LOOP = /for \(let attempt\b/
const PAGING = /\bLastEvaluatedKey\b/
const BY_POSITION = /\bcodes\??\.?\[\s*\d|CancellationReasons|transactionCancellationCodes/

/** Calls of isConditionFailed outside the kit (imports are not uses). */
function conditionChecks(sources: Source[]): string[] {
  const calls: string[] = []
  for (const source of sources.filter((s) => !inKit(s))) {
    const file = ts.createSourceFile(source.path, source.text, ts.ScriptTarget.Latest, true)
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node) && node.expression.getText(file) === 'isConditionFailed')
        calls.push(`${source.path}:${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1}`)
      ts.forEachChild(node, visit)
    }
    visit(file)
  }
  return calls
}

/** Imports of the ledger by lib modules other than the ledger's own and the service description's. */
const ledgerImports = (sources: Source[]) =>
  sources
    .filter((s) => !s.path.startsWith('lib/ledger/') && !s.path.startsWith('lib/service/'))
    .filter((s) => /from '#lib\/ledger\//.test(s.text))
    .map((s) => s.path)

describe('the write kit gates, on lib/', () => {
  const sources = libSources()

  it('keeps handleInvoice at 60 lines at most', () => {
    const lines = handleInvoiceLines(sources)
    expect(lines).toBeDefined()
    expect(lines).toBeLessThanOrEqual(60)
  })

  it('has at most 16 functions over 60 lines', () => {
    expect(longFunctions(sources).length, longFunctions(sources).join('\n')).toBeLessThanOrEqual(16)
  })

  it('has no hand retry loop, no hand paging loop and no cancellation reason read by position outside lib/platform/db', () => {
    expect(handWritten(sources, RETRY_LOOP)).toEqual([])
    expect(handWritten(sources, PAGING)).toEqual([])
    expect(handWritten(sources, BY_POSITION)).toEqual([])
  })

  it('calls isConditionFailed at most 3 times outside lib/platform/db', () => {
    expect(conditionChecks(sources).length, conditionChecks(sources).join('\n')).toBeLessThanOrEqual(3)
  })

  it('lets no lib module outside the ledger (and the service description) import the ledger', () => {
    expect(ledgerImports(sources)).toEqual([])
  })
})

describe('the write kit gates, on planted violations', () => {
  const planted = (path: string, text: string): Source[] => [{ path, text }]

  it('finds a long handleInvoice and more than 16 long functions', () => {
    const body = Array.from({ length: 61 }, (_, i) => `  const a${i} = ${i}`).join('\n')
    expect(
      handleInvoiceLines(planted('lib/invoice/service.ts', `function handleInvoice() {\n${body}\n}`)),
    ).toBe(63)
    const many = Array.from({ length: 17 }, (_, i) => `function f${i}() {\n${body}\n}`).join('\n')
    expect(longFunctions(planted('lib/x/y.ts', many))).toHaveLength(17)
  })

  it('finds a retry loop, a paging loop and a reason read by position outside the kit, not inside it', () => {
    const loops = [
      'for (let attempt = 0; attempt < 3; attempt++) {}',
      'start = out.LastEvaluatedKey',
      "if (codes[1] === 'ConditionalCheckFailed') return",
    ].join('\n')
    expect(handWritten(planted('lib/invoice/x.ts', loops), RETRY_LOOP)).toHaveLength(1)
    expect(handWritten(planted('lib/invoice/x.ts', loops), PAGING)).toHaveLength(1)
    expect(handWritten(planted('lib/invoice/x.ts', loops), BY_POSITION)).toHaveLength(1)
    expect(handWritten(planted('lib/platform/db/x.ts', loops), RETRY_LOOP)).toEqual([])
  })

  it('counts isConditionFailed calls, not imports', () => {
    const text = [
      "import { isConditionFailed } from '#lib/platform/db/errors.ts'",
      ...Array.from({ length: 4 }, () => 'try {} catch (e) { if (isConditionFailed(e)) throw e }'),
    ].join('\n')
    expect(conditionChecks(planted('lib/webhooks/x.ts', text))).toHaveLength(4)
  })

  it('finds a ledger import from another domain, not from the service description', () => {
    const text = "import type { TransferRecord } from '#lib/ledger/repository.ts'"
    expect(ledgerImports(planted('lib/merchant-history/indexer.ts', text))).toEqual([
      'lib/merchant-history/indexer.ts',
    ])
    expect(ledgerImports(planted('lib/service/endpoints/ledger.ts', text))).toEqual([])
  })
})
