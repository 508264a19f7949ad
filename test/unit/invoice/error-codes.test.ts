import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROBLEM_CODES } from '#lib/service/error-catalogue.ts'

/**
 * CONTRACT 17 and 20: every error code the service can return is in the error catalogue
 * (lib/service/error-catalogue.ts, which docs/errors.md is generated from) and the OpenAPI document. The codes are read from the source as it writes them, so a new code cannot ship
 * undocumented: a problem literal (`code: '...'`), an invoice rule (`problem(path, '...'`), a schema
 * rule (`rule: '...'`) or a named code constant (`..._CODE = '...'`).
 */

const ROOT = new URL('../../../', import.meta.url).pathname

const WRITTEN = [
  /\bcode: '([^']+)'/g,
  /\bproblem\(\s*[^,]+,\s*'([^']+)'/g,
  /\brule: '([^']+)'/g,
  /_CODE = '([^']+)'/g,
]

/** Literals of the same shapes that are not reply codes, each with the reason. */
const NOT_REPLY_CODES: Record<string, string> = {
  ENOTFOUND: "a Node DNS error's code (lib/platform/net), never sent to a client",
  ETIMEOUT: "a Node DNS error's code (lib/platform/net), never sent to a client",
  custom:
    "zod's issue kind in a refinement's addIssue (lib/ledger/schemas.ts), sent as FIELD_RULE (lib/platform/http/validation.ts)",
  INV: 'an invoice number prefix in an example request (lib/service/endpoints/invoice-number.ts)',
}

function codesIn(source: string): string[] {
  return WRITTEN.flatMap((pattern) => [...source.matchAll(pattern)].map((m) => m[1]!))
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') ? [path] : []
  })
}

const openapi = JSON.parse(readFileSync(join(ROOT, 'openapi.json'), 'utf8'))
const documented = new Set<string>(openapi.components.schemas.ErrorCode.enum)

/** The codes of `codes` missing from the catalogue or openapi.json, by place. */
function missing(codes: Iterable<string>) {
  const wanted = [...new Set(codes)].filter((code) => !(code in NOT_REPLY_CODES)).sort()
  return {
    table: wanted.filter((code) => !PROBLEM_CODES.has(code)),
    openapi: wanted.filter((code) => !documented.has(code)),
  }
}

// lib/ and functions/ hold the handlers' codes; scripts/local/ the local server's own replies (what
// API Gateway answers itself in AWS), which a client sees just the same.
const written = [join(ROOT, 'lib'), join(ROOT, 'functions'), join(ROOT, 'scripts', 'local')]
  .flatMap(sourceFiles)
  // lib/en16931's `code` and `rule` are EN 16931's VAT categories and rule identifiers, reported in a
  // reply's `en16931` findings, never as an error code.
  .filter((file) => !file.includes(`${join('lib', 'en16931')}`))
  .flatMap((file) => codesIn(readFileSync(file, 'utf8')))

describe('the error codes lib/ and the local server write', () => {
  it('finds the codes of every kind the source writes them in', () => {
    expect(written).toEqual(
      expect.arrayContaining([
        'INVOICE_REFERENCE_MISMATCH',
        'NG-IRN-03',
        'NG-CO-10',
        'NG-FM-04',
        'WEBHOOK_DOWN',
      ]),
    )
  })

  it('are each in the error catalogue and in the OpenAPI document', () => {
    expect(missing(written)).toEqual({ table: [], openapi: [] })
  })

  it('would fail on a code planted in the source that neither lists', () => {
    const planted = "throw invalid([{ path: 'irn', code: 'PLANTED_CODE', message: 'm' }])"
    expect(missing([...written, ...codesIn(planted)])).toEqual({
      table: ['PLANTED_CODE'],
      openapi: ['PLANTED_CODE'],
    })
  })

  it('leaves out only literals that are still in the source', () => {
    expect(written).toEqual(expect.arrayContaining(Object.keys(NOT_REPLY_CODES)))
  })
})

describe('openapi.json', () => {
  it("lists exactly the catalogue's problem codes as ErrorCode, and a problem's code refers to it", () => {
    expect([...documented].sort()).toEqual([...PROBLEM_CODES].sort())
    expect(openapi.components.schemas.Problem.properties.code).toEqual({
      $ref: '#/components/schemas/ErrorCode',
    })
  })
})
