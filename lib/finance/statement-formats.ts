import { leaf, node, XML_DECLARATION } from '#lib/documents/xml.ts'
import type { AccountServicer } from './account-servicer.ts'
import type { StatementEntry } from '#lib/merchant-history/items.ts'
import { ApiError } from '#lib/platform/http/errors.ts'
import { formatNaira, koboToNaira } from '#lib/platform/money.ts'
import { csvText, spreadsheetText } from '#lib/platform/text/csv.ts'
import { lagosLocalIso, lagosWithOffset } from '#lib/platform/time.ts'
import type { StatementFormat, StatementPage } from './statement-range.ts'

/**
 * A statement page (lib/finance/statement-range.ts) in each format an accounting tool imports
 * (CONTRACT 20): JSON (the Area C envelope's data), CSV (the service's one CSV writer), ISO 20022
 * camt.053.001.08 and SWIFT MT940. Every form carries the opening balance, every entry and the
 * closing balance; nothing in it depends on the moment it is made once the period is over (a past
 * period's export is the same bytes every time).
 */

/** The media type each format is sent as. */
export const STATEMENT_MEDIA: Record<StatementFormat, string> = {
  json: 'application/json',
  csv: 'text/csv; charset=utf-8; header=present',
  camt053: 'application/xml; charset=utf-8',
  mt940: 'text/plain; charset=utf-8',
}

/** The Accept ranges that take each format (besides `*\/*`). */
const ACCEPTED_BY: Record<StatementFormat, string[]> = {
  json: ['application/json', 'application/*'],
  csv: ['text/csv', 'text/*'],
  camt053: ['application/xml', 'text/xml', 'application/*', 'text/*'],
  mt940: ['text/plain', 'text/*'],
}

/** A media type that names one format. */
const NAMED: Record<string, StatementFormat> = {
  'application/json': 'json',
  'text/csv': 'csv',
  'application/xml': 'camt053',
  'text/xml': 'camt053',
  'text/plain': 'mt940',
}
const STATEMENT_FORMATS_IN_ORDER: StatementFormat[] = ['json', 'csv', 'camt053', 'mt940']

/** The media ranges of an Accept header with q > 0, best first (ties in the order given). */
function rangesOf(accept: string): string[] {
  return accept
    .split(',')
    .map((range, i) => {
      const [type = '', ...params] = range.split(';').map((part) => part.trim().toLowerCase())
      const q = Number(params.find((p) => p.startsWith('q='))?.slice(2) ?? 1)
      return { type, q: Number.isFinite(q) ? q : 0, i }
    })
    .filter((r) => r.type && r.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((r) => r.type)
}

/** 406 in the merchant area's error record, with a code: no form of the statement the caller accepts. */
const notAcceptable = (message: string) =>
  new ApiError(406, message, {
    problems: [{ path: 'header/accept', code: 'STATEMENT_FORMAT_NOT_ACCEPTABLE', message }],
  })

/**
 * The format to send: `format=` when given (then Accept must allow it, else 406), else the first
 * Accept range that names one (text/csv, application/xml, text/plain, application/json), else JSON.
 * `*\/*` or no Accept is JSON, as before.
 */
export function negotiateFormat(
  format: StatementFormat | undefined,
  accept: string | undefined,
): StatementFormat {
  const ranges = accept ? rangesOf(accept) : []
  const takes = (f: StatementFormat) =>
    ranges.length === 0 || ranges.some((r) => r === '*/*' || ACCEPTED_BY[f].includes(r))
  if (format) {
    if (!takes(format))
      throw notAcceptable(
        `format=${format} is sent as ${STATEMENT_MEDIA[format].split(';')[0]}, which Accept (${accept}) does not allow: drop one of the two or make them agree`,
      )
    return format
  }
  // The caller's best range decides; a wildcard is the first format it covers (json before the rest).
  for (const range of ranges) {
    if (range === '*/*') return 'json'
    const named = NAMED[range] ?? STATEMENT_FORMATS_IN_ORDER.find((f) => ACCEPTED_BY[f].includes(range))
    if (named) return named
  }
  if (ranges.length === 0) return 'json'
  throw notAcceptable(
    `none of Accept (${accept}) is a statement format: ask for application/json, text/csv, application/xml (camt.053) or text/plain (MT940), or use format=`,
  )
}

/** The time a statement of a period is "as of": its end once over, else now (deterministic when past). */
export function statementAsOf(page: StatementPage, now = new Date()): string {
  const end = `${page.to}T23:59:59.999`
  const current = lagosLocalIso(now)
  return current < end ? current : end
}

// ---- JSON -------------------------------------------------------------------------------------

export function statementJson(page: StatementPage) {
  const credits = page.entries.filter((e) => e.amountKobo > 0)
  const debits = page.entries.filter((e) => e.amountKobo < 0)
  const sum = (list: StatementEntry[]) => list.reduce((n, e) => n + e.amountKobo, 0)
  return {
    merchantId: page.merchantId,
    currency: page.currency,
    from: page.from,
    to: page.to,
    openingBalance: koboToNaira(page.openingKobo),
    entries: page.entries.map((e) => ({
      seq: e.seq,
      bookedAt: lagosWithOffset(e.bookedAt),
      valueAt: lagosWithOffset(e.valueAt),
      type: e.kind,
      creditDebit: e.amountKobo > 0 ? 'CREDIT' : 'DEBIT',
      amount: koboToNaira(e.amountKobo),
      currency: e.currency,
      balanceAfter: koboToNaira(e.balanceAfterKobo),
      providerReference: e.providerReference,
      merchantReference: e.merchantReference,
      accountNumber: e.accountNumber,
    })),
    closingBalance: koboToNaira(page.closingKobo),
    totals: {
      count: page.entries.length,
      credits: { count: credits.length, amount: koboToNaira(sum(credits)) },
      debits: { count: debits.length, amount: koboToNaira(-sum(debits)) },
    },
    page: { number: page.page, last: page.last, next: page.next ?? null },
  }
}

// ---- CSV --------------------------------------------------------------------------------------

export const STATEMENT_CSV_COLUMNS = [
  'booked_at',
  'value_at',
  'entry',
  'amount',
  'currency',
  'balance',
  'provider_reference',
  'merchant_reference',
  'account_number',
  'seq',
] as const

/**
 * One row per entry between an opening and a closing balance row: OPENING_BALANCE and
 * CLOSING_BALANCE on a whole period, BROUGHT_FORWARD and CARRIED_FORWARD where a page starts or ends
 * inside it. Amounts signed (credit +, debit -) with two decimals; times ISO 8601 with their offset.
 */
export function statementCsv(page: StatementPage): string {
  const opening = page.page === 1 ? 'OPENING_BALANCE' : 'BROUGHT_FORWARD'
  const closing = page.last ? 'CLOSING_BALANCE' : 'CARRIED_FORWARD'
  const start = lagosWithOffset(`${page.from}T00:00:00`)
  const end = lagosWithOffset(
    page.last ? `${page.to}T23:59:59` : (page.entries.at(-1)?.bookedAt ?? `${page.to}T23:59:59`),
  )
  const balanceRow = (entry: string, at: string, kobo: number) => [
    at,
    at,
    entry,
    '',
    page.currency,
    formatNaira(kobo),
    '',
    '',
    '',
    '',
  ]
  return csvText(
    [
      balanceRow(
        opening,
        page.page === 1 ? start : lagosWithOffset(page.entries[0]?.bookedAt ?? `${page.from}T00:00:00`),
        page.openingKobo,
      ),
      ...page.entries.map((e) => [
        lagosWithOffset(e.bookedAt),
        lagosWithOffset(e.valueAt),
        e.kind,
        formatNaira(e.amountKobo),
        e.currency,
        formatNaira(e.balanceAfterKobo),
        e.providerReference,
        e.merchantReference,
        spreadsheetText(e.accountNumber),
        String(e.seq),
      ]),
      balanceRow(closing, end, page.closingKobo),
    ],
    { columns: STATEMENT_CSV_COLUMNS },
  )
}

// ---- camt.053.001.08 --------------------------------------------------------------------------

const CAMT_NAMESPACE = 'urn:iso:std:iso:20022:tech:xsd:camt.053.001.08'
const compactDay = (day: string) => day.replaceAll('-', '')
/** Max35Text: the statement's identification, `STMT<from><to>P<page>`. */
const statementId = (page: StatementPage) => `STMT${compactDay(page.from)}${compactDay(page.to)}P${page.page}`
/** ISO 20022 amounts are unsigned, their direction in CdtDbtInd. */
const unsigned = (kobo: number) => formatNaira(Math.abs(kobo))
const direction = (kobo: number) => (kobo < 0 ? 'DBIT' : 'CRDT')
/** Max35Text fields take at most 35 characters; a longer value is left to the free text. */
const max35 = (value: string) => (value.length >= 1 && value.length <= 35 ? value : undefined)

function camtBalance(code: string, kobo: number, day: string): string {
  return node('Bal', [
    node('Tp', [node('CdOrPrtry', [leaf('Cd', code)])]),
    leaf('Amt', unsigned(kobo), { Ccy: 'NGN' }),
    leaf('CdtDbtInd', direction(kobo)),
    node('Dt', [leaf('Dt', day)]),
  ])
}

function camtEntry(e: StatementEntry): string {
  return node('Ntry', [
    leaf('NtryRef', String(e.seq)),
    leaf('Amt', unsigned(e.amountKobo), { Ccy: e.currency }),
    leaf('CdtDbtInd', direction(e.amountKobo)),
    e.kind === 'REVERSAL' ? leaf('RvslInd', 'true') : '',
    node('Sts', [leaf('Cd', 'BOOK')]),
    node('BookgDt', [leaf('DtTm', lagosWithOffset(e.bookedAt))]),
    node('ValDt', [leaf('DtTm', lagosWithOffset(e.valueAt))]),
    leaf('AcctSvcrRef', max35(e.providerReference)),
    node('BkTxCd', [node('Prtry', [leaf('Cd', e.kind)])]),
    node('NtryDtls', [
      node('TxDtls', [
        node('Refs', [
          leaf('AcctSvcrRef', max35(e.providerReference)),
          leaf('EndToEndId', max35(e.merchantReference)),
        ]),
      ]),
    ]),
    leaf(
      'AddtlNtryInf',
      `${e.kind === 'TRANSFER' ? 'Transfer' : 'Reversal of transfer'} ${e.providerReference}, merchant reference ${e.merchantReference}, account ${e.accountNumber}`.slice(
        0,
        500,
      ),
    ),
  ])
}

/**
 * ISO 20022 BankToCustomerStatementV08, valid against camt.053.001.08.xsd (test/fixtures/iso20022):
 * one Stmt for the merchant's collections account (Othr/Id = the merchant id, serviced by the
 * operator's institution: lib/finance/account-servicer.ts), the opening balance (OPBD, or ITBD
 * brought forward on a later page), the entries and the closing balance (CLBD, or ITBD on a page
 * that does not end the period), paged with MsgPgntn.
 */
export function statementCamt053(
  page: StatementPage,
  servicer: AccountServicer | undefined,
  now = new Date(),
): string {
  const asOf = lagosWithOffset(statementAsOf(page, now))
  const id = statementId(page)
  const pagination = [leaf('PgNb', String(page.page)), leaf('LastPgInd', String(page.last))]
  const statement = node('Stmt', [
    leaf('Id', id),
    node('StmtPgntn', pagination),
    leaf('CreDtTm', asOf),
    node('FrToDt', [
      leaf('FrDtTm', lagosWithOffset(`${page.from}T00:00:00`)),
      leaf('ToDtTm', lagosWithOffset(`${page.to}T23:59:59`)),
    ]),
    node('Acct', [
      node('Id', [node('Othr', [leaf('Id', page.merchantId.slice(0, 34))])]),
      leaf('Ccy', page.currency),
      servicer ? camtServicer(servicer) : '',
    ]),
    camtBalance(page.page === 1 ? 'OPBD' : 'ITBD', page.openingKobo, openingDay(page)),
    camtBalance(page.last ? 'CLBD' : 'ITBD', page.closingKobo, closingDay(page)),
    camtSummary(page),
    ...page.entries.map(camtEntry),
  ])
  const header = node('GrpHdr', [leaf('MsgId', id), leaf('CreDtTm', asOf), node('MsgPgntn', pagination)])
  return `${XML_DECLARATION}${node('Document', [node('BkToCstmrStmt', [header, statement])], { xmlns: CAMT_NAMESPACE })}\n`
}

/** Acct/Svcr: the institution holding the account, in the XSD's order (BICFI, Nm, Othr). */
const camtServicer = (servicer: AccountServicer): string =>
  node('Svcr', [
    node('FinInstnId', [
      leaf('BICFI', servicer.bic ?? undefined),
      leaf('Nm', servicer.name),
      node('Othr', [leaf('Id', servicer.institutionId)]),
    ]),
  ])

/** The day a page's opening balance is dated: the period's first day, or its first entry's. */
const openingDay = (page: StatementPage) =>
  page.page === 1 ? page.from : (page.entries[0]?.bookedAt.slice(0, 10) ?? page.from)
/** The day a page's closing balance is dated: the period's last day, or its last entry's. */
const closingDay = (page: StatementPage) =>
  page.last ? page.to : (page.entries.at(-1)?.bookedAt.slice(0, 10) ?? page.to)

/** TxsSummry: the entries' count and sum, net, and the credits' and debits' apart. */
function camtSummary(page: StatementPage): string {
  const credits = page.entries.filter((e) => e.amountKobo > 0)
  const debits = page.entries.filter((e) => e.amountKobo < 0)
  const sum = (list: StatementEntry[]) => formatNaira(list.reduce((n, e) => n + Math.abs(e.amountKobo), 0))
  const net = page.closingKobo - page.openingKobo
  return node('TxsSummry', [
    node('TtlNtries', [
      leaf('NbOfNtries', String(page.entries.length)),
      leaf('Sum', sum(page.entries)),
      node('TtlNetNtry', [leaf('Amt', unsigned(net)), leaf('CdtDbtInd', direction(net))]),
    ]),
    node('TtlCdtNtries', [leaf('NbOfNtries', String(credits.length)), leaf('Sum', sum(credits))]),
    node('TtlDbtNtries', [leaf('NbOfNtries', String(debits.length)), leaf('Sum', sum(debits))]),
  ])
}

// ---- MT940 ------------------------------------------------------------------------------------

/** SWIFT's x character set; anything else becomes a full stop. */
const swift = (value: string) => value.replace(/[^A-Za-z0-9/\-?:().,'+ ]/g, '.')
const yymmdd = (day: string) => day.slice(2, 4) + day.slice(5, 7) + day.slice(8, 10)
const mmdd = (day: string) => day.slice(5, 7) + day.slice(8, 10)
/** MT940 amounts: unsigned, decimal comma, e.g. 1500,00. */
const mtAmount = (kobo: number) => unsigned(kobo).replace('.', ',')
const mtBalance = (tag: string, kobo: number, day: string) =>
  `:${tag}:${kobo < 0 ? 'D' : 'C'}${yymmdd(day)}NGN${mtAmount(kobo)}`
/** A reference subfield (16x, no `//`, not starting or ending with `/`): else NONREF. */
const mtReference = (value: string) =>
  /^[A-Za-z0-9][A-Za-z0-9\-?:().,'+ ]{0,14}[A-Za-z0-9]?$/.test(value) && value.length <= 16 ? value : 'NONREF'

/**
 * SWIFT MT940 (customer statement), lines CRLF: :20: the statement's reference, :25: the merchant's
 * account, :28C: statement/page, :60F: (or :60M: brought forward) the opening balance, one :61: and
 * :86: per entry, :62F: (or :62M:) the closing balance. A reversal is a plain `D` (a debit), told
 * apart by its type NRTI and its :86: text, not by SWIFT's `RC` mark: importers read `D` alike, and
 * several read `RC` as a credit or refuse it (docs/finance.md, "MT940 reversal mark").
 * Parsed back by mt940js, @centrapay/swift-parser and mt940-js in the tests.
 */
export function statementMt940(page: StatementPage): string {
  const lines = [
    `:20:S${yymmdd(page.from)}${yymmdd(page.to)}`,
    `:25:${swift(page.merchantId).slice(0, 35)}`,
    `:28C:1/${page.page}`,
    mtBalance(page.page === 1 ? '60F' : '60M', page.openingKobo, openingDay(page)),
  ]
  for (const e of page.entries) {
    const mark = e.amountKobo < 0 ? 'D' : 'C'
    lines.push(
      `:61:${yymmdd(e.valueAt.slice(0, 10))}${mmdd(e.bookedAt.slice(0, 10))}${mark}${mtAmount(e.amountKobo)}${e.kind === 'REVERSAL' ? 'NRTI' : 'NTRF'}${mtReference(e.merchantReference)}//${mtReference(e.providerReference)}`,
      `:86:${swift(`${e.kind} ${e.providerReference} REF ${e.merchantReference} ACCT ${e.accountNumber}`).slice(0, 65)}`,
    )
  }
  lines.push(mtBalance(page.last ? '62F' : '62M', page.closingKobo, closingDay(page)))
  return `${lines.join('\r\n')}\r\n-\r\n`
}
