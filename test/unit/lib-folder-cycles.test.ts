import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { afterAll, describe, expect, it } from 'vitest'

/**
 * The folders of lib/ form layers: a folder may use the folders below it, never one that uses it.
 * Two folders that import each other (directly or round a longer loop) are one module in two places:
 * neither can be read, moved or bundled without the other, and the loop is usually one file that
 * belongs elsewhere (operator tooling in scripts/, an HTTP handler in functions/, a type one layer
 * too high). This check names every such loop with the imports that close it.
 *
 * A "folder" is the first path segment under lib/: `lib/invoice/rules.ts` is in `invoice`, and a file
 * directly in lib/ (`lib/service/routes.ts`) is a folder of its own.
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

/** folder -> folder it imports -> the imports that make that edge (`lib/<a>/<x>.ts -> lib/<b>/<y>.ts`). */
type Graph = Map<string, Map<string, string[]>>

/** The folder graph of the .ts files under `lib` (`#lib/...` names a file under it, as package.json says). */
function folderGraph(lib: string): Graph {
  const base = dirname(lib)
  const folderOf = (file: string) => relative(lib, file).split('/')[0]!
  const graph: Graph = new Map()
  const files = readdirSync(lib, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
  for (const file of files) {
    // preProcessFile reads import, import type, export ... from, import() and require() alike.
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
    for (const { fileName: specifier } of importedFiles) {
      const target = specifier.startsWith('#lib/')
        ? join(lib, specifier.slice('#lib/'.length))
        : specifier.startsWith('.')
          ? resolve(dirname(file), specifier)
          : undefined
      if (!target || relative(lib, target).startsWith('..')) continue
      const [from, to] = [folderOf(file), folderOf(target)]
      if (from === to) continue
      const edges = graph.get(from) ?? new Map<string, string[]>()
      graph.set(from, edges)
      const line = `${relative(base, file)} -> ${relative(base, target)}`
      edges.set(to, [...new Set([...(edges.get(to) ?? []), line])])
    }
  }
  return graph
}

/** Strongly connected groups of two or more folders (Tarjan's algorithm). */
function loops(graph: Graph): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const groups: string[][] = []
  const visit = (node: string) => {
    index.set(node, index.size)
    low.set(node, index.get(node)!)
    stack.push(node)
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node)!, low.get(next)!))
      } else if (stack.includes(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!))
      }
    }
    if (low.get(node) === index.get(node)) {
      const group = stack.splice(stack.indexOf(node))
      if (group.length > 1) groups.push(group)
    }
  }
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node)
  return groups
}

/** The shortest path from `start` to `goal` through `members`, both ends included. */
function shortestPath(graph: Graph, members: Set<string>, start: string, goal: string): string[] {
  const cameFrom = new Map<string, string>([[start, start]])
  const queue = [start]
  for (let node = queue.shift(); node !== undefined && node !== goal; node = queue.shift()) {
    for (const next of graph.get(node)?.keys() ?? []) {
      if (members.has(next) && !cameFrom.has(next)) {
        cameFrom.set(next, node)
        queue.push(next)
      }
    }
  }
  const path = [goal]
  while (path[0] !== start) path.unshift(cameFrom.get(path[0]!)!)
  return path
}

/**
 * Every import between two folders of one loop is shown in the shortest cycle that runs through it,
 * one paragraph per cycle (shortest first): `a -> b -> a`, then for each step the imports that make it.
 * (Every elementary cycle would be thousands of lines for a tangled tree, most of them repeats.)
 */
function describeCycles(graph: Graph): string[] {
  const cycles = new Map<string, string[]>()
  for (const group of loops(graph)) {
    const members = new Set(group)
    for (const from of group) {
      for (const to of graph.get(from)!.keys()) {
        if (!members.has(to)) continue
        const ring = shortestPath(graph, members, to, from)
        // One entry per cycle whichever edge found it: the ring turned to start at its least name.
        const first = ring.indexOf([...ring].sort()[0]!)
        const turned = [...ring.slice(first), ...ring.slice(0, first)]
        cycles.set(turned.join(' -> '), [...turned, turned[0]!])
      }
    }
  }
  return [...cycles.values()]
    .sort((a, b) => a.length - b.length || a.join().localeCompare(b.join()))
    .map((cycle) =>
      [
        cycle.join(' -> '),
        ...cycle.slice(1).flatMap((to, i) =>
          graph
            .get(cycle[i]!)!
            .get(to)!
            .map((step) => `  ${step}`),
        ),
      ].join('\n'),
    )
}

describe('lib/ folders', () => {
  it('no two folders import each other, directly or round a loop', () => {
    const cycles = describeCycles(folderGraph(join(root, 'lib')))
    expect(cycles, `lib/ folders that import each other:\n${cycles.join('\n')}`).toEqual([])
  })

  describe('the check', () => {
    const scratch = mkdtempSync(join(tmpdir(), 'lib-cycles-'))
    afterAll(() => rmSync(scratch, { recursive: true, force: true }))
    const tree = (files: Record<string, string>) => {
      const lib = join(scratch, `case-${readdirSync(scratch).length}`, 'lib')
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(lib, path)), { recursive: true })
        writeFileSync(join(lib, path), text)
      }
      return lib
    }

    it('names a pair of folders and a loop of three with the imports that close them', () => {
      const lib = tree({
        'a/x.ts': "import { y } from '#lib/b/y.ts'\nimport { a } from './z.ts'\n",
        'a/z.ts': 'export const a = 1\n',
        'b/y.ts': "import type { A } from '../a/z.ts'\nexport const y = 1\n",
        'c/one.ts': "import { d } from '#lib/d/one.ts'\nimport { y } from '#lib/b/y.ts'\n",
        'c/two.ts': 'export const c = 1\n',
        'd/one.ts': "export { e } from '#lib/e.ts'\n",
        'e.ts': "export const e = await import('./c/two.ts')\n",
      })
      expect(describeCycles(folderGraph(lib))).toEqual([
        ['a -> b -> a', '  lib/a/x.ts -> lib/b/y.ts', '  lib/b/y.ts -> lib/a/z.ts'].join('\n'),
        [
          'c -> d -> e.ts -> c',
          '  lib/c/one.ts -> lib/d/one.ts',
          '  lib/d/one.ts -> lib/e.ts',
          '  lib/e.ts -> lib/c/two.ts',
        ].join('\n'),
      ])
    })

    it('passes layers that only import downwards, and packages and files outside lib/', () => {
      const lib = tree({
        'top/x.ts': "import { y } from '#lib/mid/y.ts'\nimport { f } from '#functions/f.ts'\n",
        'mid/y.ts':
          "import { z } from '../low.ts'\nimport * as zod from 'zod'\nimport { s } from '../../scripts/s.ts'\n",
        'low.ts': 'export const z = 1\n',
      })
      expect(describeCycles(folderGraph(lib))).toEqual([])
    })
  })
})
