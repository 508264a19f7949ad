import { parse } from 'csv-parse/sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startApi, type TestApi } from '../../support/api.ts'
import { type DevClients, devClients } from '../../support/clients.ts'
import { invoiceOfUnits } from '../../support-invoices/notes.ts'

/**
 * CONTRACT 18: the supplier search CSV with hostile buyer names (the invoice issuer's free text).
 * Every cell holding CR, LF, a comma or a quote is quoted, so each invoice stays one record; every
 * cell whose first visible character starts a formula, or that begins with tab or CR, gets a `'`.
 */

let api: TestApi
let clients: DevClients
beforeAll(async () => {
  api = await startApi()
  clients = devClients(api.url)
})
afterAll(() => api?.close())

/** A buyer of this file only, so the buyer filter finds exactly what it signed. */
const BUYER_TIN = `${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}-0001`

/** Buyer names, and what the CSV cell must read back as. */
const HOSTILE: [name: string, cell: string][] = [
  ["Acme Ltd\n=cmd|' /C calc'!A0", "Acme Ltd\n=cmd|' /C calc'!A0"],
  ["Acme Ltd\r=cmd|' /C calc'!A0", "Acme Ltd\r=cmd|' /C calc'!A0"],
  ['=HYPERLINK("http://evil.example","x")', '\'=HYPERLINK("http://evil.example","x")'],
  ['  =1+1', "'  =1+1"],
  ['\u200B=1+1', "'\u200B=1+1"],
  ['\uFEFF@SUM(A1:A9)', "'\uFEFF@SUM(A1:A9)"],
  ['\u00A0-2+3', "'\u00A0-2+3"],
  ['\u200D \u2060+1', "'\u200D \u2060+1"],
  ['Quote "Q" Ltd, Lagos', 'Quote "Q" Ltd, Lagos'],
  ['Hyphen-ated Ltd', 'Hyphen-ated Ltd'],
]

describe('GET /api/{v}/invoices with Accept: text/csv and hostile buyer names', () => {
  it('quotes line breaks, commas and quotes, and neutralises formulas behind blanks and invisible characters', async () => {
    for (const [name] of HOSTILE) {
      const signed = await clients.app.post<any>(
        '/api/v1/app/invoice/sign',
        invoiceOfUnits(1, undefined, { tin: BUYER_TIN, name }),
      )
      expect(signed.status, JSON.stringify(signed.body)).toBe(200)
    }
    const reply = await clients.si.get<string>(`/api/v1/invoices?buyer_tin=${BUYER_TIN}&size=1000`, {
      accept: 'text/csv',
    })
    expect(reply.status).toBe(200)
    const text = reply.body
    // One record per invoice: no cell broke out of its row.
    const rows = parse(text, { columns: true }) as Record<string, string>[]
    expect(rows).toHaveLength(HOSTILE.length)
    expect(rows.map((r) => r.buyer_name).sort()).toEqual(HOSTILE.map(([, cell]) => cell).sort())
    for (const row of rows) expect(row.buyer_tin).toBe(BUYER_TIN)
    // Outside quoted cells, no line of the text starts a formula.
    const unquoted = text.replaceAll(/"(?:[^"]|"")*"/g, '""')
    for (const line of unquoted.split(/\r\n|\r|\n/)) {
      expect(line).not.toMatch(/^[\s\p{Cf}]*[=+\-@]/u)
      for (const cell of line.split(',')) expect(cell).not.toMatch(/^[\s\p{Cf}]*[=+\-@]/u)
    }
  })
})
