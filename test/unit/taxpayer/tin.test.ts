import { describe, expect, it } from 'vitest'
import { TIN_FORMS, TIN_PATTERN } from '#lib/taxpayer/tin.ts'

/** The one TIN pattern of invoices, verify-tin, the search filter and the CLI (CONTRACT 9 and 17). */
describe('TIN_PATTERN', () => {
  it.each([
    ['the authority’s NNNNNNNN-NNNN', '12345678-0001'],
    ['the TIN- form of its samples', 'TIN-0099990001'],
    ['the 13-digit Tax ID (NRS/JRB notice of May 2026)', '1234567890123'],
    ['the sandbox’s magic Tax IDs', '0000000000001'],
  ])('accepts %s', (_, tin) => {
    expect(TIN_PATTERN.test(tin)).toBe(true)
  })

  it.each([
    ['12 digits', '123456789012'],
    ['14 digits', '12345678901234'],
    ['13 digits with a hyphen', '123456789012-3'],
    ['13 digits with a space', '1234567890123 '],
    ['13 characters with a letter', '123456789012A'],
    ['NNNNNNNN-NNNN without its suffix', '12345678'],
  ])('refuses %s', (_, tin) => {
    expect(TIN_PATTERN.test(tin)).toBe(false)
  })

  it('names every form, with an example of each, for the messages that refuse a TIN', () => {
    expect(TIN_FORMS).toContain('NNNNNNNN-NNNN (e.g. 12345678-0001)')
    expect(TIN_FORMS).toContain('the 13-digit Tax ID (e.g. 1234567890123)')
    expect(TIN_FORMS).toContain('TIN- and digits (e.g. TIN-0099990001)')
  })
})
