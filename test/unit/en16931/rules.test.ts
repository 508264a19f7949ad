import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readXml } from '../../../lib/documents/xml-reader.js'
import { dec, round, round2 } from '../../../lib/en16931/decimal.js'
import { modelFromUbl } from '../../../lib/en16931/from-ubl.js'
import { judge } from '../../../lib/en16931/judge.js'

const term = (value: string) => ({ value, path: '' })
const rules = (xml: string) => judge(modelFromUbl(readXml(xml))).map((finding) => finding.rule)
const example = readFileSync(
  join(import.meta.dirname, '../../fixtures/en16931/en16931/ubl-tc434-example1.xml'),
  'utf8',
)

describe('decimal arithmetic as the artefacts do it', () => {
  it('rounds halves towards positive infinity, as XPath round() does', () => {
    expect(round(dec(term('2.5'))!).toString()).toBe('3')
    expect(round(dec(term('-2.5'))!).toString()).toBe('-2')
    expect(round2(dec(term('0.005'))!).toString()).toBe('0.01')
    expect(round2(dec(term('-0.005'))!).toString()).toBe('0')
  })

  it('is decimal, not binary: 1.005 rounds up to 1.01 (a double reads it as 1.00499...)', () => {
    expect(round2(dec(term('1.005'))!).toString()).toBe('1.01')
    expect(Math.round(1.005 * 100) / 100).toBe(1)
  })

  it('reads no decimal from a blank or a value with a sign inside', () => {
    expect(dec(term(' '))).toBeUndefined()
    expect(dec(term('4-1'))).toBeUndefined()
    expect(dec(term(' 12.50 '))!.toString()).toBe('12.5')
  })
})

describe('rules on an official example', () => {
  it('finds nothing wrong with the example itself', () => {
    expect(rules(example)).toEqual([])
  })

  it('BR-CO-15: the amount with VAT off by one cent is reported, with the path of the document', () => {
    const xml = example.replace(
      /(<cbc:TaxInclusiveAmount currencyID="EUR">)([^<]*)/,
      (_m, head: string, amount: string) => `${head}${(Number(amount) + 0.01).toFixed(2)}`,
    )
    const findings = judge(modelFromUbl(readXml(xml)))
    expect(findings.find((finding) => finding.rule === 'BR-CO-15')).toMatchObject({
      flag: 'fatal',
      path: '/Invoice',
      message: expect.stringContaining('[BR-CO-15]'),
    })
    expect(findings.find((finding) => finding.rule === 'BR-CO-16')?.path).toBe(
      '/Invoice/cac:LegalMonetaryTotal',
    )
  })

  it('BR-DEC-18: three decimals in the amount due', () => {
    const xml = example.replace(/(<cbc:PayableAmount currencyID="EUR">)([^<]*)/, '$1$20')
    expect(rules(xml)).toContain('BR-DEC-18')
  })
})
