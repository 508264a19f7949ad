import { CODE_LISTS, EXEMPTION_REASON_CODES, ICD_CODES } from '../code-lists.js'
import type { Model } from '../model.js'
import type { Report } from './report.js'

/**
 * The code list rules (BR-CL-*): each coded value is one of its list's codes, written without blanks
 * inside (`not(contains(normalize-space(.), ' '))` and the list lookup of the artefact).
 */

const MIME_CODES: ReadonlySet<string> = new Set([
  'application/pdf',
  'image/png',
  'image/jpeg',
  'text/csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.oasis.opendocument.spreadsheet',
])

function listed(list: string, value: string): boolean {
  if (list === 'MIME_CODES') return MIME_CODES.has(value)
  const code = value.trim().replace(/\s+/g, ' ')
  if (code === '' || code.includes(' ')) return false
  if (list === 'ICD_OR_SEPA') return ICD_CODES.has(code) || code === 'SEPA'
  if (list === 'EXEMPTION_REASON_CODES') return EXEMPTION_REASON_CODES.has(code.toUpperCase())
  return CODE_LISTS[list]?.has(code) ?? false
}

export function codeRules(model: Model, report: Report): void {
  for (const code of model.codes) report.check(listed(code.list, code.value), code.rule, code.path)
}
