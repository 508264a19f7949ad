import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { PutCommand } from '@aws-sdk/lib-dynamodb'
import { CashManagementEndOfDayReport } from 'iso20022.js'
import { read as readMt940 } from 'mt940-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as XLSX from 'xlsx'
import { validateXML } from 'xmllint-wasm'
import { ApiClient } from '#client/api-client.ts'
import { accountServicer } from '#lib/finance/account-servicer.ts'
import { statementCamt053, statementMt940 } from '#lib/finance/statement-formats.ts'
import { statementPage } from '#lib/finance/statement-range.ts'
import { addMerchant } from '#lib/ledger/repository.ts'
import { type IndexedTransfer, indexTransfers } from '#lib/merchant-history/indexer.ts'
import { issueMerchantToken } from '#lib/platform/auth/credentials.ts'
import { db, tableName } from '#lib/platform/db/client.ts'
import { keys } from '#lib/platform/db/keys.ts'
import { startApi, type TestApi } from '../../support/api.ts'

/**
 * The statement of entries over a range (CONTRACT 20), against the local server. The ledger's
 * records are fed to the history indexer (the stream's own handler code) with the times chosen
 * here, so a reversal can land on a later day than its transfer, as it does in life.
 */

const require = createRequire(import.meta.url)
const mt940js = require('mt940js') as {
  Parser: new () => {
    parse(text: string): {
      openingBalance: number
      closingBalance: number
      currency: string
      transactions: { amount: number; reversal?: boolean; isReversal?: boolean; bankReference: string }[]
    }[]
  }
}
const swiftParser = require('@centrapay/swift-parser') as {
  parse(input: { type: 'mt940'; data: string; validate?: boolean }): {
    openingBalance: { toString(): string }
    closingBalance: { toString(): string }
    transactions: { amount: { toString(): string }; transactionType: string; bankReference: string }[]
  }[]
}
const CAMT_XSD = readFileSync(new URL('../../fixtures/iso20022/camt.053.001.08.xsd', import.meta.url), 'utf8')

/** mt940-js (webschik): amounts unsigned, the direction in isCredit; opening + entries in kobo. */
async function mt940jsBalance(text: string) {
  const [statement] = await readMt940(Buffer.from(text))
  const signed = (b: { isCredit: boolean; amount?: number; value?: number }) =>
    (b.isCredit ? 1 : -1) * kobo(b.amount ?? b.value ?? Number.NaN)
  return {
    opening: signed(statement!.openingBalance!),
    entries: statement!.transactions.map(signed),
    closing: signed(statement!.closingBalance!),
  }
}

const PATH = '/api/v1/merchant/statement'
const MERCHANT = 'MRC-STMT-1'
let api: TestApi
let merchant: ApiClient
beforeAll(async () => {
  api = await startApi()
  await addMerchant({ merchantId: MERCHANT, name: 'Statement merchant' })
  const { token } = await issueMerchantToken({ merchantId: MERCHANT })
  merchant = new ApiClient(api.url, { area: 'bearer', token, headers: { 'x-merchant-id': MERCHANT } })
})
afterAll(() => api?.close())

let n = 0
/** A ledger transfer record as the stream carries it, with its providerReference pointer in the table. */
async function ledgerTransfer(
  createdAt: string,
  amountKobo: number,
  status: 'SUCCESSFUL' | 'FAILED' = 'SUCCESSFUL',
): Promise<IndexedTransfer> {
  n++
  const providerReference = `TNX${String(990000 + n)}`
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.providerReference(providerReference),
        entity: 'PROVIDER_REFERENCE',
        merchantId: MERCHANT,
      },
    }),
  )
  return {
    switchClientId: 'SWITCH-STMT',
    requestId: `REQ-STMT-${n}`,
    merchantId: MERCHANT,
    merchantReference: `INV-${n}`,
    providerReference,
    // A leading zero, which a spreadsheet would drop from a number.
    accountNumber: '0123456789',
    amountKobo,
    productCode: 'PAY',
    responseCode: status === 'FAILED' ? '51' : '00',
    status,
    createdAt,
  }
}

const get = (search: string, accept = '*/*') =>
  merchant.request('GET', `${PATH}${search}`, undefined, { accept })

interface JsonStatement {
  openingBalance: number
  closingBalance: number
  entries: { type: string; amount: number; bookedAt: string; balanceAfter: number; accountNumber: string }[]
  page: { number: number; last: boolean; next: string | null }
}
const kobo = (naira: number) => Math.round(naira * 100)

let t1: IndexedTransfer
const before: Record<string, string> = {}

describe('GET /api/v1/merchant/statement: the statement of entries over a range', () => {
  beforeAll(async () => {
    t1 = await ledgerTransfer('2026-01-05T10:00:00.000', 15_000)
    const failed = await ledgerTransfer('2026-01-05T12:30:00.000', 2_050, 'FAILED')
    const t3 = await ledgerTransfer('2026-01-06T09:00:00.000', 9_999)
    expect((await indexTransfers([t1, failed, t3])).failed.size).toBe(0)
    // Day 1 exported in every format before the reversal.
    for (const format of ['csv', 'camt053', 'mt940'])
      before[format] = (await get(`?from=2026-01-05&to=2026-01-05&format=${format}`)).text
    // The transfer of day 1 is reversed on day 3.
    const reversal = { ...t1, status: 'REVERSED' as const, reversedAt: '2026-01-07T08:00:00.000' }
    expect((await indexTransfers([reversal])).failed.size).toBe(0)
  })

  it('books the reversal as its own debit on the day it happened: opening + entries = closing', async () => {
    const reply = await get('?from=2026-01-05&to=2026-01-07')
    expect(reply.status).toBe(200)
    const data = (reply.body as { data: JsonStatement }).data
    expect(data.openingBalance).toBe(0)
    expect(data.entries.map((e) => [e.type, e.amount, e.bookedAt])).toEqual([
      ['TRANSFER', 150, '2026-01-05T10:00:00+01:00'],
      ['TRANSFER', 99.99, '2026-01-06T09:00:00+01:00'],
      ['REVERSAL', -150, '2026-01-07T08:00:00+01:00'],
    ])
    expect(data.entries.map((e) => e.balanceAfter)).toEqual([150, 249.99, 99.99])
    const sum = data.entries.reduce((s, e) => s + kobo(e.amount), kobo(data.openingBalance))
    expect(sum).toBe(kobo(data.closingBalance))
    expect(data.closingBalance).toBe(99.99)
    expect(data.page).toEqual({ number: 1, last: true, next: null })
  })

  it('opens a later period with the balance its entries left', async () => {
    const data = ((await get('?from=2026-01-06&to=2026-01-07')).body as { data: JsonStatement }).data
    expect(data.openingBalance).toBe(150)
    expect(data.entries).toHaveLength(2)
    expect(data.closingBalance).toBe(99.99)
  })

  it("leaves the earlier day's export byte for byte as it was, in every format", async () => {
    for (const format of ['csv', 'camt053', 'mt940']) {
      const after = await get(`?from=2026-01-05&to=2026-01-05&format=${format}`)
      expect(after.status).toBe(200)
      expect(after.text, format).toBe(before[format])
    }
    // And its day totals: the transfer still counts as successful on its day, the reversal on its own.
    const day1 = (await get('?date=2026-01-05', 'application/json')).body as { data: unknown }
    expect(day1.data).toMatchObject({ successful: { count: 1, amount: 150 }, reversed: { count: 0 } })
    const day3 = (await get('?date=2026-01-07', 'application/json')).body as { data: unknown }
    expect(day3.data).toMatchObject({
      successful: { count: 0 },
      reversed: { count: 1, amount: 150 },
      net: -150,
    })
  })

  it('answers CSV with a currency column, times with their offset and the balances around the entries', async () => {
    const reply = await get('?from=2026-01-05&to=2026-01-07', 'text/csv')
    expect(reply.status).toBe(200)
    expect(reply.headers.get('content-type')).toMatch(/^text\/csv/)
    const lines = reply.text.trimEnd().split('\r\n')
    expect(lines[0]).toBe(
      'booked_at,value_at,entry,amount,currency,balance,provider_reference,merchant_reference,account_number,seq',
    )
    expect(lines[1]).toBe('2026-01-05T00:00:00+01:00,2026-01-05T00:00:00+01:00,OPENING_BALANCE,,NGN,0.00,,,,')
    expect(lines[2]).toMatch(
      /^2026-01-05T10:00:00\+01:00,2026-01-05T10:00:00\+01:00,TRANSFER,150\.00,NGN,150\.00,TNX\d+,INV-\d+,"=""0123456789""",1$/,
    )
    expect(lines[4]).toMatch(
      /^2026-01-07T08:00:00\+01:00,2026-01-07T08:00:00\+01:00,REVERSAL,-150\.00,NGN,99\.99,/,
    )
    expect(lines[5]).toBe(
      '2026-01-07T23:59:59+01:00,2026-01-07T23:59:59+01:00,CLOSING_BALANCE,,NGN,99.99,,,,',
    )
  })

  it('reads in a spreadsheet with the account number as text, its leading zero kept', async () => {
    const csv = (await get('?from=2026-01-05&to=2026-01-07&format=csv')).text
    const sheet = XLSX.read(csv, { type: 'string' }).Sheets.Sheet1!
    // Row 3 is the first entry (row 1 the header, row 2 the opening balance); column I the account.
    expect(sheet.I3).toMatchObject({ t: 's', v: '0123456789' })
    expect(sheet.E3).toMatchObject({ t: 's', v: 'NGN' })
    expect(sheet.D3).toMatchObject({ t: 'n', v: 150 })
  })

  it('answers camt.053.001.08 valid against the ISO 20022 schema', async () => {
    const reply = await get('?from=2026-01-05&to=2026-01-07', 'application/xml')
    expect(reply.status).toBe(200)
    expect(reply.headers.get('content-type')).toMatch(/^application\/xml/)
    const result = await validateXML({
      xml: [{ fileName: 'statement.xml', contents: reply.text }],
      schema: [{ fileName: 'camt.053.001.08.xsd', contents: CAMT_XSD }],
    })
    expect(result.errors.map((e) => e.message)).toEqual([])
    expect(result.valid).toBe(true)
    expect(reply.text).toContain(
      '<Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="NGN">0.00</Amt><CdtDbtInd>CRDT</CdtDbtInd>',
    )
    expect(reply.text).toContain(
      '<Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="NGN">99.99</Amt><CdtDbtInd>CRDT</CdtDbtInd>',
    )
    expect(reply.text).toContain(
      '<Amt Ccy="NGN">150.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><RvslInd>true</RvslInd>',
    )
    expect(reply.text.match(/<Ntry>/g)).toHaveLength(3)
  })

  it("names the operator's institution as the account's servicer, so iso20022.js reads and balances it", async () => {
    const reply = await get('?from=2026-01-05&to=2026-01-07&format=camt053', 'application/xml')
    // The dev stage's setting (infra/stages/dev.json), as npm start and the dev stage give it.
    const servicer = accountServicer()!
    expect(reply.text).toContain(
      `<Ccy>NGN</Ccy><Svcr><FinInstnId><Nm>${servicer.name}</Nm><Othr><Id>${servicer.institutionId}</Id></Othr></FinInstnId></Svcr></Acct>`,
    )
    // A third reader nobody here chose: it throws on a statement without Acct/Svcr.
    const report = CashManagementEndOfDayReport.fromXML(reply.text)
    const [statement] = report.statements
    const signed = (x: { amount: number; creditDebitIndicator: string }) =>
      (x.creditDebitIndicator === 'credit' ? 1 : -1) * x.amount
    const balance = (type: string) => signed(statement!.balances.find((b) => b.type === type)!)
    const entries = report.entries.map(signed)
    expect(entries).toEqual([15_000, 9_999, -15_000])
    expect(balance('OPBD') + entries.reduce((sum, x) => sum + x, 0)).toBe(balance('CLBD'))
    expect(balance('CLBD')).toBe(9_999)
  })

  it('answers MT940 that three independent parsers read back, balanced to the kobo with every entry', async () => {
    const reply = await get('?from=2026-01-05&to=2026-01-07&format=mt940', 'text/plain')
    expect(reply.status).toBe(200)
    const references = [t1.providerReference]
    const [a] = new mt940js.Parser().parse(reply.text)
    expect(a!.transactions.map((t) => kobo(t.amount))).toEqual([15_000, 9_999, -15_000])
    expect(kobo(a!.openingBalance) + a!.transactions.reduce((s, t) => s + kobo(t.amount), 0)).toBe(
      kobo(a!.closingBalance),
    )
    expect(kobo(a!.closingBalance)).toBe(9_999)
    const [b] = swiftParser.parse({ type: 'mt940', data: reply.text, validate: true })
    const bAmounts = b!.transactions.map((t) => kobo(Number(t.amount.toString())))
    expect(bAmounts).toEqual([15_000, 9_999, -15_000])
    expect(kobo(Number(b!.openingBalance.toString())) + bAmounts.reduce((s, x) => s + x, 0)).toBe(
      kobo(Number(b!.closingBalance.toString())),
    )
    expect(b!.transactions[0]!.bankReference).toBe(references[0])
    // The reversal is a plain debit (not RC, which mt940-js and others read as a credit), of type NRTI.
    expect(b!.transactions.map((t) => t.transactionType)).toEqual(['NTRF', 'NTRF', 'NRTI'])
    const c = await mt940jsBalance(reply.text)
    expect(c.entries).toEqual([15_000, 9_999, -15_000])
    expect(c.opening + c.entries.reduce((sum, x) => sum + x, 0)).toBe(c.closing)
    expect(c.closing).toBe(9_999)
  })

  it('pages a long period, each page balanced and the pages together every entry once', async () => {
    const pages = []
    let cursor: string | undefined
    do {
      const page = await statementPage(MERCHANT, { from: '2026-01-01', to: '2026-01-31' }, cursor, 2)
      pages.push(page)
      cursor = page.next
    } while (cursor)
    expect(pages.map((p) => p.entries.length)).toEqual([2, 1])
    expect(pages[0]!.closingKobo).toBe(pages[1]!.openingKobo)
    expect(pages[1]!.closingKobo).toBe(9_999)
    // Each page is a statement of its own in every format: ITBD balances and MsgPgntn in camt.053
    // (still valid), :60M:/:62M: in MT940 (still balanced for both parsers).
    for (const page of pages) {
      const camt = statementCamt053(page, accountServicer())
      const result = await validateXML({
        xml: [{ fileName: 'page.xml', contents: camt }],
        schema: [{ fileName: 'camt.053.001.08.xsd', contents: CAMT_XSD }],
      })
      expect(result.errors.map((e) => e.message)).toEqual([])
      const mt940 = statementMt940(page)
      const [a] = new mt940js.Parser().parse(mt940)
      expect(kobo(a!.openingBalance)).toBe(page.openingKobo)
      expect(kobo(a!.closingBalance)).toBe(page.closingKobo)
      const [b] = swiftParser.parse({ type: 'mt940', data: mt940, validate: true })
      expect(b!.transactions).toHaveLength(page.entries.length)
      const c = await mt940jsBalance(mt940)
      expect([c.opening, c.closing]).toEqual([page.openingKobo, page.closingKobo])
      expect(c.opening + c.entries.reduce((sum, x) => sum + x, 0)).toBe(c.closing)
    }
    expect(statementCamt053(pages[0]!, accountServicer())).toContain('<Cd>ITBD</Cd>')
    expect(statementMt940(pages[1]!)).toContain(':60M:C')
    // Over HTTP, a page's cursor is in the Link header and in data.page.next.
    const first = await get('?from=2026-01-01&to=2026-01-31')
    expect(first.headers.get('link')).toBeNull()
  })

  it('answers 400 with a code past 31 days, and a statement of exactly 31', async () => {
    const tooLong = await get('?from=2026-01-01&to=2026-02-01')
    expect(tooLong.status).toBe(400)
    expect(tooLong.body).toMatchObject({
      responseStatus: 'FAILED',
      errors: [{ path: 'query/to', code: 'STATEMENT_PERIOD_TOO_LONG' }],
    })
    expect((await get('?from=2026-01-01&to=2026-01-31')).status).toBe(200)
    const reversed = await get('?from=2026-01-07&to=2026-01-05')
    expect(reversed.body).toMatchObject({ errors: [{ code: 'STATEMENT_PERIOD_REVERSED' }] })
    const half = await get('?from=2026-01-07')
    expect(half.body).toMatchObject({ errors: [{ code: 'STATEMENT_PERIOD_MISSING' }] })
    const cursor = await get('?from=2026-01-01&to=2026-01-31&cursor=bm90LWEtY3Vyc29y')
    expect(cursor.status).toBe(400)
    expect(cursor.body).toMatchObject({ errors: [{ code: 'STATEMENT_CURSOR_INVALID' }] })
  })

  it('honours Accept: CSV for text/csv on the one-day form, 406 with a code when it conflicts with format=', async () => {
    const csv = await get('?date=2026-01-05', 'text/csv')
    expect(csv.status).toBe(200)
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/)
    expect(csv.text).toContain('OPENING_BALANCE')
    const conflict = await get('?from=2026-01-05&to=2026-01-05&format=csv', 'application/json')
    expect(conflict.status).toBe(406)
    expect(conflict.body).toMatchObject({
      responseStatus: 'FAILED',
      errors: [{ code: 'STATEMENT_FORMAT_NOT_ACCEPTABLE' }],
    })
    const unknown = await get('?from=2026-01-05&to=2026-01-05', 'image/png')
    expect(unknown.status).toBe(406)
  })

  it('keeps one numbering and one running balance when reversals and new transfers are recorded at the same time', async () => {
    let previous = await ledgerTransfer('2026-02-01T08:00:00.000', 1_000)
    expect((await indexTransfers([previous])).failed.size).toBe(0)
    for (let round = 0; round < 6; round++) {
      const next = await ledgerTransfer(`2026-02-0${round + 2}T09:00:00.000`, 1_000 + round)
      const reversal = {
        ...previous,
        status: 'REVERSED' as const,
        reversedAt: `2026-02-0${round + 2}T08:30:00.000`,
      }
      // Two invocations for one merchant at once (two shards): one books a reversal, one a transfer.
      const results = await Promise.all([indexTransfers([reversal]), indexTransfers([next])])
      expect(results.map((r) => r.failed.size)).toEqual([0, 0])
      previous = next
    }
    const page = await statementPage(MERCHANT, { from: '2026-01-01', to: '2026-01-31' }, undefined)
    const feb = await statementPage(MERCHANT, { from: '2026-02-01', to: '2026-02-28' }, undefined)
    expect(feb.openingKobo).toBe(page.closingKobo)
    // 1 + 6 transfers and 6 reversals, numbered on from January's without a gap or a repeat.
    const first = page.entries.at(-1)!.seq + 1
    expect(feb.entries.map((e) => e.seq)).toEqual(Array.from({ length: 13 }, (_, i) => first + i))
    let balance = feb.openingKobo
    for (const e of feb.entries) {
      balance += e.amountKobo
      expect(e.balanceAfterKobo, `entry ${e.seq}`).toBe(balance)
    }
    expect(feb.closingKobo).toBe(page.closingKobo + 1_005)
  })
})
