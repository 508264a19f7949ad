import { describe, expect, it } from 'vitest'
import codeSets from '../../../data/standards/iso20022/external-code-sets.json' with { type: 'json' }
import { RESPONSE_CODES } from '#lib/platform/error-codes.ts'
import { readFileSync } from 'node:fs'
import { ISO20022_TABLE, iso20022Of, iso20022Table } from '#lib/platform/iso20022.ts'

/**
 * CONTRACT 24: every responseCode Area B sends has its ISO 20022 pair, from the one table, and every
 * reason is an entry of the official code set kept in data/standards/iso20022/ (ARDT, the second
 * reversal's, is published in the cancellation-rejection set: see its README).
 */
const statuses = codeSets.ExternalPaymentTransactionStatus1Code as Record<string, unknown>
const reasons = codeSets.ExternalStatusReason1Code as Record<string, unknown>
const cancellationRejections = codeSets.ExternalPaymentCancellationRejection1Code as Record<string, unknown>

describe('the ISO 20022 table of Area B', () => {
  it('has a row for every response code the service sends, and none it does not', () => {
    const tabled = new Set(ISO20022_TABLE.map((row) => row.responseCode))
    expect([...tabled].sort()).toEqual(Object.keys(RESPONSE_CODES).sort())
  })

  it('holds every reason to the official code set and every status to ACSC (00) or RJCT', () => {
    for (const row of ISO20022_TABLE) {
      expect(statuses[row.status], row.responseCode).toBeDefined()
      if (row.responseCode === '00') {
        expect(row).toMatchObject({ status: 'ACSC', reason: null })
        continue
      }
      expect(row.status, row.responseCode).toBe('RJCT')
      const official = row.case === 'already-reversed' ? cancellationRejections : reasons
      expect(official[row.reason!], `${row.responseCode} -> ${row.reason}`).toBeDefined()
    }
  })

  it('maps the codes CONTRACT 24 names as it names them', () => {
    const expected: Record<string, string> = {
      '51': 'AM04',
      '14': 'AC02',
      '06': 'AC06',
      '25': 'AG09',
      '26': 'AM05',
      '93': 'AM05',
      '92': 'DT02',
      '91': 'DS0B',
      '94': 'DS0B',
      '95': 'FF01',
      '30': 'FF01',
      '13': 'AM12',
      '12': 'FF12',
      '96': 'FF10',
    }
    for (const [code, reason] of Object.entries(expected)) {
      expect(iso20022Of(code), code).toEqual({ status: 'RJCT', reason })
    }
    expect(iso20022Of('12', 'already-reversed')).toEqual({ status: 'RJCT', reason: 'ARDT' })
    expect(iso20022Of('12', 'too-late')).toEqual({ status: 'RJCT', reason: 'TM01' })
    expect(iso20022Of('00')).toEqual({ status: 'ACSC', reason: null })
  })

  it('is the table docs/payments.md shows, row for row', () => {
    expect(readFileSync('docs/payments.md', 'utf8')).toContain(iso20022Table())
  })
})
