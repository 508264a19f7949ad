import { describe, expect, it } from 'vitest'
import type { StatementEntry } from '#lib/merchant-history/items.ts'
import {
  negotiateFormat,
  statementCamt053,
  statementCsv,
  statementJson,
  statementMt940,
} from '#lib/finance/statement-formats.ts'
import { STATEMENT_PAGE_ENTRIES, type StatementPage } from '#lib/finance/statement-range.ts'

/**
 * The statement's reply bound (CONTRACT 20): a busy merchant's 31 days are far more entries than one
 * reply holds (at 10 transfers a second, 26.8 million), so a statement is paged. A full page, with
 * every field at its longest (64-character merchant reference, the largest amounts), must stay under
 * Lambda's 6 MB reply in every format; the page size was chosen from these figures.
 */
const LAMBDA_REPLY_BYTES = 6 * 1024 * 1024
/** The account's servicer at its longest (camt.053's Nm and Othr/Id limits). */
const LONGEST_SERVICER = { name: 'N'.repeat(140), bic: 'ABCDNGLA123', institutionId: 'I'.repeat(35) }

function fullPage(): StatementPage {
  const entries: StatementEntry[] = Array.from({ length: STATEMENT_PAGE_ENTRIES }, (_, i) => ({
    entity: 'MERCHANT_STATEMENT_ENTRY',
    merchantId: 'M'.repeat(32),
    seq: 1_000_000_000 + i,
    kind: i % 2 ? 'REVERSAL' : 'TRANSFER',
    amountKobo: (i % 2 ? -1 : 1) * 99_999_999_999_999,
    balanceAfterKobo: Number.MAX_SAFE_INTEGER,
    bookedAt: '2026-01-31T23:59:59.999',
    valueAt: '2026-01-31T23:59:59.999',
    providerReference: `TNX${'9'.repeat(20)}`,
    merchantReference: 'R'.repeat(64),
    accountNumber: '0123456789',
    productCode: 'P'.repeat(20),
    currency: 'NGN',
  }))
  return {
    merchantId: 'M'.repeat(32),
    currency: 'NGN',
    from: '2026-01-01',
    to: '2026-01-31',
    page: 99_999,
    last: false,
    next: 'x'.repeat(120),
    openingKobo: 0,
    closingKobo: 0,
    entries,
  }
}

describe('statement formats: a full page of entries', () => {
  it('stays under the 6 MB Lambda reply in every format', () => {
    const page = fullPage()
    const sizes = {
      json: Buffer.byteLength(JSON.stringify({ data: statementJson(page) })),
      csv: Buffer.byteLength(statementCsv(page)),
      camt053: Buffer.byteLength(statementCamt053(page, LONGEST_SERVICER)),
      mt940: Buffer.byteLength(statementMt940(page)),
    }
    console.info(`statement page of ${STATEMENT_PAGE_ENTRIES} entries, bytes:`, sizes)
    for (const [format, bytes] of Object.entries(sizes))
      expect(bytes, format).toBeLessThan(LAMBDA_REPLY_BYTES / 2)
  })
})

describe('statement formats: the format asked for', () => {
  it.each([
    [undefined, undefined, 'json'],
    [undefined, '*/*', 'json'],
    [undefined, 'text/csv', 'csv'],
    [undefined, 'application/xml', 'camt053'],
    [undefined, 'text/plain', 'mt940'],
    [undefined, 'text/html;q=0.9, text/csv', 'csv'],
    ['mt940', '*/*', 'mt940'],
    ['csv', 'text/*', 'csv'],
  ] as const)('format=%s with Accept %s is %s', (format, accept, expected) => {
    expect(negotiateFormat(format, accept)).toBe(expected)
  })

  it.each([
    ['csv', 'application/json'],
    ['camt053', 'text/csv'],
    [undefined, 'image/png'],
  ] as const)('format=%s with Accept %s is 406', (format, accept) => {
    expect(() => negotiateFormat(format, accept)).toThrow(expect.objectContaining({ status: 406 }))
  })
})
