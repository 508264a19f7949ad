import { RULES } from '../messages.js'
import type { Finding } from '../model.js'

/** Collects the findings of one judgement: each rule's flag and text are the artefact's. */
export class Report {
  readonly findings: Finding[] = []

  fail(rule: string, path: string): void {
    const official = RULES[rule]
    this.findings.push({
      rule,
      flag: official?.flag ?? 'fatal',
      path,
      message: official ? `[${rule}]-${official.text}` : `[${rule}]`,
    })
  }

  /** Records a failure of `rule` at `path` unless `holds`. */
  check(holds: boolean, rule: string, path: string): void {
    if (!holds) this.fail(rule, path)
  }
}
