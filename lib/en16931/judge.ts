import type { Finding, Model } from './model.js'
import { codeRules } from './rules/codes.js'
import { coreRules } from './rules/core.js'
import { Report } from './rules/report.js'
import { totalRules } from './rules/totals.js'
import { vatRules } from './rules/vat.js'

/**
 * Judges an invoice by the EN 16931 business rules as the official UBL validation artefact states
 * them (release 1.3.16): the findings, each under its official identifier, in the time of a few
 * passes over the lines.
 */
export function judge(model: Model): Finding[] {
  const report = new Report()
  coreRules(model, report)
  totalRules(model, report)
  vatRules(model, report)
  codeRules(model, report)
  return report.findings
}
