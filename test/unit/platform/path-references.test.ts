import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

/**
 * Every repository path a comment or a document names exists. Comments and docs point a reader at
 * the file that explains or does a thing ("the bundles are built by scripts/local/bundles.ts"); when
 * that file moves, nothing else fails, and the pointer leads nowhere. Checked: the comments of the
 * code under lib/, functions/, infra/, scripts/, test/, bench/ and client/, the Markdown beside that
 * code, README.md and docs/*.md (BENCHMARKS.md is a dated log: it names files as they were).
 *
 * A path is a word that starts with one of those folders (or `#lib/`, the import alias) and looks like
 * a path: it has a file extension, ends with `/`, or has three segments or more (prose such as
 * "client/server" does not). Placeholders and globs (`test/http/<domain>/`, `lib/*.ts`) are not paths.
 * A path without extension names a folder or a module (`.ts` understood). The failure lists each stale
 * one as `file:line -> path`, so that a rename's leftovers can be fixed in one pass.
 */

const root = resolve(import.meta.dirname, '../../..')
const FOLDERS = ['lib', 'functions', 'infra', 'scripts', 'test', 'bench', 'client']
const CODE = /\.(ts|mts|cts|js|mjs|cjs)$/

// Left of a path: nothing that could continue one (`../lib/x`, `node_modules/x/lib/y`, a URL's path).
const PATH = new RegExp(`(?<![\\w./@-])#?((?:${FOLDERS.join('|')})/[\\w./<>*{},$-]*)`, 'g')

/** The repository paths named in `text`, with the line (1-based, counted from `firstLine`) of each. */
function pathsIn(text: string, firstLine = 1): { path: string; line: number }[] {
  return text.split('\n').flatMap((line, i) =>
    [...line.matchAll(PATH)].flatMap((match) => {
      // A sentence's full stop or a list's comma after a path is not part of it.
      const path = match[1]!.replace(/[.,]+$/, '')
      if (/[<>*{}$]/.test(path) || path.includes('...')) return []
      const looksLikePath = /\.\w+$/.test(path) || path.endsWith('/') || path.split('/').length >= 3
      return looksLikePath ? [{ path, line: firstLine + i }] : []
    }),
  )
}

/** The comments of a TypeScript or JavaScript source, each with the line it starts on. */
function commentsOf(source: string): { text: string; line: number }[] {
  const file = ts.createSourceFile('x.ts', source, ts.ScriptTarget.Latest, true)
  const seen = new Set<number>()
  const found: { text: string; line: number }[] = []
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const { pos, end } of ranges ?? []) {
      if (seen.has(pos)) continue
      seen.add(pos)
      found.push({ text: source.slice(pos, end), line: file.getLineAndCharacterOfPosition(pos).line + 1 })
    }
  }
  const visit = (node: ts.Node) => {
    collect(ts.getLeadingCommentRanges(source, node.getFullStart()))
    collect(ts.getTrailingCommentRanges(source, node.getEnd()))
    ts.forEachChild(node, visit)
  }
  visit(file)
  collect(ts.getLeadingCommentRanges(source, file.endOfFileToken.getFullStart()))
  return found.sort((a, b) => a.line - b.line)
}

/** Whether `path` names a file or folder under `root` (a module named without `.ts` too). */
function exists(root: string, path: string): boolean {
  const full = join(root, path)
  return existsSync(full) || existsSync(`${full}.ts`)
}

/** Each stale path reference of one file, as `file:line -> path`. */
function staleReferences(root: string, file: string, source: string): string[] {
  const named = CODE.test(file)
    ? commentsOf(source).flatMap(({ text, line }) => pathsIn(text, line))
    : pathsIn(source)
  return named
    .filter(({ path }) => !exists(root, path))
    .map(({ path, line }) => `${relative(root, file)}:${line} -> ${path}`)
}

function checkedFiles(): string[] {
  const underFolders = FOLDERS.flatMap((folder) =>
    readdirSync(join(root, folder), { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && (CODE.test(entry.name) || entry.name.endsWith('.md')))
      // client/dist is the client package's build output (gitignored, made by `npm pack ./client`).
      .filter((entry) => !entry.parentPath.startsWith(join(root, 'client/dist')))
      .map((entry) => join(entry.parentPath, entry.name)),
  )
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(root, 'docs', name))
  return [...underFolders, join(root, 'README.md'), ...docs]
}

describe('paths named in comments and docs', () => {
  it('every repository path a comment, README.md or a doc names exists', () => {
    const files = checkedFiles()
    const named = files.flatMap((file) => {
      const source = readFileSync(file, 'utf8')
      return CODE.test(file) ? commentsOf(source).flatMap((c) => pathsIn(c.text, c.line)) : pathsIn(source)
    })
    // A scan that found no path would pass having checked nothing.
    expect(named.length).toBeGreaterThan(500)
    const stale = files.flatMap((file) => staleReferences(root, file, readFileSync(file, 'utf8')))
    expect(stale, `paths named that do not exist (file:line -> path):\n${stale.join('\n')}`).toEqual([])
  })

  describe('the check', () => {
    const file = join(root, 'lib/platform/planted.ts')

    it('names each path of a comment that does not exist, with its line', () => {
      const source = [
        '/**',
        ' * The handler factory (lib/platform/http/factory.ts) and the old one (lib/http/factory.ts).',
        ' */',
        'const a = 1 // see #lib/gone/module.ts, then scripts/local/gone/',
        '/* test/unit/gone/deeper/x */',
      ].join('\n')
      expect(staleReferences(root, file, source)).toEqual([
        'lib/platform/planted.ts:2 -> lib/http/factory.ts',
        'lib/platform/planted.ts:4 -> lib/gone/module.ts',
        'lib/platform/planted.ts:4 -> scripts/local/gone/',
        'lib/platform/planted.ts:5 -> test/unit/gone/deeper/x',
      ])
    })

    it('reads a Markdown file whole, code blocks and prose alike', () => {
      const doc = join(root, 'docs/planted.md')
      const source = 'The routes come from `lib/routes.ts`.\n\n```sh\nnpx tsx scripts/gone.ts\n```\n'
      expect(staleReferences(root, doc, source)).toEqual([
        'docs/planted.md:1 -> lib/routes.ts',
        'docs/planted.md:4 -> scripts/gone.ts',
      ])
    })

    it('passes existing files, folders and modules, code, placeholders, prose and other roots', () => {
      const source = [
        '// lib/platform/http/factory.ts, lib/platform/db/ and lib/platform/db/retry (a module).',
        '// test/http/<domain>/ and lib/*.ts are patterns; client/server is prose.',
        '// ../lib/x.ts, node_modules/y/lib/z.js and https://example.com/test/a/b.ts are not ours.',
        "const path = 'lib/gone.ts'",
      ].join('\n')
      expect(staleReferences(root, file, source)).toEqual([])
    })
  })
})
