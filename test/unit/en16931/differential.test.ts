import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { readXml } from '../../../lib/documents/xml-reader.js'
import { modelFromUbl } from '../../../lib/en16931/from-ubl.js'
import { judge } from '../../../lib/en16931/judge.js'
import { corpus, officialVerdicts } from './corpus.js'

// Our EN 16931 rules against the official UBL validation artefact (XSLT 2.0, run by Saxon-HE once
// over the whole corpus): the same BR-* identifiers fire on every document, examples and mutations.
describe('EN 16931 rules agree with the official artefact', () => {
  const folder = mkdtempSync(join(tmpdir(), 'en16931-'))
  afterAll(() => rmSync(folder, { recursive: true, force: true }))

  it('fires the same rule identifiers on every document of the corpus', () => {
    const documents = corpus()
    expect(documents.length).toBeGreaterThanOrEqual(200)
    const official = officialVerdicts(documents, folder)
    const differences: string[] = []
    let fired = 0
    for (const document of documents) {
      const ours = new Set(judge(modelFromUbl(readXml(document.xml))).map((finding) => finding.rule))
      const theirs = official.get(document.name) ?? new Set()
      fired += theirs.size
      const missing = [...theirs].filter((rule) => !ours.has(rule))
      const extra = [...ours].filter((rule) => !theirs.has(rule))
      if (missing.length || extra.length)
        differences.push(
          `${document.name}: artefact only [${missing.join(' ')}], ours only [${extra.join(' ')}]`,
        )
    }
    expect(fired, 'the mutations make the artefact fire').toBeGreaterThan(documents.length / 2)
    expect(differences, `${differences.length} of ${documents.length} documents differ`).toEqual([])
  }, 120_000)
})
