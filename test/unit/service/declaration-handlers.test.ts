import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { consumers } from '#lib/service/consumers.ts'
import { declarations, unrouted } from '#lib/service/endpoints/index.ts'
import { type Endpoint, handlerOf } from '#lib/platform/http/endpoint.ts'

/**
 * One declaration per endpoint, one handler per declaration (CONTRACT section 13): the handler module
 * is found from the declaration by name (functions/<domain>/<functionId>.ts), so no list joins them.
 * These fail when a declaration has no handler, a handler has no declaration, or a handler is built
 * from another endpoint's declaration. (A verifier of another scheme does not compile: see
 * route-verifiers.test.ts.)
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const all: Endpoint[] = [...declarations, unrouted]

/** The functions that serve no route: the stream, queue and scheduled consumers. */
const consumerHandlers = new Set([
  ...consumers.map((c) => c.handler),
  'functions/merchant-history/history-indexer.ts',
  'functions/finance/reconcile-daily.ts',
])

function handlerModules(dir = join(ROOT, 'functions')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return handlerModules(path)
    // A module of functions/ that exports `handler` is a Lambda entry point; others are its helpers.
    return /export const handler\b/.test(readFileSync(path, 'utf8')) ? [relative(ROOT, path)] : []
  })
}

describe('declarations and handlers', () => {
  it('gives each functionId one declaration', () => {
    const ids = all.map((d) => d.functionId)
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([])
  })

  it.each(all.map((d) => [d.functionId, d] as const))(
    '%s: its handler module exists and is built from this very declaration',
    async (_, declaration) => {
      const file = handlerOf(declaration)
      expect(existsSync(join(ROOT, file)), `${file} is missing`).toBe(true)
      const { handler } = (await import(join(ROOT, file))) as { handler?: { declaration?: Endpoint } }
      expect(
        handler?.declaration,
        `${file} is not built from the ${declaration.functionId} declaration`,
      ).toBe(declaration)
    },
  )

  it('has a declaration for every handler module that is not a consumer', () => {
    const declared = new Set(all.map(handlerOf))
    const orphans = handlerModules().filter((file) => !declared.has(file) && !consumerHandlers.has(file))
    expect(orphans).toEqual([])
  })
})
