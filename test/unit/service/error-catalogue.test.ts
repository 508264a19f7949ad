import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { REFUSAL_REASONS } from '#lib/platform/auth/refusal.ts'
import { PLATFORM_CODES, RESPONSE_CODES } from '#lib/platform/error-codes.ts'
import { CATALOGUE, duplicateCodes, PROBLEM_CODES, renderErrorsDoc } from '#lib/service/error-catalogue.ts'

/** CONTRACT 20: one catalogue of every error code, docs/errors.md generated from it. */
const doc = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8')

/** The table rows of docs/errors.md: code -> status cell. */
const rows = new Map(
  [...doc.matchAll(/^\| `([^`]+)` \| ([^|]+) \|/gm)].map((m) => [m[1]!, m[2]!.trim()] as const),
)

describe('the error catalogue', () => {
  it('is what docs/errors.md says, as `npm run openapi` writes it (run it when this fails)', () => {
    expect(doc).toBe(renderErrorsDoc())
  })

  it('gives every code of every table a row with its status, and a meaning and what to do', () => {
    for (const entry of CATALOGUE) {
      expect(rows.get(entry.code), entry.code).toMatch(new RegExp(`^(${entry.status}|warning)`))
      expect(entry.meaning.length, entry.code).toBeGreaterThan(5)
      expect(entry.action.length, entry.code).toBeGreaterThan(5)
    }
    expect(rows.size).toBe(CATALOGUE.length - duplicateCodes().length)
  })

  it('has each code once: a code has one meaning', () => {
    expect(duplicateCodes()).toEqual([])
  })

  it('lists the code of every refusal reason (lib/platform/auth/refusal.ts sends it upper-cased)', () => {
    const missing = REFUSAL_REASONS.map((r) => r.toUpperCase()).filter((code) => !(code in PLATFORM_CODES))
    expect(missing).toEqual([])
  })

  it('lists the Area B signature codes 91-95 and every response code is two digits', () => {
    expect(Object.keys(RESPONSE_CODES)).toEqual(expect.arrayContaining(['91', '92', '93', '94', '95']))
    expect(Object.keys(RESPONSE_CODES).every((c) => /^\d\d$/.test(c))).toBe(true)
  })

  it('includes the invoice rule codes and the codes the earlier docs pages left out', () => {
    for (const code of [
      'NG-CO-10',
      'NG-UK-01',
      'INVOICE_REFERENCE_MISMATCH',
      'ROLE_FORBIDDEN',
      'FIELD_FORMAT',
    ])
      expect(PROBLEM_CODES.has(code), code).toBe(true)
  })
})
