/**
 * UBL in (CONTRACT 22) against the JSON path, for the same invoice of 100 and 1,000 lines: the CPU
 * time of what the validate and sign endpoints do per request before touching the database. JSON:
 * the body parse and validateInvoice. XML: the read (saxes), the UBL 2.1 schema check, the mapping
 * and the same validateInvoice. The targets: 150 ms for 100 lines, 1 s for 1,000 (issue 36).
 *
 * Run: npx tsx bench/ubl-in.ts
 */
import { readFileSync } from 'node:fs'
import { ublOf } from '#lib/documents/ubl.ts'
import { invoiceFromUbl } from '#lib/documents/ubl-in.ts'
import { parseJsonBody } from '#lib/platform/http/json-body.ts'
import { buildCodeLists } from '#lib/invoice/code-lists.ts'
import { validateInvoice } from '#lib/invoice/validate.ts'
import { bundledLists } from '#lib/reference/manifest.ts'
import { DEV } from '../scripts/local/dev-credentials.ts'
import { invoiceOfLines } from '../test/fixtures/invoices/build.ts'

const dataDir = new URL('../data/reference/', import.meta.url)
const lists = buildCodeLists((name) => ({
  rows: JSON.parse(readFileSync(new URL(bundledLists[name].file, dataDir), 'utf8')) as unknown[],
  complete: bundledLists[name].complete,
}))
const options = { version: 'v1', mode: 'strict', lists, serviceId: DEV.supplier.serviceId } as const

/** Median CPU milliseconds (user + system) of `fn` over `runs` runs, after `warmup`. */
function cpuMedian(fn: () => void, runs: number, warmup: number): number {
  const times: number[] = []
  for (let i = 0; i < warmup + runs; i++) {
    const start = process.cpuUsage()
    fn()
    const used = process.cpuUsage(start)
    if (i >= warmup) times.push((used.user + used.system) / 1000)
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!
}

const TARGET_MS: Record<number, number> = { 100: 150, 1000: 1000 }
for (const lines of [100, 1000]) {
  const invoice = invoiceOfLines(lines)
  const json = JSON.stringify(invoice)
  const xml = ublOf(invoice)
  const read = invoiceFromUbl(xml)
  if (!read.ok || !validateInvoice(read.invoice, options).ok)
    throw new Error(`the ${lines}-line UBL is not valid`)
  const runs = lines >= 1000 ? 30 : 100
  const jsonMs = cpuMedian(() => validateInvoice(parseJsonBody(json), options), runs, 5)
  const xmlMs = cpuMedian(
    () => {
      const r = invoiceFromUbl(xml)
      if (r.ok) validateInvoice(r.invoice, options)
    },
    runs,
    5,
  )
  console.log(
    `${String(lines).padStart(5)} lines  JSON ${(json.length / 1024).toFixed(0)} KB ${jsonMs.toFixed(1)} ms CPU  ` +
      `XML ${(xml.length / 1024).toFixed(0)} KB ${xmlMs.toFixed(1)} ms CPU  (target ${TARGET_MS[lines]} ms: ${xmlMs <= TARGET_MS[lines]! ? 'met' : 'MISSED'})`,
  )
}
