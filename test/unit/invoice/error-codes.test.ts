import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type * as z from 'zod'
import { ERROR_CODES } from '#lib/invoice/rule-codes.ts'

/**
 * CONTRACT 17: every error code the service can return is in the rule-code table and the OpenAPI
 * document. The codes are read from the source as it writes them, so a new code cannot ship
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

/** The codes of `codes` missing from the table (lib/invoice/rule-codes.ts) or openapi.json, by place. */
function missing(codes: Iterable<string>) {
  const wanted = [...new Set(codes)].filter((code) => !(code in NOT_REPLY_CODES)).sort()
  return {
    table: wanted.filter((code) => !(code in ERROR_CODES)),
    openapi: wanted.filter((code) => !documented.has(code)),
  }
}

// lib/ holds the handlers' codes; scripts/local/ the local server's own replies (what API Gateway
// answers itself in AWS), which a client sees just the same.
const written = [join(ROOT, 'lib'), join(ROOT, 'scripts', 'local')]
  .flatMap(sourceFiles)
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

  it('are each in the rule-code table and in the OpenAPI document', () => {
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

/**
 * The request schemas' problems carry zod's issue code as it is (lib/platform/http/validation.ts):
 * typed against zod's own union, so a zod upgrade with a new code fails to compile until it is listed.
 */
const ZOD_CODES: Record<z.core.$ZodIssue['code'], true> = {
  invalid_type: true,
  too_big: true,
  too_small: true,
  invalid_format: true,
  not_multiple_of: true,
  unrecognized_keys: true,
  invalid_union: true,
  invalid_key: true,
  invalid_element: true,
  invalid_value: true,
  custom: true,
}

describe("the request schemas' validation codes", () => {
  it('are each in the rule-code table and in the OpenAPI document', () => {
    expect(missing(Object.keys(ZOD_CODES))).toEqual({ table: [], openapi: [] })
  })
})

describe('openapi.json', () => {
  it("lists exactly the table's codes as ErrorCode, and a problem's code refers to it", () => {
    expect([...documented].sort()).toEqual(Object.keys(ERROR_CODES).sort())
    expect(openapi.components.schemas.Problem.properties.code).toEqual({
      $ref: '#/components/schemas/ErrorCode',
    })
  })
})
