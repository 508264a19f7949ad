import { describe, expect, it } from 'vitest'
import { CODES } from '#lib/ledger/codes.ts'
import { decideReversal, decideTransfer } from '#lib/ledger/decisions.ts'
import type { Account, Merchant, ReversalRecord, TransferRecord } from '#lib/ledger/repository.ts'

/**
 * The ledger's transfer and reversal decisions (lib/ledger/decisions.ts), with no DynamoDB: what
 * was read and the request come to, with the response code. The HTTP tests (test/http/ledger/endpoints.test.ts)
 * check the same through the table and the transaction's conditions.
 */

const account: Account = {
  accountNumber: '0123456789',
  name: 'Ada',
  currency: 'NGN',
  balanceKobo: 10_000,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
}
const merchant: Merchant = { merchantId: 'M1', name: 'Shop', active: true, createdAt: '2026-01-01T00:00:00Z' }
const request = {
  requestId: 'r1',
  merchantId: 'M1',
  accountNumber: '0123456789',
  amountKobo: 10_000,
  bodyHash: 'h1',
}

const transfer = (fields: Partial<TransferRecord> = {}): TransferRecord => ({
  kind: 'TRANSFER',
  switchClientId: 'sw',
  requestId: 'r1',
  bodyHash: 'h1',
  reply: { responseCode: '00' },
  status: 'SUCCESSFUL',
  responseCode: '00',
  amountKobo: 10_000,
  accountNumber: '0123456789',
  merchantId: 'M1',
  merchantReference: 'ref',
  providerReference: 'TNX1',
  productCode: 'P1',
  createdAt: '2026-01-01T00:00:00.000',
  ...fields,
})

describe('decideTransfer', () => {
  it('approves a transfer the balance covers exactly (balance >= amount)', () => {
    expect(decideTransfer({ merchant, account }, request)).toMatchObject({
      outcome: 'approved',
      status: 'SUCCESSFUL',
      responseCode: CODES.approved,
    })
  })

  it('declines (51) one kobo over the balance, and records it as FAILED', () => {
    expect(decideTransfer({ merchant, account }, { ...request, amountKobo: 10_001 })).toMatchObject({
      outcome: 'declined',
      status: 'FAILED',
      responseCode: CODES.insufficientFunds,
    })
  })

  it('refuses an unknown or inactive merchant (03) before looking at the account', () => {
    for (const read of [{ account }, { account, merchant: { ...merchant, active: false } }]) {
      expect(decideTransfer(read, request)).toMatchObject({
        outcome: 'refused',
        http: 404,
        responseCode: CODES.invalidMerchant,
      })
    }
  })

  it('refuses an unknown account (14)', () => {
    expect(decideTransfer({ merchant }, request)).toMatchObject({
      http: 404,
      responseCode: CODES.unknownAccount,
    })
  })

  it('replays the first reply of the same request, and refuses the requestId with another body (26)', () => {
    const existing = transfer()
    expect(decideTransfer({ existing, merchant, account }, request)).toEqual({
      outcome: 'replay',
      reply: existing.reply,
    })
    expect(decideTransfer({ existing, merchant, account }, { ...request, bodyHash: 'h2' })).toMatchObject({
      outcome: 'refused',
      http: 409,
      responseCode: CODES.duplicateRecord,
    })
  })
})

describe('decideReversal', () => {
  // A day after the fixture's transfer (2026-01-01T00:00 Lagos), in a 30-day window.
  const reversal = {
    requestId: 'rev1',
    originalRequestId: 'r1',
    bodyHash: 'hr',
    mayReadAgain: true,
    atMs: Date.parse('2026-01-02T00:00:00+01:00'),
    windowDays: 30,
  }

  it('reverses up to the end of the window, and refuses after it with 12 (TM01)', () => {
    const original = transfer()
    const end = Date.parse('2026-01-31T00:00:00+01:00')
    expect(decideReversal({ original }, { ...reversal, atMs: end })).toEqual({ outcome: 'reverse', original })
    expect(decideReversal({ original }, { ...reversal, atMs: end + 1 })).toMatchObject({
      outcome: 'refused',
      http: 409,
      responseCode: CODES.invalidTransaction,
      iso20022Case: 'too-late',
    })
  })

  it('takes the full amount only: another is 13 at amount', () => {
    const original = transfer()
    expect(decideReversal({ original }, { ...reversal, amountKobo: 10_000 })).toEqual({
      outcome: 'reverse',
      original,
    })
    expect(decideReversal({ original }, { ...reversal, amountKobo: 9_999 })).toMatchObject({
      outcome: 'refused',
      http: 400,
      responseCode: CODES.invalidAmount,
      path: 'amount',
    })
  })

  it('reverses a successful transfer', () => {
    const original = transfer()
    expect(decideReversal({ original }, reversal)).toEqual({ outcome: 'reverse', original })
  })

  it('refuses a missing original, or one that is itself a reversal (25)', () => {
    const notATransfer: ReversalRecord = {
      kind: 'REVERSAL',
      switchClientId: 'sw',
      requestId: 'r1',
      bodyHash: 'x',
      reply: {},
      originalRequestId: 'r0',
      createdAt: '2026-01-01T00:00:00.000',
    }
    for (const original of [undefined, notATransfer]) {
      expect(decideReversal({ original }, reversal)).toMatchObject({
        http: 404,
        responseCode: CODES.originalNotFound,
      })
    }
  })

  it('refuses a declined or already reversed transfer (12): no money moves twice', () => {
    for (const original of [
      transfer({ status: 'FAILED', responseCode: '51' }),
      transfer({ status: 'REVERSED', reversedBy: 'other' }),
    ]) {
      expect(decideReversal({ original }, reversal)).toMatchObject({
        http: 409,
        responseCode: CODES.invalidTransaction,
      })
    }
  })

  it('reads again when the original was reversed by this very request, and only while it may', () => {
    const original = transfer({ status: 'REVERSED', reversedBy: 'rev1' })
    expect(decideReversal({ original }, reversal)).toEqual({ outcome: 'read-again' })
    expect(decideReversal({ original }, { ...reversal, mayReadAgain: false })).toMatchObject({
      responseCode: CODES.invalidTransaction,
    })
  })

  it('replays its own earlier record before looking at the original', () => {
    const existing: ReversalRecord = {
      kind: 'REVERSAL',
      switchClientId: 'sw',
      requestId: 'rev1',
      bodyHash: 'hr',
      reply: { responseCode: '00', reversed: true },
      originalRequestId: 'r1',
      createdAt: '2026-01-01T00:00:00.000',
    }
    expect(
      decideReversal({ existing, original: transfer({ status: 'REVERSED', reversedBy: 'rev1' }) }, reversal),
    ).toEqual({
      outcome: 'replay',
      reply: existing.reply,
    })
  })
})

describe('a session id (CONTRACT 24)', () => {
  const session = {
    kind: 'SESSION' as const,
    switchClientId: 'sw',
    sessionId: '0'.repeat(30),
    requestId: 'r0',
    reply: {},
  }
  it('is refused with 26 under another requestId, allowed under its own', () => {
    expect(decideTransfer({ session, merchant, account }, request)).toMatchObject({
      outcome: 'refused',
      http: 409,
      responseCode: CODES.duplicateRecord,
    })
    expect(decideTransfer({ session, merchant, account }, { ...request, requestId: 'r0' })).toMatchObject({
      outcome: 'approved',
    })
  })
  it("is the status query's final 25 once it was queried before it was received", () => {
    const notReceived = {
      kind: 'NOT_RECEIVED' as const,
      switchClientId: 'sw',
      sessionId: '0'.repeat(30),
      queriedAt: '2026-01-01T00:00:00.000Z',
      expiresAt: 0,
    }
    expect(decideTransfer({ session: notReceived, merchant, account }, request)).toMatchObject({
      responseCode: CODES.originalNotFound,
      http: 404,
    })
  })
})
