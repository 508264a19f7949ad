import { describe, expect, it } from 'vitest'
import type { InvoiceRecord } from '#lib/invoice/record.ts'
import { decideInvoiceWrite, type InvoiceWriteRequest } from '#lib/invoice/sign-decision.ts'

/**
 * The invoice's validate and sign decision (lib/invoice/sign-decision.ts), with no DynamoDB: what
 * the record as read and the request come to. The HTTP tests (test/http/invoice/sign.test.ts)
 * check the same through the table; these pin each branch on its own.
 */

const IRN = 'INV001-94ND90NR-20260101'
const sign: InvoiceWriteRequest = { irn: IRN, businessId: 'biz-a', action: 'sign', contentHash: 'hash-1' }
const validate: InvoiceWriteRequest = { ...sign, action: 'validate' }

const record = (fields: Partial<InvoiceRecord>): InvoiceRecord => ({
  irn: IRN,
  businessId: 'biz-a',
  status: 'VALIDATED',
  paymentStatus: 'PENDING',
  contentHash: 'hash-1',
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  revision: 1,
  ...fields,
})

describe('decideInvoiceWrite', () => {
  it('writes a new record when none exists', () => {
    expect(decideInvoiceWrite(undefined, sign)).toEqual({ outcome: 'write', existing: undefined })
    expect(decideInvoiceWrite(undefined, validate)).toEqual({ outcome: 'write', existing: undefined })
  })

  it("refuses another business's IRN before anything else, even for the same content", () => {
    const theirs = record({ businessId: 'biz-b', status: 'SIGNED' })
    expect(decideInvoiceWrite(theirs, sign)).toEqual({
      outcome: 'conflict',
      message: `IRN ${IRN} is registered to another business`,
    })
  })

  it('replays a signed or transmitted record for the same content, whatever the action', () => {
    for (const status of ['SIGNED', 'TRANSMITTED'] as const) {
      const existing = record({ status })
      expect(decideInvoiceWrite(existing, sign)).toEqual({ outcome: 'replay', record: existing })
      expect(decideInvoiceWrite(existing, validate)).toEqual({ outcome: 'replay', record: existing })
    }
  })

  it('refuses different content over a signed record: a signed invoice is final', () => {
    const decision = decideInvoiceWrite(record({ status: 'SIGNED' }), { ...sign, contentHash: 'hash-2' })
    expect(decision.outcome).toBe('conflict')
    expect(decision).toMatchObject({
      message: expect.stringContaining('is already SIGNED with different content'),
    })
  })

  it('replays a validate of the validated content, and writes a sign of it', () => {
    const existing = record({ status: 'VALIDATED' })
    expect(decideInvoiceWrite(existing, validate)).toEqual({ outcome: 'replay', record: existing })
    expect(decideInvoiceWrite(existing, sign)).toEqual({ outcome: 'write', existing })
  })

  it('writes corrected content over a validated record, and any content over a generated one', () => {
    const validated = record({ status: 'VALIDATED' })
    expect(decideInvoiceWrite(validated, { ...validate, contentHash: 'hash-2' })).toEqual({
      outcome: 'write',
      existing: validated,
    })
    const generated = record({ status: 'GENERATED', contentHash: undefined })
    expect(decideInvoiceWrite(generated, validate)).toEqual({ outcome: 'write', existing: generated })
    expect(decideInvoiceWrite(generated, sign)).toEqual({ outcome: 'write', existing: generated })
  })
})
