/**
 * EN 16931 rules (issue 36): the time of judge() on invoices of 100 and 1,000 lines, against the
 * official UBL validation artefact (XSLT 2.0) run by Saxon-HE over the same documents. The invoices
 * are the official example ubl-tc434-example1 with its lines repeated (ids renumbered) and the
 * totals and VAT breakdown made to add up, so that both judges find nothing wrong.
 *
 * Run: npx tsx bench/en16931.ts (Saxon-HE from /usr/share/java/Saxon-HE.jar, Debian's libsaxonhe-java)
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readXml } from '#lib/documents/xml-reader.ts'
import { modelFromUbl } from '#lib/en16931/from-ubl.ts'
import { judge } from '#lib/en16931/judge.ts'

const fixtures = new URL('../test/fixtures/en16931/', import.meta.url).pathname
const xslt = join(fixtures, 'EN16931-UBL-validation.xslt')
const example = readFileSync(join(fixtures, 'en16931/ubl-tc434-example1.xml'), 'utf8')

/** The example with `count` lines: one line of 100.00 at 25% repeated; totals and breakdown to match. */
function invoiceOf(count: number): string {
  const line = (n: number) =>
    `<cac:InvoiceLine><cbc:ID>${n}</cbc:ID><cbc:InvoicedQuantity unitCode="C62">1</cbc:InvoicedQuantity>` +
    `<cbc:LineExtensionAmount currencyID="EUR">100.00</cbc:LineExtensionAmount><cac:Item><cbc:Name>Item ${n}</cbc:Name>` +
    `<cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>25</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme>` +
    `</cac:ClassifiedTaxCategory></cac:Item><cac:Price><cbc:PriceAmount currencyID="EUR">100.00</cbc:PriceAmount></cac:Price></cac:InvoiceLine>`
  const net = (count * 100).toFixed(2)
  const tax = (count * 25).toFixed(2)
  const gross = (count * 125).toFixed(2)
  const head = example.slice(0, example.search(/<cac:(AllowanceCharge|TaxTotal)>/))
  return `${head}<cac:TaxTotal><cbc:TaxAmount currencyID="EUR">${tax}</cbc:TaxAmount><cac:TaxSubtotal>
<cbc:TaxableAmount currencyID="EUR">${net}</cbc:TaxableAmount><cbc:TaxAmount currencyID="EUR">${tax}</cbc:TaxAmount>
<cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>25</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory>
</cac:TaxSubtotal></cac:TaxTotal><cac:LegalMonetaryTotal><cbc:LineExtensionAmount currencyID="EUR">${net}</cbc:LineExtensionAmount>
<cbc:TaxExclusiveAmount currencyID="EUR">${net}</cbc:TaxExclusiveAmount><cbc:TaxInclusiveAmount currencyID="EUR">${gross}</cbc:TaxInclusiveAmount>
<cbc:PayableAmount currencyID="EUR">${gross}</cbc:PayableAmount></cac:LegalMonetaryTotal>
${Array.from({ length: count }, (_, i) => line(i + 1)).join('\n')}</Invoice>`
}

const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6
const median = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!

function timed(fn: () => unknown, runs: number): number {
  for (let i = 0; i < 5; i++) fn()
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint()
    fn()
    times.push(ms(start))
  }
  return median(times)
}

function saxon(xml: string): { wall: number; fired: number } {
  const folder = mkdtempSync(join(tmpdir(), 'en16931-bench-'))
  try {
    writeFileSync(join(folder, 'in.xml'), xml)
    const start = process.hrtime.bigint()
    execFileSync('java', [
      '-cp',
      '/usr/share/java/Saxon-HE.jar',
      'net.sf.saxon.Transform',
      `-s:${join(folder, 'in.xml')}`,
      `-xsl:${xslt}`,
      `-o:${join(folder, 'out.xml')}`,
    ])
    const wall = ms(start)
    const fired = [...readFileSync(join(folder, 'out.xml'), 'utf8').matchAll(/<svrl:failed-assert/g)].length
    return { wall, fired }
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}

console.log(
  'lines | readXml + modelFromUbl | judge | findings | Saxon-HE (one JVM, compile + run) | its failed asserts',
)
for (const count of [2, 100, 1000]) {
  const xml = invoiceOf(count)
  const root = readXml(xml)
  const model = modelFromUbl(root)
  const findings = judge(model)
  const read = timed(() => modelFromUbl(readXml(xml)), count > 100 ? 21 : 51)
  const judged = timed(() => judge(model), count > 100 ? 51 : 201)
  const official = saxon(xml)
  console.log(
    `${count} | ${read.toFixed(2)} ms | ${judged.toFixed(3)} ms | ${findings.length} | ${official.wall.toFixed(0)} ms | ${official.fired}`,
  )
}
