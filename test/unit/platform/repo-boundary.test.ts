import { readdirSync, readFileSync } from 'node:fs'
import { dirname, isAbsolute, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

/**
 * Nothing of the project reads from outside the repository: a fresh clone with no folder beside it
 * runs every test and the service. The UBL schemas were once read from the sibling folder shared/standards (a folder
 * a newcomer does not have) and 33 tests failed on a clean clone; what the project needs lives in
 * it (data/, with its source and licence named beside it).
 *
 * The check reads every string literal of the project's code (template literal parts too) and names
 * each one that is a path leaving the repository:
 * - relative (`../x`, `./x`, `..`) and leaving it from the file's own folder (`new URL('../../../x',
 *   import.meta.url)`, `resolve(import.meta.dirname, ...)`);
 * - `..` followed by `shared` anywhere in it (the sibling folder this project used to read, however
 *   the path is joined: `${root}` joined with `..` and `shared`);
 * - absolute (or a file: URL) beside the repository, in the folder that holds it, or under `~/`.
 * Shell and JSON files (.ci/run, package.json, cdk.json) are read for `./` and `../` words from the root.
 */

const root = resolve(import.meta.dirname, '../../..')
const CODE_FOLDERS = ['lib', 'functions', 'scripts', 'test', 'bench', 'infra', 'client']
const CODE = /\.(ts|mts|cts|js|mjs|cjs)$/
const COMMAND_FILES = ['.ci/run', 'package.json', 'cdk.json']

const leaves = (root: string, path: string) => {
  const rel = relative(root, path)
  return rel === '..' || rel.startsWith('../') || isAbsolute(rel)
}

/** Why `text` (a literal in `file`, absolute) names a place outside `root`, or undefined. */
function outsideBy(root: string, file: string, text: string): string | undefined {
  if (/(^|\/)\.\.\/(\.\.\/)*shared(\/|$)/.test(text)) return 'names the sibling shared folder'
  if (/^~\//.test(text)) return 'names the home folder'
  const path = text.startsWith('file:') ? fileURLToPath(text) : text
  if (isAbsolute(path)) {
    // Only paths beside the repository: /tmp, /dev/null and the like are the machine's, not a project.
    return leaves(root, path) && !leaves(dirname(root), path) ? 'absolute, beside the repository' : undefined
  }
  if (!/^\.\.?(\/|$)/.test(path)) return undefined
  const fromFile = resolve(dirname(file), path)
  if (leaves(root, fromFile))
    return `leaves the repository from ${relative(root, dirname(file)) || 'the root'}`
  return undefined
}

/** The string literals and template literal parts of a TypeScript or JavaScript source, with lines. */
function literals(source: string): { text: string; line: number }[] {
  const file = ts.createSourceFile('x.ts', source, ts.ScriptTarget.Latest, true)
  const found: { text: string; line: number }[] = []
  const visit = (node: ts.Node) => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    )
      found.push({ text: node.text, line: file.getLineAndCharacterOfPosition(node.getStart()).line + 1 })
    ts.forEachChild(node, visit)
  }
  visit(file)
  return found
}

/** Each read outside the repository in one file, as `file:line 'literal' (why)`. */
function outsideReads(root: string, file: string, source: string): string[] {
  const found = CODE.test(file)
    ? literals(source)
    : source
        .split('\n')
        .flatMap((line, i) =>
          [...line.matchAll(/(?:^|[\s"'=(])(\.\.?\/[^\s"';)]*)/g)].map((m) => ({ text: m[1]!, line: i + 1 })),
        )
  return found.flatMap(({ text, line }) => {
    // Commands run in the root (npm and .ci/run both start there): their words are read from it.
    const why = outsideBy(root, CODE.test(file) ? file : join(root, 'command'), text)
    return why ? [`${relative(root, file)}:${line} '${text}' (${why})`] : []
  })
}

function projectFiles(): string[] {
  const code = CODE_FOLDERS.flatMap((folder) =>
    readdirSync(join(root, folder), { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && CODE.test(entry.name))
      // client/dist is the client package's build output (gitignored, made by `npm pack ./client`).
      .filter((entry) => !entry.parentPath.startsWith(join(root, 'client/dist')))
      .map((entry) => join(entry.parentPath, entry.name)),
  )
  const top = readdirSync(root).filter((name) => CODE.test(name))
  return [...code, ...top.map((name) => join(root, name)), ...COMMAND_FILES.map((name) => join(root, name))]
}

describe('the repository boundary', () => {
  it('no file of the project reads from outside the repository', () => {
    const files = projectFiles()
    // A walk that found nothing would pass having checked nothing.
    expect(files.length).toBeGreaterThan(400)
    const reads = files.flatMap((file) => outsideReads(root, file, readFileSync(file, 'utf8')))
    expect(reads, `reads outside the repository:\n${reads.join('\n')}`).toEqual([])
  })

  describe('the check', () => {
    // The planted paths are joined from parts so that this file itself holds no such literal.
    const up = (n: number, ...rest: string[]) => [...Array<string>(n).fill('..'), ...rest].join('/')
    const file = join(root, 'test/support/planted.ts')

    it('names relative paths that leave the repository from the file folder, and the sibling shared folder', () => {
      const source = [
        `export const DIR = resolve(import.meta.dirname, '${up(3, 'shared/standards/ubl-2.1')}')`,
        `const spec = new URL('${up(3, 'elsewhere/spec.md')}', import.meta.url)`,
        `const joined = \`\${root}/${up(1, 'shared')}/x.json\``,
      ].join('\n')
      expect(outsideReads(root, file, source)).toEqual([
        `test/support/planted.ts:1 '${up(3, 'shared/standards/ubl-2.1')}' (names the sibling shared folder)`,
        `test/support/planted.ts:2 '${up(3, 'elsewhere/spec.md')}' (leaves the repository from test/support)`,
        `test/support/planted.ts:3 '/${up(1, 'shared')}/x.json' (names the sibling shared folder)`,
      ])
    })

    it('names absolute paths and file: URLs beside the repository, and the home folder', () => {
      const beside = join(dirname(root), 'shared-data', 'list.json')
      const source = `a('${beside}')\nb('file://${beside}')\nc('~/.config/x')\n`
      expect(outsideReads(root, file, source)).toEqual([
        `test/support/planted.ts:1 '${beside}' (absolute, beside the repository)`,
        `test/support/planted.ts:2 'file://${beside}' (absolute, beside the repository)`,
        "test/support/planted.ts:3 '~/.config/x' (names the home folder)",
      ])
    })

    it('names ../ words of a shell script or package.json that leave the root', () => {
      const run = join(root, '.ci/run')
      expect(outsideReads(root, run, `cd "$(dirname "$0")/.."\ncp ${up(1, 'data')}/x .\n`)).toEqual([
        `.ci/run:2 '${up(1, 'data')}/x' (leaves the repository from the root)`,
      ])
    })

    it('passes paths inside the repository, imports, the machine folders and plain text', () => {
      const source = [
        "import { a } from '../fixtures/invoices/build.ts'",
        `const data = new URL('${up(2, 'data/reference/')}', import.meta.url)`,
        `const rootDir = resolve(import.meta.dirname, '${up(2)}')`,
        "const scratch = mkdtempSync(join(tmpdir(), 'x-'))",
        "writeFileSync('/dev/null', '')",
        "const text = 'see ../ in the docs, or ./x'",
      ].join('\n')
      expect(outsideReads(root, file, source)).toEqual([])
    })
  })
})
