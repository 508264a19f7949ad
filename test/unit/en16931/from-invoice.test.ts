import { describe, expect, it } from 'vitest'
import { ublOf } from '../../../lib/documents/ubl.js'
import { readXml } from '../../../lib/documents/xml-reader.js'
import { modelFromInvoice } from '../../../lib/en16931/from-invoice.js'
import { modelFromUbl } from '../../../lib/en16931/from-ubl.js'
import { judge } from '../../../lib/en16931/judge.js'
import { buildInvoice } from '../../fixtures/invoices/build.js'

const rulesOf = (record: object) => judge(modelFromInvoice(record)).map((finding) => finding.rule)

describe('modelFromInvoice: the invoice record judged by the EN 16931 rules', () => {
  it('fires what the exported UBL of the same record fires, but for the documented differences', () => {
    const record = buildInvoice()
    const fromRecord = new Set(rulesOf(record))
    const fromExport = new Set(judge(modelFromUbl(readXml(ublOf(record)))).map((finding) => finding.rule))
    const differ = [...fromRecord, ...fromExport].filter(
      (rule) => fromRecord.has(rule) !== fromExport.has(rule),
    )
    // The record's party_name is the legal name (BR-06, BR-07); its one VAT category is the lines'
    // (BR-CO-04) and EN 16931's S (BR-CL-17 on the export's STANDARD_VAT, BR-S-08 then applies).
    expect(new Set(differ)).toEqual(new Set(['BR-06', 'BR-07', 'BR-CO-04', 'BR-CL-17', 'BR-S-08']))
  })

  it('BR-CO-15 and BR-CO-16: an amount with VAT that does not add up, at the paths of the export', () => {
    const record = buildInvoice()
    expect(rulesOf(record)).not.toContain('BR-CO-15')
    record.legal_monetary_total.tax_inclusive_amount += 1
    const findings = judge(modelFromInvoice(record))
    expect(
      findings.filter((finding) => finding.rule.startsWith('BR-CO-1') && /1[56]$/.test(finding.rule)),
    ).toEqual([
      expect.objectContaining({ rule: 'BR-CO-16', path: '/Invoice/cac:LegalMonetaryTotal' }),
      expect.objectContaining({ rule: 'BR-CO-15', path: '/Invoice', flag: 'fatal' }),
    ])
  })

  it('BR-DEC-20: a VAT amount with three decimals; a credit note is a CreditNote', () => {
    const record = buildInvoice()
    record.tax_total[0].tax_subtotal[0].tax_amount += 0.001
    record.invoice_type_code = '380'
    const findings = judge(modelFromInvoice(record))
    expect(findings).toContainEqual(
      expect.objectContaining({ rule: 'BR-DEC-20', path: '/CreditNote/cac:TaxTotal/cac:TaxSubtotal' }),
    )
    expect(findings.map((finding) => finding.rule)).not.toContain('BR-CL-01')
  })
  it('judges a malformed record (a refused body, whose reply lists its findings too) without failing', () => {
    // Every value of the record, in turn, of every JSON type: the rules never throw on any of them.
    const base = buildInvoice()
    const paths: (string | number)[][] = []
    const walk = (value: unknown, path: (string | number)[]) => {
      if (path.length) paths.push(path)
      if (value && typeof value === 'object')
        for (const [key, v] of Object.entries(value))
          walk(v, [...path, Array.isArray(value) ? Number(key) : key])
    }
    walk(base, [])
    const thrown: string[] = []
    for (const path of paths)
      for (const value of [null, 'x', 1, [], {}, true, [null], { a: 1 }]) {
        const record = structuredClone(base)
        let parent: any = record
        for (const key of path.slice(0, -1)) parent = parent[key]
        parent[path.at(-1)!] = value
        try {
          judge(modelFromInvoice(record))
        } catch {
          thrown.push(`${path.join('/')} = ${JSON.stringify(value)}`)
        }
      }
    expect(thrown).toEqual([])
    // A classification code that is not text is no classification.
    const record = buildInvoice()
    record.invoice_line[0].hsn_code = null
    expect(rulesOf(record)).toContain('BR-01')
  })
})
